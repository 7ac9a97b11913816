#!/usr/bin/env python3
"""Benchmark the linter; prints figures (a benchmark, not a test: nothing here can fail).

    .venv/bin/python tools/bench_lint.py [--runs 15] [--files 10000]

1. One-file lint: wall time of `kafka-advisor lint FILE` in fresh processes (median, min-max).
2. Many files: N generated files of mixed formats (.properties, compose, .env, JSON, YAML,
   TOML client dicts) linted in one process, at N/10, N/2 and N, to show the cost per file
   does not grow with the number of files.
3. Per-rule evaluation cost on the largest run.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

TEMPLATES = {
    "server.properties": (
        "process.roles=broker,controller\nnode.id={i}\ncontroller.quorum.voters=1@a:9093,2@b:9093,3@c:9093\n"
        "default.replication.factor=3\nunclean.leader.election.enable={flag}\nnum.io.threads=8\n"
    ),
    "producer.properties": (
        "bootstrap.servers=k:9092\nacks={acks}\nlinger.ms={i}\nmax.in.flight.requests.per.connection=1\n"
    ),
    "consumer.properties": "bootstrap.servers=k:9092\ngroup.id=g{i}\nsession.timeout.ms=30000\nfetch.wait.max.ms=500\n",
    "docker-compose.yml": (
        "services:\n  kafka-a:\n    image: apache/kafka:4.4.0\n    environment:\n      KAFKA_NODE_ID: {i}\n"
        "      KAFKA_DEFAULT_REPLICATION_FACTOR: 1\n      KAFKA_HEAP_OPTS: -Xmx12g\n"
        "  kafka-b:\n    image: apache/kafka:4.4.0\n    environment:\n      KAFKA_NODE_ID: 2{i}\n"
    ),
    "broker.env": "KAFKA_NODE_ID={i}\nKAFKA_UNCLEAN_LEADER_ELECTION_ENABLE={flag}\n",
    "producer.json": '{{"bootstrap.servers": "k:9092", "linger.ms": {i}, "buffer.memory": 1, "acks": "{acks}"}}\n',
    "consumer.yaml": "bootstrap_servers: k:9092\ngroup_id: g{i}\nsession_timeout_ms: 10000\n",
    "clients.toml": '[producer]\n"bootstrap.servers" = "k:9092"\n"acks" = "{acks}"\n',
}


def generate(folder: Path, count: int) -> None:
    names = list(TEMPLATES)
    for i in range(count):
        name = names[i % len(names)]
        text = TEMPLATES[name].format(i=i, flag="true" if i % 2 else "false", acks="1" if i % 3 else "all")
        (folder / f"f{i:05d}-{name}").write_text(text)


def one_file(runs: int) -> list[float]:
    target = REPO_ROOT / "fixtures" / "demo" / "producer.properties"
    # The installed console command, as a user or CI runs it (warm caches: see docs/performance.md).
    command = [str(Path(sys.executable).with_name("kafka-advisor")), "lint", str(target), "--exit-zero"]
    subprocess.run(command, capture_output=True, check=True, cwd=REPO_ROOT)  # warm the OS caches
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, capture_output=True, check=True, cwd=REPO_ROOT)
        times.append(time.perf_counter() - started)
    return times


def many_files(count: int) -> tuple[float, int, object]:
    from advisor.report.session import lint
    from advisor.rules.runner import RunStats
    from advisor.sources import discover

    with tempfile.TemporaryDirectory() as tmp:
        generate(Path(tmp), count)
        stats = RunStats()
        started = time.perf_counter()
        candidates = discover([Path(tmp)])[0]
        result = lint(candidates, stats=stats)
        elapsed = time.perf_counter() - started
    assert len(result.document.files) == count, (len(result.document.files), result.document.errors[:3])
    return elapsed, len(result.findings), stats


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--files", type=int, default=10_000)
    args = parser.parse_args()

    times = one_file(args.runs)
    print(
        f"one-file lint, {args.runs} fresh processes: median {statistics.median(times) * 1000:.0f} ms "
        f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f})"
    )

    import advisor.catalog as catalog  # load shared data once, so the per-file figures are comparable

    catalog.default("acks", "producer")
    stats = None
    for count in (args.files // 10, args.files // 2, args.files):
        elapsed, findings, stats = many_files(count)
        print(
            f"{count:>6} mixed files in one process: {elapsed:6.2f} s, {elapsed / count * 1000:.3f} ms/file, "
            f"{findings} findings"
        )
    if stats is not None:
        print("per-rule evaluation on the largest run (seconds, evaluations):")
        for rule, seconds in sorted(stats.seconds.items(), key=lambda item: -item[1]):
            print(f"  {rule}  {seconds:7.3f} s  {stats.evaluations[rule]:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
