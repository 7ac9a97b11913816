"""`kafka-advisor audit --bootstrap-server HOST:PORT[,…] [--command-config FILE] [PATH...]`: a running
cluster, read-only, judged by the same rules as the files (docs/audit.md). Its brokers' configuration
with each value's source, its topics, its consumer groups; with PATHs, those files are judged beside
it, and against it (drift). Needs the `[live]` extra. Exit codes as lint: 0, 1 for findings at or
above --fail-on, 2 when the cluster (or an input) could not be read, or was read in part.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from advisor.cli.cluster_options import add_cluster_options, read_now, target_of, with_metrics
from advisor.cli.lint import EXIT_ERROR, add_run_options


def _interval(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 3000:
        raise argparse.ArgumentTypeError(f"a lag interval is 0 to 3000 seconds, got {text}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_cluster_options(parser, required=True)
    parser.add_argument("--save-snapshot", type=Path, metavar="FILE",
                        help="also save what was read (JSON, no secret) for an offline audit later")  # fmt: skip
    parser.add_argument("--lag-interval", type=_interval, default=0.0, metavar="SECONDS",
                        help="read the offsets again after this long: does each group keep up? (0: off)")  # fmt: skip
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="configuration files judged beside it")
    add_run_options(parser)


def run(args: argparse.Namespace) -> int:
    from advisor import safe_write
    from advisor.live import saved
    from advisor.output import inert

    target = target_of(args, "audit", ("save_snapshot", "lag_interval"))
    if isinstance(target, int):
        return target
    if args.snapshot is not None:
        return _judged(args, target, [args.snapshot])
    kept = [args.command_config] if args.command_config is not None else []  # never written over
    if args.save_snapshot is not None:
        refused = safe_write.refusal(args.save_snapshot, [*kept, *args.paths])
        if refused:
            print(f"kafka-advisor audit: error: --save-snapshot {inert(refused)}", file=sys.stderr)
            return EXIT_ERROR
    target = read_now(target, args.lag_interval)
    if args.save_snapshot is not None and target.snapshot is not None:
        safe_write.write_atomically(args.save_snapshot, saved.dump(target.snapshot))
        kept.append(args.save_snapshot)
    return _judged(args, target, kept)


def _judged(args: argparse.Namespace, target, kept: list[Path]) -> int:  # type: ignore[no-untyped-def]
    from advisor.cli import lint
    from advisor.report import session

    prepared = lint.prepare(args, "audit", list(args.paths) or [Path.cwd()])
    if isinstance(prepared, int):
        return prepared
    request = with_metrics(args, "audit", prepared.request._replace(paths=tuple(args.paths), live=(target,)))
    if isinstance(request, int):
        return request
    named = [p for p in args.paths if p.is_file()] + kept + list(request.metric_files)
    return lint.emit(args, "audit", prepared, session.run(request), named)
