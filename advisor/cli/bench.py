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

from advisor.cli.recommend import FIELDS, profile_from

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
    parser.add_argument("--throughput", type=int, default=-1, metavar="N",
                        help="at most N records a second (default -1: unbounded); bound it to compare latency at a "
                        "rate the cluster sustains")  # fmt: skip
    payload = (
        "records to send, one a line — samples of your own, so that compression is measured on real data "
        "(default: the tool's random letters at the profile's message size)"
    )
    parser.add_argument("--payload-file", type=Path, metavar="FILE", help=payload)
    parser.add_argument("--records", type=int, default=200_000, help="records a run (default 200000)")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each side after the warm-up (default 2)")
    parser.add_argument("--topic-partitions", type=int, default=6, help="partitions of the bench's topic (6)")
    parser.add_argument("--output-format", choices=("text", "json"), default="text")


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
    import json

    from advisor.bench import compare, perf
    from advisor.output import inert
    from advisor.recommend.plan import plan

    if importlib.util.find_spec("confluent_kafka") is None:
        print("kafka-advisor bench: error: bench creates its topic with the Kafka client (confluent-kafka), which "
              "is not installed: pip install 'kafka-advisor[live]'", file=sys.stderr)  # fmt: skip
        return 2
    if args.records < 1 or args.rounds < 1 or args.topic_partitions < 1:
        print(
            "kafka-advisor bench: error: --records, --rounds and --topic-partitions must be positive", file=sys.stderr
        )
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
    admin = {k: v for k, v in common.items() if not k.startswith(("key.", "value.", "linger", "batch", "acks"))}
    try:
        with compare.bench_topic(admin, args.topic_partitions, replication, max(1, replication - 1)) as topic, \
                _progress_bar() as progress:  # fmt: skip
            outcome = compare.run(tool, topic, sides["before"], sides["after"], args.records, size, args.rounds,
                                  progress=progress, consumers=consumers, throughput=args.throughput,
                                  payload=payload)  # fmt: skip
    except perf.PerfError as error:
        print(f"kafka-advisor bench: error: {inert(str(error))}", file=sys.stderr)
        return 2
    except Exception as error:  # noqa: BLE001 - the cluster refused (KafkaException): said in one line
        print(f"kafka-advisor bench: error: the cluster: {type(error).__name__}: {inert(str(error))[:300]}",
              file=sys.stderr)  # fmt: skip
        return 2
    if args.output_format == "json":
        print(json.dumps(_public(outcome.to_dict()), indent=2))
    else:
        sys.stdout.write(_text(outcome))
    return 0


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


def _public(record: dict) -> dict:  # type: ignore[type-arg]
    """No secret in any output: the sides' settings without the cluster's credentials."""
    from advisor.secrets import REDACTED, is_secret_key

    for holder in (record, record.get("consumer") or {}):
        for side in ("before", "after"):
            if side in holder:
                settings = holder[side]["settings"]
                holder[side]["settings"] = {k: REDACTED if is_secret_key(k) else v for k, v in settings.items()}
    return record


def _text(outcome) -> str:  # type: ignore[no-untyped-def]
    from advisor.bench.compare import FIGURES

    names = {"records_per_second": "records/s", "mib_per_second": "MiB/s", "p50_ms": "p50 ms", "p95_ms": "p95 ms",
             "p99_ms": "p99 ms", "p999_ms": "p99.9 ms"}  # fmt: skip
    records = (f"records of {outcome.size} bytes" if outcome.payload is None else
               f"records from {outcome.payload.path.name} ({outcome.payload.records:,} lines, {outcome.size} bytes "
               "on average)")  # fmt: skip
    head = (f"kafka-producer-perf-test on {outcome.topic}: {outcome.records:,} {records} a run, "
            f"{len(outcome.before.runs)} runs a side after a warm-up, interleaved; acks=all and idempotence on both "
            "sides (equal durability)")  # fmt: skip
    lines = [head, "", f"{'':12}{'before':>22}{'after':>22}{'after/before':>14}"]
    for name in FIGURES:
        old, new = outcome.before.figure(name), outcome.after.figure(name)
        ratio = outcome.ratio(name)
        lines.append(f"{names[name]:12}{old.median:>14,.1f} ±{old.spread / 2:<7,.1f}{new.median:>14,.1f} "
                     f"±{new.spread / 2:<7,.1f}{(f'{ratio:.2f}×' if ratio else '—'):>13}")  # fmt: skip
    before_metrics, after_metrics = outcome.before.explaining(), outcome.after.explaining()
    explained = [name for name in before_metrics if name in after_metrics]
    if explained:
        lines += ["", "why (the producer's own metrics, medians):"]
        lines += [f"  {name:26}{before_metrics[name]:>16,.3f}{after_metrics[name]:>22,.3f}" for name in explained]
    if outcome.consumer_before is not None and outcome.consumer_after is not None:
        lines += ["", "consumer (kafka-consumer-perf-test, fetch figures: the group join left out)"]
        for name, shown in (("fetch_mib_per_second", "fetch MiB/s"), ("fetch_records_per_second", "fetch rec/s")):
            old, new = outcome.consumer_before.figure(name), outcome.consumer_after.figure(name)
            ratio = outcome.ratio(name, outcome.consumer_before, outcome.consumer_after)
            lines.append(f"{shown:12}{old.median:>14,.1f} ±{old.spread / 2:<7,.1f}{new.median:>14,.1f} "
                         f"±{new.spread / 2:<7,.1f}{(f'{ratio:.2f}×' if ratio else '—'):>13}")  # fmt: skip
    changed = {k: v for k, v in outcome.after.settings.items() if outcome.before.settings.get(k) != v}
    lines += [
        "",
        "after sets: " + ", ".join(f"{k}={v}" for k, v in sorted(changed.items()) if k != "bootstrap.servers"),
    ]
    return "\n".join(lines) + "\n"
