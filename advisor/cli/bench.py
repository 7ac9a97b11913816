"""`kafka-advisor bench`: the producer settings before and after a recommendation, run with Kafka's
own kafka-producer-perf-test on a real cluster, interleaved A B A B after a warm-up, at equal
durability; records/s, MB/s and latency percentiles as medians with their spread, and the ratios
(docs/bench.md)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from advisor.cli.recommend import FIELDS, profile_from
from advisor.output import formats

EQUAL_DURABILITY = {"acks": "all", "enable.idempotence": "true"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bootstrap-server", required=True, metavar="HOST:PORT", help="the cluster to run on")
    parser.add_argument("--command-config", type=Path, metavar="FILE",
                        help="client settings the cluster needs (security), added to both sides")  # fmt: skip
    tool = parser.add_mutually_exclusive_group(required=True)
    tool.add_argument("--perf-test", type=Path, metavar="SCRIPT", help="kafka-producer-perf-test(.sh) to run")
    tool.add_argument("--classpath", metavar="CP", help="Kafka's jars, to run its ProducerPerformance with java")
    parser.add_argument("--before", type=Path, metavar="FILE", help="producer settings A (default: the defaults)")
    parser.add_argument("--after", type=Path, metavar="FILE",
                        help="producer settings B (default: what recommend gives for the profile)")  # fmt: skip
    parser.add_argument("--goal", choices=("throughput", "latency", "durability", "availability", "balanced"))
    parser.add_argument("--load", metavar="FILE", help="a load profile (JSON or YAML)")
    parser.add_argument("--config", type=Path, metavar="FILE", help="project config with a [load] table")
    for flag, field, kind, text in FIELDS:
        parser.add_argument(flag, dest=field, type=kind, help=text)
    parser.add_argument("--consumer-before", type=Path, metavar="FILE", help="consumer settings A (default: defaults)")
    parser.add_argument("--consumer-after", type=Path, metavar="FILE",
                        help="consumer settings B (default: what recommend gives for the profile)")  # fmt: skip
    parser.add_argument("--no-consumer", action="store_true", help="run the producer sides only")
    parser.add_argument("--throughput", type=int, default=None, metavar="N",
                        help="the live stream's rate, N records a second (default: half of what a short ramp finds "
                        "the before side sustains); implies --live")  # fmt: skip
    parser.add_argument("--live", action="store_true",
                        help="also compare a live stream at a bounded rate: the producer's latency there and each "
                        "record's end-to-end latency through the consumer settings (the latency goal's only "
                        "comparison unless --unbounded)")  # fmt: skip
    parser.add_argument("--unbounded", action="store_true",
                        help="with --goal latency or --throughput: run the unbounded producer and backlog consumer "
                        "comparison as well")  # fmt: skip
    payload = (
        "records to send, one a line — samples of your own, so that compression is measured on real data "
        "(default: the tool's random letters at the profile's message size)"
    )
    parser.add_argument("--payload-file", type=Path, metavar="FILE", help=payload)
    parser.add_argument("--records", type=int, default=200_000, help="records a run (default 200000)")
    parser.add_argument(
        "--rounds",
        type=int,
        default=4,
        help="runs of each side after the warm-up (default 4: the fewest that can give a verdict)",
    )
    parser.add_argument("--topic-partitions", type=int, default=6, help="partitions of the bench's topic (6)")
    parser.add_argument("--save-runs", type=Path, metavar="DIR",
                        help="save each counted producer run's output there (before-N.txt, after-N.txt): "
                             "verify reads them and gives the same verdicts")  # fmt: skip
    parser.add_argument("--output-format", choices=formats("bench"), default="text")


def _settings(path: Path, role: str = "producer") -> dict[str, str]:
    """A side's settings: the file read by the session's read stage as lint reads it, as `role`."""
    from advisor.cli.lint import configs_request
    from advisor.report import session

    request = configs_request([path], None, "bench", component=role)
    if isinstance(request, int):
        raise ValueError(f"{path}: the project config beside it cannot be read")
    inputs = session.read(request)
    unread = [*inputs.problems, *inputs.document.errors]
    if unread:
        raise ValueError(str(unread[0]))
    document = inputs.document
    return {key: s.value for config_set in document.config_sets for key, s in config_set.settings.items()}


def run(args: argparse.Namespace) -> int:
    import importlib.util

    from advisor.bench import compare, perf
    from advisor.output import inert, render
    from advisor.recommend.plan import plan

    if importlib.util.find_spec("confluent_kafka") is None:
        print("kafka-advisor bench: error: bench creates its topic with the Kafka client (confluent-kafka), which "
              "is not installed: pip install 'kafka-advisor[live]'", file=sys.stderr)  # fmt: skip
        return 2
    rate = args.throughput if args.throughput is not None else 1
    if args.records < 1 or args.rounds < 1 or args.topic_partitions < 1 or rate < 1:
        print("kafka-advisor bench: error: --records, --rounds, --topic-partitions and --throughput must be positive",
              file=sys.stderr)  # fmt: skip
        return 2
    flags = {field: getattr(args, field) for _, field, _, _ in FIELDS if getattr(args, field) is not None}
    if args.goal:
        flags["goal"] = args.goal
    profile = profile_from(args, flags, "bench")
    if isinstance(profile, int):
        return profile
    try:
        common = {"bootstrap.servers": args.bootstrap_server}
        if args.command_config:
            common |= _settings(args.command_config)
        before = _settings(args.before) if args.before else {}
        recommended = plan(profile, "java").recommendations
        after = _settings(args.after) if args.after else {r.key: r.value for r in recommended
                                                          if r.component == "producer"}  # fmt: skip
        consumers = None
        if not args.no_consumer:
            consumer_after = _settings(args.consumer_after, "consumer") if args.consumer_after else {
                r.key: r.value for r in recommended if r.component == "consumer"}  # fmt: skip
            consumer_before = _settings(args.consumer_before, "consumer") if args.consumer_before else {}
            consumers = ({**common, **consumer_before}, {**common, **consumer_after})
        payload = perf.payload(args.payload_file) if args.payload_file else None
    except (ValueError, OSError) as error:
        print(f"kafka-advisor bench: error: {inert(str(error).splitlines()[0])}", file=sys.stderr)
        return 2
    resolved = plan(profile, "java").profile
    size = int(resolved["message_bytes_avg"])
    replication = int(resolved["replication_factor"])
    sides = {name: {**common, **settings, **EQUAL_DURABILITY} for name, settings in (("before", before),
                                                                                    ("after", after))}  # fmt: skip
    tool = perf.Tool(script=args.perf_test, classpath=args.classpath)
    live_plan = _live_plan(args, plan(profile, "java").profile)
    save = _saver(args) if args.save_runs is not None else None
    if isinstance(save, str):
        print(f"kafka-advisor bench: error: --save-runs {inert(save)}", file=sys.stderr)
        return 2
    admin = {k: v for k, v in common.items() if not k.startswith(("key.", "value.", "linger", "batch", "acks"))}
    try:
        with compare.bench_topic(admin, args.topic_partitions, replication, max(1, replication - 1)) as topic, \
                _progress_bar() as progress:  # fmt: skip
            outcome = compare.run(tool, topic, sides["before"], sides["after"], args.records, size, args.rounds,
                                  progress=progress, consumers=consumers, payload=payload,
                                  save=save, live_plan=live_plan, cluster=common)  # fmt: skip
    except perf.PerfError as error:
        print(f"kafka-advisor bench: error: {inert(str(error))}", file=sys.stderr)
        return 2
    except Exception as error:  # noqa: BLE001 - the cluster refused (KafkaException): said in one line
        print(f"kafka-advisor bench: error: the cluster: {type(error).__name__}: {inert(str(error))[:300]}",
              file=sys.stderr)  # fmt: skip
        return 2
    sys.stdout.write(render(outcome.redacted(), args.output_format))
    if args.save_runs is not None:
        folder = args.save_runs
        prefixes = (["live-"] if outcome.live_before is not None else []) + ([""] if outcome.before.measured else [])
        for prefix in prefixes:
            print(
                f"kafka-advisor bench: runs saved in {inert(str(folder))}: kafka-advisor verify --before "
                f"{folder}/{prefix}before-*.txt --after {folder}/{prefix}after-*.txt --expect KEY judges them alike",
                file=sys.stderr,
            )
    return 0


def _live_plan(args: argparse.Namespace, resolved: Any) -> Any:
    """The live runs asked for (compare.Live), or None: a latency goal is compared on a live stream
    (an unbounded run's latency is queueing behind the producer's own backlog), and so is any
    bench given a rate; the profile's rate, when the user gave it, caps the one a ramp finds."""
    from advisor.bench import compare

    if not (args.live or args.throughput is not None or resolved.goal == "latency"):
        return None
    given = {"rate_msgs_s", "rate_mb_s"} & set(resolved.given)
    cap = int(resolved.msgs_per_second) if given else None
    unbounded = args.unbounded or (args.live and resolved.goal != "latency")
    return compare.Live(args.throughput, max(1, cap) if cap else None, unbounded)


def _saver(args: argparse.Namespace) -> Callable[[str, str], None] | str:
    """What writes a run's output into --save-runs, or why it cannot: the folder must exist, and no
    input (a settings file, the command config) is ever written over."""
    from advisor import safe_write
    from advisor.bench import perf

    folder: Path = args.save_runs
    if not folder.is_dir():
        return f"{folder}: not a folder"
    inputs = [p for p in (args.before, args.after, args.consumer_before, args.consumer_after, args.command_config,
                          args.payload_file) if p is not None]  # fmt: skip

    def save(name: str, output: str) -> None:
        target = folder / f"{name}.txt"
        refused = safe_write.refusal(target, inputs)
        if refused:
            raise perf.PerfError(f"--save-runs {refused}")
        safe_write.write_atomically(target, output)

    return save


@contextmanager
def _progress_bar() -> Iterator[Callable[[str], None]]:
    """A bar on a terminal (rich, on stderr), a line a run otherwise (CI logs)."""
    if not sys.stderr.isatty():
        yield lambda text: print(f"kafka-advisor bench: {text}", file=sys.stderr)
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True)) as bar:
        task = bar.add_task("bench", total=None)

        def advance(text: str) -> None:  # "run 3/12: producer after"
            done, _, rest = text.partition(": ")
            number, _, total = done.removeprefix("run ").partition("/")
            bar.update(task, description=rest, completed=int(number) - 1, total=int(total))

        yield advance
