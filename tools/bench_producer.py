#!/usr/bin/env python3
"""The long before-and-after comparison of issue #14's goal, on the project's test cluster (it must
be up: tools/kafka-cluster up): the default producer against the throughput profile's, and
against the latency profile's, for small records (200 bytes), at equal durability (acks=all,
idempotence, RF 3, min ISR 2), with `kafka-advisor bench`. Prints its tables; the figures go in
docs/performance.md.

    .venv/bin/python tools/bench_producer.py [--records 1000000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tools"))

import fetch_kafka  # noqa: E402
import kafka_cluster  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--size", type=int, default=200)
    args = parser.parse_args()
    state = kafka_cluster.ClusterState.load()
    if state is None:
        print("the test cluster is not up: tools/kafka-cluster up", file=sys.stderr)
        return 2
    bootstrap = ",".join(f"127.0.0.1:{node.broker_port}" for node in state.nodes)
    libs = fetch_kafka.classpath(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION))
    for goal in ("throughput", "latency"):
        print(f"== {goal} profile against the defaults, {args.size}-byte records", flush=True)
        command = [sys.executable, "-m", "advisor", "bench", "--bootstrap-server", bootstrap, "--classpath", libs,
                   "--goal", goal, "--message-bytes", str(args.size), "--rate-mb-s", "50", "--records",
                   str(args.records), "--rounds", str(args.rounds)]  # fmt: skip
        finished = subprocess.run(command, cwd=REPO_ROOT, text=True, timeout=7200)
        if finished.returncode != 0:
            return finished.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
