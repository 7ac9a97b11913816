#!/usr/bin/env python3
"""`analyze` on a large cluster's scrape (a benchmark, not a test: it prints figures).

    .venv/bin/python tools/bench_large_scrape.py [--lines 1000000] [--runs 3] [--advisor PATH]

Writes a scrape shaped like the JMX exporters of a large cluster (issue #25): twelve brokers, 9,220
topics x 12 partitions x RF 3 — per-replica log sizes (which no rule reads) and log end offsets
(the flow view's), then per-topic meters of every broker — up to `--lines` lines, and times
`kafka-advisor analyze` on it in fresh processes: median wall time and the largest peak memory
(max RSS). `--advisor` names the command to time (an installed wheel's, to measure as users run
it; docs/performance.md); the reference loop's time is printed beside, as the VM's speed drifts.
Goal (issue #25): 1 M lines in ≤ 2 s and ≤ 150 MB.
"""

from __future__ import annotations

import argparse
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BROKERS, TOPICS, PARTITIONS, REPLICAS = 12, 9220, 12, 3
METERS = ("bytesin", "bytesout", "messagesin", "totalproducerequests", "totalfetchrequests")
REFERENCE = [sys.executable, "-c", "s = 0\nfor i in range(10_000_000): s += i"]


def generate(path: Path, lines: int) -> int:
    rng = random.Random(25)
    written = 0
    with path.open("w") as out:

        def line(text: str) -> bool:
            nonlocal written
            if written >= lines:
                return False
            out.write(text)
            written += 1
            return True

        for family, top in (("kafka_log_log_size", 10**10), ("kafka_log_log_logendoffset", 10**8)):
            out.write(f"# TYPE {family} gauge\n")
            for topic in range(TOPICS):
                for partition in range(PARTITIONS):
                    for replica in range(REPLICAS):
                        broker = (topic * PARTITIONS + partition + replica) % BROKERS
                        labels = f'instance="kafka-{broker}:7071",partition="{partition}",topic="topic-{topic:05d}",'
                        if not line(f"{family}{{{labels}}} {rng.randint(0, top)}.0\n"):
                            break
        for meter in METERS:
            out.write(f"# TYPE kafka_server_brokertopicmetrics_{meter}_total counter\n")
            for broker in range(BROKERS):
                for topic in range(TOPICS):
                    labels = f'instance="kafka-{broker}:7071",topic="topic-{topic:05d}",'
                    line(f"kafka_server_brokertopicmetrics_{meter}_total{{{labels}}} {rng.randint(0, 10**12)}.0\n")
    return written


def _timed(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--advisor", default=shutil.which("kafka-advisor") or "kafka-advisor")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-scrape-") as folder:
        scrape = Path(folder) / "cluster.prom"
        written = generate(scrape, args.lines)
        command = [args.advisor, "analyze", str(scrape), "--exit-zero"]
        _timed(command)  # the OS caches warm
        walls, references = [], []
        for _ in range(args.runs):
            references.append(_timed(REFERENCE))
            walls.append(_timed(command))
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print(f"{written:,} lines ({scrape.stat().st_size / 1e6:.0f} MB), {args.runs} runs of analyze: median "
              f"{statistics.median(walls):.2f} s (min {min(walls):.2f}), max RSS {peak / 1024:.0f} MB; reference loop "
              f"{statistics.median(references):.2f} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
