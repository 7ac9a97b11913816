"""`kafka-advisor verify --before A... --after B... [--expect KEY]`: did a change do what it was for?
Metric snapshots before and after, compared for the metrics that prove each recommendation, with
a noise bound from each side's repeated samples (docs/verify.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from advisor.output import formats


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--before", nargs="+", required=True, metavar="FILE|URL",
                        help="metrics taken before the change: files (scrapes, client dumps, API results) or exporter "
                        "endpoints to scrape now")  # fmt: skip
    parser.add_argument("--after", nargs="+", required=True, metavar="FILE|URL",
                        help="metrics taken after it (typically: the endpoints, scraped now)")  # fmt: skip
    parser.add_argument("--samples", type=int, default=3, metavar="N", help="scrapes of each endpoint (default 3)")
    parser.add_argument("--interval", type=float, default=10.0, metavar="SECONDS",
                        help="between scrapes (default 10)")  # fmt: skip
    parser.add_argument("--expect", action="append", metavar="KEY",
                        help="the setting changed (linger.ms, compression.type, ...; repeatable): judge its proofs "
                        "(default: every proof measured on both sides)")  # fmt: skip
    parser.add_argument("--output-format", choices=formats("verify"), default="text")


def run(args: argparse.Namespace) -> int:
    from advisor.output import inert, render
    from advisor.verify.compare import verification as verification_of
    from advisor.verify.proofs import PROOFS

    unknown = [key for key in args.expect or () if key not in PROOFS]
    if unknown:
        print(f"kafka-advisor verify: error: no proof known for {', '.join(map(inert, unknown))} "
              f"(known: {', '.join(sorted(PROOFS))})", file=sys.stderr)  # fmt: skip
        return 2
    if args.samples < 1 or args.interval < 0:
        print("kafka-advisor verify: error: --samples must be 1 or more, --interval 0 or more", file=sys.stderr)
        return 2
    (before, problems), (after, more) = (_observed(side, args) for side in (args.before, args.after))
    for problem in [*problems, *more]:
        print(f"kafka-advisor: {inert(str(problem))}", file=sys.stderr)
    if problems or more:
        return 2
    keys = args.expect or sorted(PROOFS)
    verification = verification_of(keys, before, after, expected=bool(args.expect))
    sys.stdout.write(render(verification, args.output_format))
    return 1 if verification.regressed else 0


def _observed(named: list[str], args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """One side's observations and problems, read by the session's read stage (the project
    config's limits apply, as for analyze)."""
    from advisor.cli.lint import configs_request
    from advisor.metrics.files import is_endpoint
    from advisor.model.document import Problem
    from advisor.report import session

    urls = tuple(n for n in named if is_endpoint(n))
    files = tuple(Path(n) for n in named if not is_endpoint(n))
    request = configs_request([], None, "verify", metric_files=files, endpoints=urls, samples=args.samples,
                              interval=args.interval)  # fmt: skip
    if isinstance(request, int):
        return None, [Problem("project config", None, "cannot be read", "config")]
    inputs = session.read(request)
    return inputs.metrics.observations, [*inputs.problems, *inputs.metrics.problems]
