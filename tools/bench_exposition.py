#!/usr/bin/env python3
"""Speed and memory of the Prometheus exposition reader on a large scrape (a benchmark, not a
test: it prints figures).

    .venv/bin/python tools/bench_exposition.py [--lines 1000000] [--runs 3]

Generates a scrape shaped like six brokers' JMX exporters plus kafka_exporter on a cluster of
1,000 topics x 10 partitions (per-topic meters as counters and rate gauges, per-replica log
sizes, per-partition gauges, request-time summaries, consumer-group offsets and lag; values in
Java's Double.toString form), then reads it in a fresh process per run, streaming its lines:
with the filter a rule set uses (six families, ~6 % of the samples) and without one. Prints
lines per second, seconds per million lines and the process's own peak memory (VmHWM).
Goal (issue #13): 1 M lines in ≤ 1 s and ≤ 100 MB with the filter.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
WANTED = [
    "kafka_cluster_partition_underreplicated", "kafka_cluster_partition_underminisr", "kafka_log_log_size",
    "kafka_server_brokertopicmetrics_bytesin", "kafka_network_requestmetrics_totaltimems",
    "kafka_server_replicamanager_underreplicatedpartitions",
]  # fmt: skip
METERS = ["bytesin", "bytesout", "messagesin", "totalproducerequests", "totalfetchrequests", "failedproducerequests"]
RATES = ["oneminuterate", "fiveminuterate", "fifteenminuterate", "meanrate"]


def generate(path: Path, lines: int) -> None:
    """About `lines` lines (trimmed to exactly that many) in a few families per kind."""
    written = 0
    with path.open("w") as out:

        def family(name: str, kind: str) -> None:
            nonlocal written
            out.write(f"# HELP {name} {name.replace('_', ' ')}\n# TYPE {name} {kind}\n")
            written += 2

        def sample(text: str) -> bool:
            nonlocal written
            if written >= lines:
                return False
            out.write(text)
            written += 1
            return True

        family("kafka_server_replicamanager_underreplicatedpartitions", "gauge")
        for broker in range(6):
            sample(f'kafka_server_replicamanager_underreplicatedpartitions{{instance="b{broker}:7071",}} 0.0\n')
        family("kafka_network_requestmetrics_totaltimems", "summary")
        for broker in range(6):
            for request in ("Produce", "FetchConsumer", "FetchFollower", "Metadata"):
                labels = f'instance="b{broker}:7071",request="{request}"'
                for quantile in ("0.5", "0.75", "0.95", "0.98", "0.99", "0.999"):
                    sample(f'kafka_network_requestmetrics_totaltimems{{{labels},quantile="{quantile}",}} 12.5\n')
                sample(f"kafka_network_requestmetrics_totaltimems_count{{{labels},}} 4.2117E7\n")
                sample(f"kafka_network_requestmetrics_totaltimems_sum{{{labels},}} 6.57505883E9\n")
        for meter in METERS:  # each meter: its count as a counter, its rates as gauges
            for ending, kind, value in [("total", "counter", "1.234567E9"), *((r, "gauge", "1523.75") for r in RATES)]:
                name = f"kafka_server_brokertopicmetrics_{meter}_{ending}"
                family(name, kind)
                for broker in range(6):
                    for topic in range(1000):
                        sample(f'{name}{{instance="b{broker}:7071",topic="t{topic}",}} {value}\n')
        for name in ("kafka_log_log_size", "kafka_log_log_logendoffset", "kafka_cluster_partition_underreplicated",
                     "kafka_cluster_partition_underminisr"):  # fmt: skip
            family(name, "gauge")
            for replica in range(30_000):
                labels = f'instance="b{replica % 6}:7071",topic="t{replica // 30}",partition="{replica % 10}"'
                sample(f"{name}{{{labels},}} {replica}.0\n")
        family("kafka_consumergroup_lag", "gauge")
        group = 0
        while True:
            labels = f'consumergroup="g{group % 500}",topic="t{group % 1000}",partition="{group % 10}"'
            if not sample(f"kafka_consumergroup_lag{{{labels}}} 17\n"):
                break
            group += 1


_CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from advisor.metrics.exposition import parse, wanted_names
wanted = wanted_names(json.loads(sys.argv[3])) if sys.argv[3] != "null" else None
started = time.perf_counter()
with open(sys.argv[2], encoding="utf-8") as stream:
    samples = sum(1 for _ in parse(stream, sys.argv[2], wanted))
seconds = time.perf_counter() - started
peak = [l for l in open("/proc/self/status") if l.startswith("VmHWM")][0].split()[1]
print(json.dumps({"seconds": seconds, "samples": samples, "peak_mb": int(peak) / 1024}))
"""


def _run(path: Path, wanted: list[str] | None) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(REPO_ROOT), str(path), json.dumps(wanted)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(out.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scrape.prom"
        generate(path, args.lines)
        size = path.stat().st_size
        print(f"{args.lines:,} lines, {size / 1e6:.0f} MB")
        for label, wanted in (("six families (a rule set's filter)", WANTED), ("every family (no filter)", None)):
            runs = [_run(path, wanted) for _ in range(args.runs)]
            seconds = statistics.median(r["seconds"] for r in runs)
            peak = max(r["peak_mb"] for r in runs)
            print(f"  {label:36} {args.lines / seconds:>12,.0f} lines/s  {seconds:6.2f} s"
                  f"  {runs[0]['samples']:>9,} samples  peak {peak:5.0f} MB")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
