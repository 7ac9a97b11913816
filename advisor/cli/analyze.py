"""`kafka-advisor analyze PATH|URL... [configs...]`: judge what brokers measure.

Inputs are exposition files (a saved `/metrics` scrape), exporter endpoints (http:// or
https://, scraped `--samples` times `--interval` seconds apart) and, beside them, any
configuration files or folders, linted as `lint` would and reported together.
Exit codes as for lint: 0, 1 for findings at or above --fail-on, 2 for an input error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from advisor.cli.lint import EXIT_ERROR, add_run_options


def _positive(kind: type):  # type: ignore[no-untyped-def]
    def parse(text: str):  # type: ignore[no-untyped-def]
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be above 0, got {text}")
        return value

    return parse


_UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


def _duration(text: str) -> float:
    """Seconds, or a number with s, m, h or d: 90, 90s, 15m, 2h."""
    number, unit = (text[:-1], _UNITS[text[-1]]) if text and text[-1] in _UNITS else (text, 1.0)
    try:
        value = float(number) * unit
    except ValueError:
        raise argparse.ArgumentTypeError(f"a duration is seconds or a number with s, m, h or d, got {text}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be above 0, got {text}")
    return value


def _timed_file(text: str) -> tuple[str, float]:
    """FILE=WHEN: when a metrics file saved without timestamps was taken — ISO 8601 (UTC unless it
    says otherwise: 2026-12-05T08:00:00Z) or seconds since 1970."""
    path, sep, when = text.rpartition("=")
    if not sep or not path:
        raise argparse.ArgumentTypeError(f"FILE=WHEN is expected, got {text}")
    try:
        return path, float(when)
    except ValueError:
        pass
    from datetime import datetime, timezone

    try:
        moment = datetime.fromisoformat(when)
    except ValueError:
        raise argparse.ArgumentTypeError(f"WHEN is ISO 8601 or seconds since 1970, got {when}") from None
    return path, (moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)).timestamp()


def add_measure_options(parser: argparse.ArgumentParser) -> None:
    """How metrics are taken, beside the inputs that name them: a Prometheus server's history,
    a file's time, an endpoint's samples (analyze, advise; audit and lint with --metrics)."""
    parser.add_argument(
        "--prometheus",
        action="append",
        default=[],
        metavar="URL",
        help="a Prometheus server: its last --window of every series the rules read (repeatable)",
    )
    parser.add_argument(
        "--window", type=_duration, default=900.0, metavar="DURATION", help="history asked of --prometheus (15m)"
    )
    parser.add_argument("--step", type=_duration, default=30.0, metavar="DURATION", help="its resolution (30s)")
    parser.add_argument(
        "--time",
        action="append",
        type=_timed_file,
        default=[],
        metavar="FILE=WHEN",
        help="when a metrics file without timestamps was taken (default: its modification time; repeatable)",
    )
    parser.add_argument(
        "--samples", type=_positive(int), default=1, metavar="N", help="scrape each endpoint N times (default: 1)"
    )
    parser.add_argument(
        "--interval", type=_positive(float), default=30.0, metavar="SECONDS", help="between scrapes (default: 30)"
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "inputs", nargs="*", metavar="PATH|URL", help="metrics files, exporter endpoints, config files or folders"
    )
    parser.add_argument(
        "--scrape", action="append", default=[], metavar="URL", help="an exporter endpoint to scrape (repeatable)"
    )
    add_measure_options(parser)
    add_run_options(parser)


def run(args: argparse.Namespace) -> int:
    from advisor.cli import lint
    from advisor.report import session

    built = prepare(args, "analyze")
    if isinstance(built, int):
        return built
    prepared, named = built
    return lint.emit(args, "analyze", prepared, session.run(prepared.request), named)


def prepare(args: argparse.Namespace, command: str, metrics: tuple[str, ...] = (), need_metrics: bool = True):  # type: ignore[no-untyped-def]
    """The run analyze's arguments ask for (advise's too): inputs split by content into metrics
    files, endpoints and configurations, with `metrics` (advise's --metrics) among them; (the
    lint.Prepared, the files named) or an exit code after saying why."""
    from advisor.cli import lint
    from advisor.metrics.files import is_endpoint, split_inputs
    from advisor.model.document import Problem

    passed: list[Problem] = []  # a folder's files that look like metrics in a shape no reader takes
    files, endpoints, configs = split_inputs(list(args.inputs), passed=passed)
    files += [Path(m) for m in metrics if not is_endpoint(m)]
    endpoints += [m for m in metrics if is_endpoint(m)] + list(args.scrape)
    if need_metrics and not (files or endpoints or configs or args.prometheus):
        print(f"kafka-advisor {command}: error: nothing to analyze: name metrics files or endpoints", file=sys.stderr)
        return EXIT_ERROR
    refused = measure_refusal(args, files, endpoints)
    if refused:
        print(f"kafka-advisor {command}: error: {refused}", file=sys.stderr)
        return EXIT_ERROR
    prepared = lint.prepare(args, command, [*configs, *files] or [Path.cwd()])
    if isinstance(prepared, int):
        return prepared
    request = measured(prepared.request._replace(paths=tuple(configs), metrics_passed=tuple(passed)), args, files,
                       endpoints)  # fmt: skip
    named = [p for p in [*configs, *files] if p.is_file()]
    return prepared._replace(request=request), named


def measure_refusal(args: argparse.Namespace, files: list[Path], endpoints: list[str]) -> str | None:
    """Why the measure options cannot hold for these inputs (said, never ignored), else None."""
    read_files = {path.resolve() for path in files}
    for path, _ in args.time:
        if Path(path).resolve() not in read_files:  # a typo would leave the file at its mtime
            return f"--time names {path}, which is no metrics file of this run"
    if args.samples > 1 and not endpoints:
        return "--samples needs an endpoint to scrape"
    return None


def measured(request, args: argparse.Namespace, files: list[Path], endpoints: list[str]):  # type: ignore[no-untyped-def]
    """The run request with its metric inputs and how they are taken."""
    return request._replace(
        metric_files=tuple(files),
        metric_times=tuple((Path(path), when) for path, when in args.time),
        endpoints=tuple(endpoints),
        samples=args.samples,
        interval=args.interval,
        prometheus=tuple(args.prometheus),
        window=args.window,
        step=args.step,
    )
