"""`kafka-advisor verify --before A... --after B... [--expect KEY]`: did a change do what it was for?
Metric snapshots before and after, compared for the metrics that prove each recommendation, with
a noise bound from each side's repeated samples (docs/verify.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


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
    parser.add_argument("--output-format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int:
    import json

    from advisor.output import inert
    from advisor.verify.compare import judge
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
    seen: set[str] = set()  # settings share proofs (linger.ms and batch.size): each judged once
    verdicts = []
    for key in keys:
        for proof in PROOFS[key]:
            if proof.name in seen:
                continue
            seen.add(proof.name)
            verdict = judge(proof, before, after)
            if args.expect or verdict.verdict != "not measured":
                verdicts.append((key, verdict))
    regressed = any(v.verdict == "regressed" for _, v in verdicts)
    if args.output_format == "json":
        print(json.dumps({"verdicts": [{"setting": key, **v.to_dict()} for key, v in verdicts],
                          "regressed": regressed}, indent=2))  # fmt: skip
    else:
        if not verdicts:
            print("No proof measured on both sides: capture the client's metrics or the brokers' scrapes twice or "
                  "more, before and after.")  # fmt: skip
        for key, v in verdicts:
            sides = "; ".join(f"{label} {side.median:.4g} ±{side.noise:.2g} ({side.samples} samples)"
                              for label, side in (("before", v.before), ("after", v.after)) if side)  # fmt: skip
            better = "higher" if v.proof.better == "up" else "lower"
            print(f"{v.verdict:13} {key}: {v.proof.name} ({v.proof.side}, {better} is better): {sides} — {v.why}")
    return 1 if regressed else 0


def _observed(named: list[str], args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from advisor.metrics.files import is_endpoint, observed
    from advisor.sources.limits import DEFAULTS

    urls = tuple(n for n in named if is_endpoint(n))
    files = [Path(n) for n in named if not is_endpoint(n)]
    read = observed(files, DEFAULTS, urls, args.samples, args.interval)
    return read.observations, read.problems
