"""`kafka-advisor recommend`: the values a load profile calls for, computed from its numbers, with
formulas, reasons, costs and the metric that proves each (docs/recommend.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from advisor.output import formats

FIELDS = (  # flag, profile field, type, help
    ("--message-bytes", "message_bytes_avg", int, "average record size in bytes"),
    ("--max-message-bytes", "message_bytes_max", int, "largest record in bytes"),
    ("--rate-mb-s", "rate_mb_s", float, "average MB/s in"),
    ("--rate-msgs-s", "rate_msgs_s", float, "average records/s in"),
    ("--peak-factor", "peak_factor", float, "peak rate over the average"),
    ("--producers", "producers", int, "producer instances sharing the rate"),
    ("--consumer-groups", "consumer_groups", int, "groups reading every record"),
    ("--consumers", "consumers_per_group", int, "consumer instances a group"),
    ("--processing-ms", "processing_ms", float, "a consumer's processing time per record"),
    ("--p99-ms", "p99_ms", float, "end-to-end p99 target"),
    ("--retention-hours", "retention_hours", float, "how long records stay"),
    ("--partitions", "partitions", int, "the topic's partitions, if fixed"),
    ("--brokers", "brokers", int, "brokers in the cluster"),
    ("--replication-factor", "replication_factor", int, "copies of each partition"),
)


CAMUNDA_FIELDS: tuple[
    tuple[str, str, type, str], ...
] = (  # the Camunda pack's numbers (docs/camunda.md): flag, profile field, type, help
    ("--pi-per-second", "pi_per_second", float, "--camunda: process instances started a second"),
    ("--records-per-instance", "records_per_instance", float, "--camunda: log records one instance writes"),
    ("--disk-gb", "disk_gb", float, "--camunda: each broker's data volume, GB"),
    ("--record-bytes", "record_bytes", int, "--camunda: a log record's average size in bytes"),
    (
        "--client-wait-ms",
        "client_wait_ms",
        float,
        "--camunda: how long a client may spend retrying one refused request (sizes the SDK's retries)",
    ),
    ("--camunda-version", "release", str, "--camunda: the Camunda release (default: the catalog's newest)"),
)
SHARED_WITH_CAMUNDA = ("peak_factor", "partitions", "brokers", "replication_factor", "p99_ms")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--goal", choices=("throughput", "latency", "durability", "availability", "balanced"),
                        help="the preset the numbers refine (default: the profile file's, else balanced)")  # fmt: skip
    parser.add_argument("--load", metavar="FILE", help="a load profile (JSON or YAML; docs/recommend.md)")
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help="project config whose [load] table is the base (default: the closest one)")  # fmt: skip
    for flag, field, kind, text in FIELDS:
        parser.add_argument(flag, dest=field, type=kind, help=text)
    parser.add_argument("--loss", choices=("none", "some"), help="may acknowledged records be lost?")
    parser.add_argument("--ordering", choices=("per-key", "none"), help="must a key's records stay ordered?")
    in_play = "producers write in transactions (a transactional.id in your configurations says so too)"
    parser.add_argument("--transactions", action="store_true", default=None, help=in_play)
    parser.add_argument("--client", choices=("java", "librdkafka", "kafka-python"), default=None,
                        help="spell the client settings for this library (default: java)")  # fmt: skip
    parser.add_argument("--output-format", choices=formats("recommend"), default="text")
    parser.add_argument("-o", dest="outputs", action="append", default=[], metavar="FORMAT=PATH",
                        help=f"also write FORMAT ({', '.join(formats('recommend'))}) to PATH")  # fmt: skip
    parser.add_argument("--snippet", action="append", choices=("spring", "compose", "strimzi", "helm"), default=[],
                        help="also show the values as this form (repeatable; JSON always has them all)")  # fmt: skip
    mine = "your configurations (any format lint reads): each value now beside the recommended one"
    parser.add_argument("configs", nargs="*", type=Path, metavar="CONFIG", help=mine)
    parser.add_argument("--kafka-version", metavar="V", help="Kafka version of the configurations (default: theirs)")
    patch = "print the changes to your files as a unified diff, each read back to prove it (nothing is written)"
    parser.add_argument("--diff", action="store_true", help=patch)
    parser.add_argument("--apply", action="store_true",
                        help="write the first step's changes into your files (docs/fix.md), then print "
                             "its check")  # fmt: skip
    parser.add_argument("--only", metavar="KEY[,KEY]", help="with --apply: the changes of these keys instead")
    parser.add_argument("--all", action="store_true", help="with --apply: every step at once (not the method)")
    parser.add_argument("--camunda", action="store_true",
                        help="a Camunda 8 (Zeebe) workload's flow-control values instead (docs/camunda.md): "
                             "--pi-per-second, --records-per-instance, --partitions, --brokers, "
                             "--replication-factor, --peak-factor, --p99-ms, --disk-gb, --record-bytes")  # fmt: skip
    for flag, field, number, text in CAMUNDA_FIELDS:
        parser.add_argument(flag, dest=field, type=number, help=text)


def run(args: argparse.Namespace) -> int:
    if args.camunda:
        return run_camunda(args)
    given = [flag for flag, field, _, _ in CAMUNDA_FIELDS if getattr(args, field) is not None]
    if given:
        print(f"kafka-advisor recommend: error: {', '.join(given)} go with --camunda", file=sys.stderr)
        return 2
    from advisor.catalog import UnknownVersionError
    from advisor.output import inert, render
    from advisor.recommend.against import compare, kept, transactions_in
    from advisor.recommend.plan import plan

    flags = {field: getattr(args, field) for _, field, _, _ in FIELDS if getattr(args, field) is not None}
    for name in ("goal", "loss", "ordering", "transactions"):
        if getattr(args, name) is not None:
            flags[name] = getattr(args, name)
    profile = profile_from(args, flags, "recommend")
    if isinstance(profile, int):
        return profile
    if ((args.only or args.all) and not args.apply) or (args.apply and not args.configs) or (args.only and args.all):
        print("kafka-advisor recommend: error: --apply needs CONFIG files; --only or --all go with --apply, "
              "not together", file=sys.stderr)  # fmt: skip
        return 2
    read = _read_configs(args) if args.configs else None
    if isinstance(read, int):
        return read
    document, kafka_version = read if read is not None else (None, None)
    seen = {}
    if document is not None and (transactions := transactions_in(document)) is not None:
        seen["transactions"] = transactions  # consumers' isolation is in play
    result = plan(profile, args.client or "java", seen)._replace(snippets=tuple(args.snippet))
    if document is not None:
        try:
            compared = compare(result.recommendations, document, kafka_version)
            result = result._replace(against=tuple(compared), kept=tuple(kept(document, compared)))
        except UnknownVersionError as error:
            print(f"kafka-advisor recommend: error: {inert(str(error))}", file=sys.stderr)
            return 2
        if args.apply:
            from advisor.cli.recommend_apply import apply

            return apply(result, document, list(args.configs), args.only, args.all)
        if args.diff:
            from advisor.fix import plan_changes, unified_diff

            changes = [a.change for a in result.against if a.change is not None]
            patch = unified_diff(plan_changes(changes, document, ("unsafe", "safe"), join_inserts=True), document)
            sys.stdout.write(patch)
            return 1 if patch else 0
    failed = _write_outputs(args, result, document)
    sys.stdout.write(render(result, args.output_format))
    return 2 if failed else 0


def _write_outputs(args: argparse.Namespace, result: object, document: object) -> bool:
    """`-o FORMAT=PATH`: each written, never over an input (a configuration, the profile file)."""
    from collections.abc import Callable

    from advisor.cli.lint import write_outputs
    from advisor.output import render

    def later(fmt: str) -> Callable[[], str]:
        return lambda: render(result, fmt)  # type: ignore[arg-type]

    writes: list[tuple[str, Path, Callable[[], str]]] = []
    for spec in args.outputs:
        fmt, sep, path = spec.partition("=")
        if not sep or fmt not in formats("recommend") or not path:
            print(f"kafka-advisor recommend: error: -o expects FORMAT=PATH with FORMAT one of "
                  f"{', '.join(formats('recommend'))}, got {spec!r}", file=sys.stderr)  # fmt: skip
            return True
        writes.append((f"-o {fmt}=", Path(path), later(fmt)))
    inputs = [Path(source.path) for source in getattr(document, "files", [])] + list(args.configs)
    inputs += [Path(args.load)] if args.load else []
    return write_outputs("recommend", writes, inputs) if writes else False


def _read_configs(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """The user's configurations as one document, read by the session's read stage as lint reads
    them (the project config's overrides and clusters included), with the Kafka version it is
    judged at; 2 on an input error."""
    from advisor.catalog import UnknownVersionError
    from advisor.cli.lint import configs_request
    from advisor.output import inert
    from advisor.report import session

    request = configs_request(list(args.configs), args.config, "recommend", kafka_version=args.kafka_version)
    if isinstance(request, int):
        return request
    try:
        inputs = session.read(request)
    except (UnknownVersionError, OSError) as error:
        print(f"kafka-advisor recommend: error: {inert(str(error))}", file=sys.stderr)
        return 2
    unread = [*inputs.problems, *inputs.document.errors]
    for problem in unread:
        print(f"kafka-advisor: {inert(str(problem))}", file=sys.stderr)
    return 2 if unread else (inputs.document, request.kafka_version)


def profile_from(args: argparse.Namespace, flags: dict, command: str):  # type: ignore[no-untyped-def, type-arg]
    """The load profile from the project config's [load], a --load file and the flags; 2 (after
    saying where) when it is not a valid profile."""
    from pydantic import ValidationError

    from advisor import project_config
    from advisor.model.document import LoadError
    from advisor.recommend import load_file
    from advisor.recommend.profile import LoadProfile

    try:
        found = args.config or project_config.find(Path.cwd())
        config = project_config.load(found) if found else None
        fields, where = load_file.gather(args.load, flags, config)
    except (load_file.ProfileError, LoadError, ValueError, OSError) as error:
        print(f"kafka-advisor {command}: error: {error}", file=sys.stderr)
        return 2
    try:
        return LoadProfile.model_validate(fields)
    except ValidationError as error:
        for problem in error.errors():
            name = ".".join(str(part) for part in problem["loc"])
            said = f"{where[name]}: {name}" if name in where else name or "profile"
            print(f"kafka-advisor {command}: error: {said}: {problem['msg']}", file=sys.stderr)
        return 2


def run_camunda(args: argparse.Namespace) -> int:
    """`recommend --camunda`: the Camunda pack's plan, with the broker configurations given beside it."""
    from pydantic import ValidationError

    from advisor.catalog.camunda import UnknownReleaseError
    from advisor.output import inert, render
    from advisor.recommend.camunda import CamundaProfile, plan

    fields = [field for _, field, _, _ in CAMUNDA_FIELDS] + list(SHARED_WITH_CAMUNDA)
    values = {field: getattr(args, field) for field in fields if getattr(args, field, None) is not None}
    kafka_only = [name for name in ("goal", "load", "loss", "ordering", "transactions", "message_bytes_avg",
                                    "message_bytes_max", "rate_mb_s", "rate_msgs_s", "producers", "consumer_groups",
                                    "consumers_per_group", "processing_ms", "retention_hours", "kafka_version")
                  if getattr(args, name, None) not in (None, False)]  # fmt: skip
    kafka_flags = [flag for flag, given in (("--snippet", args.snippet), ("--all", args.all), ("--client", args.client),
                                            ("--config without CONFIG files", args.config and not args.configs),
                                            ("--apply or --diff without CONFIG files",
                                             (args.apply or args.diff) and not args.configs),
                                            ("--only without --apply", args.only and not args.apply))
                   if given]  # fmt: skip
    if kafka_only or kafka_flags:
        flag_of = {field: flag for flag, field, _, _ in FIELDS}
        named = [flag_of.get(name, "--" + name.replace("_", "-")) for name in kafka_only]
        said = ", ".join([*named, *kafka_flags])
        print("kafka-advisor recommend: error: with --camunda only its numbers, CONFIG files, --output-format, -o, "
              f"--diff and --apply [--only] apply{f' (not {said})' if said else ''}", file=sys.stderr)  # fmt: skip
        return 2
    try:
        profile = CamundaProfile(**values)
        config_sets = []
        if args.configs:
            read = _read_configs(args)
            if isinstance(read, int):
                return read
            config_sets = read[0].config_sets
            stated = sorted({cs.kafka_version for cs in config_sets if cs.component == "zeebe-broker" and
                             cs.kafka_version}, key=_release_order)  # fmt: skip
            if profile.release is None and stated:  # the configurations say their release: spell for it
                profile = profile.model_copy(update={"release": stated[-1]})
        result = plan(profile, config_sets)
    except (ValidationError, UnknownReleaseError) as error:
        print(f"kafka-advisor recommend: error: {inert(str(error).splitlines()[0])}", file=sys.stderr)
        return 2
    if args.apply or args.diff:
        from advisor.cli.recommend_apply import apply_camunda

        return apply_camunda(result, read[0], list(args.configs), args.only, write=bool(args.apply))
    failed = _write_outputs(args, result, read[0] if args.configs else None)
    sys.stdout.write(render(result, args.output_format))
    return 2 if failed else 0


def _release_order(version: str) -> tuple[int, ...]:
    from advisor.catalog.camunda import UnknownReleaseError, parse

    try:
        return parse(version)
    except UnknownReleaseError:
        return (0,)
