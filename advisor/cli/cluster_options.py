"""The options that name a running cluster — `--bootstrap-server` (with `--command-config`,
`--timeout`) or a saved `--snapshot` — and its read, shared by `audit` (the cluster judged) and
`lint` (the cluster as the context a reassignment plan or a topic definition is judged against).
A progress bar shows on a terminal only; a cluster that cannot be read is the run's error, in every
output format, and the files are still judged."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from advisor import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


def _seconds(text: str) -> float:
    value = float(text)
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"a timeout is 0 to 3600 seconds, got {text}")
    return value


def add_cluster_options(parser: argparse.ArgumentParser, required: bool) -> None:
    source = parser.add_mutually_exclusive_group(required=required)
    source.add_argument("--bootstrap-server", metavar="HOST:PORT[,...]", help="the cluster to read")
    source.add_argument(
        "--snapshot", type=Path, metavar="FILE", help="a snapshot saved by audit --save-snapshot, read offline"
    )
    parser.add_argument("--command-config", type=Path, metavar="FILE",
                        help="client settings the cluster needs (security), as Kafka's tools take them")  # fmt: skip
    parser.add_argument("--timeout", type=_seconds, default=60.0, metavar="SECONDS",
                        help="the whole read's time bound (default 60)")  # fmt: skip
    parser.add_argument("--metrics", action="append", default=[], metavar="PATH|URL",
                        help="the cluster's metrics: a saved scrape, a folder of them or an exporter endpoint "
                             "(repeatable); a throttle is judged against the brokers' write rate")  # fmt: skip
    from advisor.cli.analyze import add_measure_options

    add_measure_options(parser)


def with_metrics(args: argparse.Namespace, command: str, request: Any) -> Any:
    """The run request with the cluster's metrics (--metrics, --prometheus) added, or an exit code
    after saying why they cannot be read as given."""
    if not (args.metrics or args.prometheus or args.time or args.samples > 1):
        return request  # a lint of files alone: nothing of the metrics' readers imported
    from advisor.cli.analyze import measure_refusal, measured
    from advisor.cli.lint import EXIT_ERROR
    from advisor.metrics.files import split_inputs
    from advisor.output import inert

    files, endpoints, others = split_inputs(list(args.metrics))
    unread = [p for p in others if not p.is_dir()]
    why = "not metrics kafka-advisor reads" if unread and unread[0].exists() else "no such file or directory"
    refused = f"--metrics {unread[0]}: {why}" if unread else measure_refusal(args, files, endpoints)
    if refused is None and (files or endpoints or args.prometheus) and args.bootstrap_server is None \
            and args.snapshot is None:  # fmt: skip
        refused = "--metrics and --prometheus measure a cluster: name it with --bootstrap-server or --snapshot"
    if refused:
        print(f"kafka-advisor {command}: error: {inert(refused)}", file=sys.stderr)
        return EXIT_ERROR
    return measured(request, args, files, endpoints) if files or endpoints or args.prometheus else request


def command_settings(path: Path) -> tuple[tuple[tuple[str, str], ...], str] | str:
    """The command config's entries (java.util.Properties, as Kafka's tools read it) and its text;
    a message when it cannot be read."""
    from advisor.model.document import LoadError
    from advisor.sources import text as texts
    from advisor.sources.properties_syntax import parse

    try:
        text = texts.decode(Path(f"{path.name}.properties"), path.read_bytes())  # read as Java reads it
        entries, _ = parse(text, str(path))
    except (OSError, LoadError, UnicodeDecodeError) as error:
        return f"--command-config {path}: {getattr(error, 'strerror', None) or error}"
    return tuple((entry.key, entry.value) for entry in entries), text


def target_of(args: argparse.Namespace, command: str, offline_only: tuple[str, ...] = ()) -> Any:
    """The LiveTarget the options name (not read yet), or an exit code after saying why not.
    `offline_only`: the command's own options that need a live cluster."""
    from advisor.cli.lint import EXIT_ERROR
    from advisor.output import inert
    from advisor.report import session

    if args.snapshot is not None:  # offline: no client needed
        given = [name for name in ("command_config", *offline_only) if getattr(args, name)]
        if given:
            flags = ", ".join("--" + name.replace("_", "-") for name in given)
            print(f"kafka-advisor {command}: error: --snapshot reads no cluster: {flags} need --bootstrap-server",
                  file=sys.stderr)  # fmt: skip
            return EXIT_ERROR
        return session.LiveTarget(str(args.snapshot), path=args.snapshot)
    try:
        import confluent_kafka  # noqa: F401 - the [live] extra
    except ImportError:
        print(f"kafka-advisor {command}: error: needs confluent-kafka: pip install 'kafka-advisor[live]'",
              file=sys.stderr)  # fmt: skip
        return EXIT_ERROR
    settings: tuple[tuple[str, str], ...] = ()
    secrets: tuple[str, ...] = ()
    if args.command_config is not None:
        read = command_settings(args.command_config)
        if isinstance(read, str):
            print(f"kafka-advisor {command}: error: {inert(read)}", file=sys.stderr)
            return EXIT_ERROR
        settings, secrets = read[0], (read[1],)
    return session.LiveTarget(args.bootstrap_server, settings, secrets, args.timeout)


def read_now(target: Any, lag_interval: float = 0.0) -> Any:
    """The target with its snapshot read (a progress bar on a terminal), or with the failure that
    stopped the read, said later as the run's error."""
    from advisor.cli.progress import progress_bar
    from advisor.live import client

    try:
        with progress_bar() as progress:
            return target._replace(snapshot=client.read(target.bootstrap, dict(target.settings), target.timeout,
                                                        progress, lag_interval))  # fmt: skip
    except client.LiveError as error:
        return target._replace(failure=str(error))
