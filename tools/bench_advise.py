#!/usr/bin/env python3
"""`advise --no-input --html` over 500 real-shaped configuration files and three metrics files
(a benchmark, not a test: it prints figures).

    .venv/bin/python tools/bench_advise.py [--files 500] [--runs 5] [--advisor PATH]

The tree is bench_peer's corpus (fixtures/realworld/ projects and large chart, compose and Strimzi
files, each group's addresses its own); the metrics are fixtures/advise/metrics.prom (three brokers,
offsets and disks over ten minutes), an offset exporter's twelve minutes and node_exporter's half
hour (fixtures/rules/metrics/). Runs the command of an installed wheel (built here unless
`--advisor` names one) in fresh processes — as users run it, bytecode compiled — and prints the
median wall time, the largest peak memory and the HTML's size, with the VM's reference loop timed
in between (its speed drifts). Goal (issue #26): ≤ 2 s, the HTML ≤ 1.5 MB.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_peer import _venv, _wheel, corpus, timed_runs  # sibling benchmark: the corpus, the wheel

REPO = Path(__file__).resolve().parents[1]
METRICS = (REPO / "fixtures" / "advise" / "metrics.prom", REPO / "fixtures" / "rules" / "metrics" /
           "kafka-exporter-groups.prom", REPO / "fixtures" / "rules" / "metrics" / "disk-space.prom")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--advisor", type=Path, help="the kafka-advisor command to time (default: a wheel built here)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-advise-") as folder:
        work = Path(folder)
        command = args.advisor or _venv(work / "ours", str(_wheel(work))) / "kafka-advisor"
        tree = work / "tree"
        size = corpus(tree, args.files)
        page = work / "report.html"
        run = [str(command), "advise", str(tree), *(arg for m in METRICS for arg in ("--metrics", str(m))),
               "--no-input", "--html", str(page)]  # fmt: skip
        timed = timed_runs(run, work, args.runs)
        if isinstance(timed, str) or not page.exists():
            print(timed if isinstance(timed, str) else "advise wrote no HTML", file=sys.stderr)
            return 1
        walls, references, peak, output = timed
        steps = output.count("\n Step ")
        print(f"advise --no-input --html: {args.files} files ({size / 1e6:.1f} MB) and {len(METRICS)} metrics files, "
              f"{args.runs} runs: median {statistics.median(walls):.2f} s "
              f"(min {min(walls):.2f}, max {max(walls):.2f}), "
              f"max RSS {peak / 1024:.0f} MB; HTML {page.stat().st_size / 1e6:.2f} MB, {steps} plan steps; "
              f"the VM's reference loop in between: median {statistics.median(references):.2f} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
