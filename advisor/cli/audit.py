"""`kafka-advisor audit --bootstrap-server HOST:PORT[,…] [--command-config FILE] [PATH...]`: a running
cluster, read-only, judged by the same rules as the files (docs/audit.md). Its brokers' configuration
with each value's source, its topics, its consumer groups; with PATHs, those files are judged beside
it. Needs the `[live]` extra (confluent-kafka). Exit codes as lint: 0, 1 for findings at or above
--fail-on, 2 when the cluster (or an input) could not be read.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from advisor.cli.lint import EXIT_ERROR, add_run_options


def _seconds(text: str) -> float:
    value = float(text)
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"a timeout is 0 to 3600 seconds, got {text}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--bootstrap-server", metavar="HOST:PORT[,...]", help="the cluster to read")
    source.add_argument(
        "--snapshot", type=Path, metavar="FILE", help="a snapshot saved by --save-snapshot, read offline"
    )
    parser.add_argument("--save-snapshot", type=Path, metavar="FILE",
                        help="also save what was read (JSON, no secret) for an offline audit later")  # fmt: skip
    parser.add_argument("--command-config", type=Path, metavar="FILE",
                        help="client settings the cluster needs (security), as Kafka's tools take them")  # fmt: skip
    parser.add_argument("--timeout", type=_seconds, default=60.0, metavar="SECONDS",
                        help="the whole read's time bound (default 60)")  # fmt: skip
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="configuration files judged beside it")
    add_run_options(parser)


def _settings(path: Path) -> tuple[tuple[tuple[str, str], ...], str] | str:
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


def run(args: argparse.Namespace) -> int:
    from advisor.output import inert
    from advisor.report import session

    if args.snapshot is not None:  # offline: no client needed
        if args.save_snapshot is not None or args.command_config is not None:
            print("kafka-advisor audit: error: --snapshot reads no cluster: --save-snapshot and --command-config "
                  "need --bootstrap-server", file=sys.stderr)  # fmt: skip
            return EXIT_ERROR
        return _judged(args, session.LiveTarget(str(args.snapshot), path=args.snapshot), [args.snapshot])
    try:
        import confluent_kafka  # noqa: F401 - the [live] extra
    except ImportError:
        print("kafka-advisor audit: error: needs confluent-kafka: pip install 'kafka-advisor[live]'", file=sys.stderr)
        return EXIT_ERROR
    settings: tuple[tuple[str, str], ...] = ()
    secrets: tuple[str, ...] = ()
    if args.command_config is not None:
        read = _settings(args.command_config)
        if isinstance(read, str):
            print(f"kafka-advisor audit: error: {inert(read)}", file=sys.stderr)
            return EXIT_ERROR
        settings, text = read
        secrets = (text,)
    target = session.LiveTarget(args.bootstrap_server, settings, secrets, args.timeout)
    kept = [args.command_config] if args.command_config is not None else []  # never written over
    return _read_then_judge(args, target, kept)


def _read_then_judge(args: argparse.Namespace, target, kept: list[Path]) -> int:  # type: ignore[no-untyped-def]
    """Read the cluster once (a progress bar on a terminal), save what was read if asked, judge it."""
    from advisor import safe_write
    from advisor.live import client, saved
    from advisor.output import inert

    if args.save_snapshot is not None:
        refused = safe_write.refusal(args.save_snapshot, [*kept, *args.paths])
        if refused:
            print(f"kafka-advisor audit: error: --save-snapshot {inert(refused)}", file=sys.stderr)
            return EXIT_ERROR
    try:
        with _progress() as progress:
            snapshot = client.read(target.bootstrap, dict(target.settings), target.timeout, progress)
    except client.LiveError as error:  # said in every output format, exit 2; PATHs are still judged
        return _judged(args, target._replace(failure=str(error)), kept)
    if args.save_snapshot is not None:
        safe_write.write_atomically(args.save_snapshot, saved.dump(snapshot))
        kept.append(args.save_snapshot)
    return _judged(args, target._replace(snapshot=snapshot), kept)


@contextmanager
def _progress() -> Iterator[Callable[[str, int, int], None]]:
    """What is being read, as a bar on stderr when it is a terminal; nothing in a pipe or a file."""
    if not sys.stderr.isatty() or os.environ.get("TERM") == "dumb":
        yield lambda what, done, total: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("reading {task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True) as bar:  # fmt: skip
        task = bar.add_task("the cluster", total=None)

        def show(what: str, done: int, total: int) -> None:
            bar.update(task, description=what, completed=done, total=total)

        yield show


def _judged(args: argparse.Namespace, target, kept: list[Path]) -> int:  # type: ignore[no-untyped-def]
    from advisor.cli import lint
    from advisor.report import session

    prepared = lint.prepare(args, "audit", list(args.paths) or [Path.cwd()])
    if isinstance(prepared, int):
        return prepared
    request = prepared.request._replace(paths=tuple(args.paths), live=(target,))
    named = [p for p in args.paths if p.is_file()] + kept
    return lint.emit(args, "audit", prepared, session.run(request), named)
