#!/usr/bin/env python3
"""`audit` of a running cluster with 10,000 topics and 30,000 partitions (a benchmark, not a test:
it prints figures).

    .venv/bin/python tools/bench_audit.py [--topics 10000] [--partitions 3] [--runs 3] [--keep]
                                          [--bootstrap HOST:PORT] [--advisor PATH]

Creates the topics on the test cluster (tools/kafka-cluster up; one replica each, spread over the
nodes, a few with their own configuration, and a consumer group committing to some), then runs the
`audit` of an installed wheel with the `[live]` extra (built here unless `--advisor` names one) in
fresh processes — as users run it, bytecode compiled — and prints the median wall time, how long the
read alone took (the snapshot's own clock), the peak memory and the snapshot's size, with the VM's
reference loop timed in between (its speed drifts). The topics are deleted after unless --keep.
Goal (issue #27): the audit of 10,000 topics / 30,000 partitions in ≤ 20 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import kafka_cluster  # sibling tool: the running test cluster
from bench_peer import _venv, _wheel, timed_runs  # sibling benchmark: the wheel, the timed runs

PREFIX = "bench-audit-"
BATCH = 500  # topics per CreateTopics / DeleteTopics request


def create(bootstrap: str, count: int, partitions: int) -> float:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    existing = {t for t in admin.list_topics(timeout=60).topics if t.startswith(PREFIX)}
    wanted = [f"{PREFIX}{n:05d}" for n in range(count) if f"{PREFIX}{n:05d}" not in existing]
    started = time.perf_counter()
    for start in range(0, len(wanted), BATCH):
        batch = [NewTopic(name, partitions, 1, config={"retention.ms": "3600000"} if n % 50 == 0 else {})
                 for n, name in enumerate(wanted[start : start + BATCH], start)]  # fmt: skip
        for future in admin.create_topics(batch, request_timeout=120).values():
            future.result(180)
    return time.perf_counter() - started


def servable(bootstrap: str, count: int, partitions: int, timeout: float = 600) -> float:
    """Seconds until every benchmark partition answers ListOffsets (CreateTopics returns when the
    controller has the topics; the brokers create their logs after)."""
    from confluent_kafka import TopicPartition
    from confluent_kafka.admin import AdminClient, OffsetSpec

    admin = AdminClient({"bootstrap.servers": bootstrap})
    wanted = {
        TopicPartition(f"{PREFIX}{n:05d}", p): OffsetSpec.latest() for n in range(count) for p in range(partitions)
    }
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        failed = 0
        for future in admin.list_offsets(wanted, request_timeout=60).values():
            try:
                future.result()
            except Exception:  # noqa: BLE001 - not yet: asked again
                failed += 1
        if not failed:
            return time.perf_counter() - started
        time.sleep(2)
    raise SystemExit(f"the benchmark's partitions were not all servable after {timeout:.0f} s")


def delete(bootstrap: str) -> None:
    from confluent_kafka.admin import AdminClient

    admin = AdminClient({"bootstrap.servers": bootstrap})
    names = sorted(t for t in admin.list_topics(timeout=60).topics if t.startswith(PREFIX))
    for start in range(0, len(names), BATCH):
        for future in admin.delete_topics(names[start : start + BATCH], request_timeout=120).values():
            future.result(180)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--topics", type=int, default=10_000)
    parser.add_argument("--partitions", type=int, default=3)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="leave the topics for the next run")
    parser.add_argument("--bootstrap", help="default: the running test cluster's")
    parser.add_argument("--advisor", type=Path, help="the kafka-advisor command to time (default: a wheel built here)")
    args = parser.parse_args()
    state = kafka_cluster.ClusterState.load()
    bootstrap = args.bootstrap or (state.bootstrap_servers if state else None)
    if bootstrap is None:
        print("no cluster: start one with tools/kafka-cluster up, or give --bootstrap", file=sys.stderr)
        return 1
    made = create(bootstrap, args.topics, args.partitions)
    ready = servable(bootstrap, args.topics, args.partitions)
    print(
        f"{args.topics:,} topics of {args.partitions} partitions ready ({made:.0f} s to create, {ready:.0f} s more "
        "until every partition answers)"
    )
    try:
        with tempfile.TemporaryDirectory(prefix="bench-audit-") as folder:
            work = Path(folder)
            if args.advisor:
                command = args.advisor
            else:
                constraints = str(Path(__file__).resolve().parents[1] / "constraints.txt")
                command = _venv(work / "ours", f"{_wheel(work)}[live]", "-c", constraints) / "kafka-advisor"
            saved = work / "cluster.snapshot.json"
            run = [str(command), "audit", "--bootstrap-server", bootstrap, "--output-format", "json",
                   "--save-snapshot", str(saved), "--timeout", "120"]  # fmt: skip
            timed = timed_runs(run, work, args.runs)
            if isinstance(timed, str):
                print(timed, file=sys.stderr)
                return 1
            walls, references, peak, output = timed
            snapshot = json.loads(saved.read_text())
            topics = len(snapshot["topics"])
            partitions = sum(len(t["partitions"]) for t in snapshot["topics"])
            findings = len(json.loads(output)["findings"])
            print(
                f"audit: {topics:,} topics, {partitions:,} partitions, {len(snapshot['broker_configs'])} brokers, "
                f"{findings} findings; {args.runs} runs: median {statistics.median(walls):.2f} s "
                f"(min {min(walls):.2f}, max {max(walls):.2f}), peak {peak / 1024:.0f} MB, "
                f"snapshot {saved.stat().st_size / 1e6:.1f} MB; reference loop median "
                f"{statistics.median(references):.2f} s"
            )
    finally:
        if not args.keep:
            delete(bootstrap)
    return 0


if __name__ == "__main__":
    sys.exit(main())
