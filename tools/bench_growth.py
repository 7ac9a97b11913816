#!/usr/bin/env python3
"""Does the lint's work grow linearly with its input? Prints figures (a benchmark, not a test).

    .venv/bin/python tools/bench_growth.py [--scale 1.0] [--only NAME]

For each input shape (a large reassignment plan, an unrelated large JSON file met in a folder
walk, .properties of unknown keys, a long shell token, a long line, compose, Spring, Strimzi,
TOML and JSON client dicts) one file is generated at 1, 2, 4 and 8 times a base size and
linted in a fresh process (`python -m advisor lint FILE --output-format json`); the script
prints the wall time, the peak memory of that process and the growth factor per doubling
(≈ 2 when linear; ≈ 4 when quadratic), the start-up of a one-line lint taken off.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def plan(n: int) -> tuple[str, str]:
    partitions = [{"topic": f"events-{i // 64}", "partition": i % 64, "replicas": [1, 2, 3], "log_dirs": ["any"] * 3}
                  for i in range(n)]  # fmt: skip
    return "reassignment.json", json.dumps({"version": 1, "partitions": partitions}, indent=2)


def unrelated_json(n: int) -> tuple[str, str]:
    packages = {f"node_modules/pkg-{i}": {"version": f"1.{i}.0", "resolved": f"https://registry.example/p/{i}.tgz",
                                          "integrity": "sha512-" + "A" * 40, "dependencies": {"dep": "^1.0.0"}}
                for i in range(n)}  # fmt: skip
    return "package-lock.json", json.dumps({"name": "app", "lockfileVersion": 3, "packages": packages}, indent=2)


def unknown_keys(n: int) -> tuple[str, str]:
    lines = ["bootstrap.servers=k:9092", "acks=all"] + [f"app.custom.setting.number{i}=value{i}" for i in range(n)]
    return "orders.producer.properties", "\n".join(lines) + "\n"


def long_token(n: int) -> tuple[str, str]:
    return "create-topics.sh", "#!/bin/sh\nkafka-topics.sh --bootstrap-server k:9092 --create --topic " + "t" * n + "\n"


def long_key(n: int) -> tuple[str, str]:
    return "orders.producer.properties", "bootstrap.servers=k:9092\n" + "k" * n + "=1\nacks=all\n"


def long_line(n: int) -> tuple[str, str]:
    return "orders.producer.properties", "bootstrap.servers=k:9092\nlinger.ms=" + "5" * n + "\nacks=all\n"


def compose(n: int) -> tuple[str, str]:
    services = ["services:"]
    for i in range(n):
        services += [f"  kafka-{i}:", "    image: apache/kafka:4.0.0", "    environment:",
                     f"      KAFKA_NODE_ID: {i}", "      KAFKA_PROCESS_ROLES: broker,controller",
                     "      KAFKA_MIN_INSYNC_REPLICAS: 1"]  # fmt: skip
    return "docker-compose.yml", "\n".join(services) + "\n"


def spring(n: int) -> tuple[str, str]:
    lines = ["spring:", "  kafka:", "    bootstrap-servers: k:9092", "    producer:", "      acks: 1"]
    lines.append("      properties:")
    lines += [f"        app.extra.setting{i}: v{i}" for i in range(n)]
    return "application.yml", "\n".join(lines) + "\n"


def strimzi(n: int) -> tuple[str, str]:
    docs = [
        f"apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaTopic\nmetadata:\n  name: topic-{i}\n  labels:\n"
        f"    strimzi.io/cluster: main\nspec:\n  partitions: 12\n  replicas: 3\n"
        "  config:\n    retention.ms: 604800000\n"
        for i in range(n)
    ]
    return "topics.yaml", "---\n".join(docs)


def toml_dict(n: int) -> tuple[str, str]:
    lines = ["[producer]", '"bootstrap.servers" = "k:9092"', '"acks" = "1"']
    lines += [f'"x.setting{i}" = "v{i}"' for i in range(n)]
    return "client.toml", "\n".join(lines) + "\n"


def json_dict(n: int) -> tuple[str, str]:
    config = {"bootstrap.servers": "k:9092", "acks": "1", **{f"x.setting{i}": f"v{i}" for i in range(n)}}
    return "producer.json", json.dumps(config, indent=2)


def application_dict(n: int) -> tuple[str, str]:
    """A client config inside an application's own settings, most of them near no client key."""
    config = {"bootstrap.servers": "k:9092", "acks": "1",
              **{f"service.cache.region{i}.ttl.seconds": str(i) for i in range(n)}}  # fmt: skip
    return "settings.json", json.dumps(config, indent=2)


SHAPES: dict[str, tuple[Callable[[int], tuple[str, str]], int]] = {
    "reassignment plan (partitions)": (plan, 4_000),
    "unrelated JSON in a folder (packages)": (unrelated_json, 4_000),
    ".properties, unknown keys (lines)": (unknown_keys, 20_000),
    "shell, one long token (bytes)": (long_token, 1_000_000),
    ".properties, one long line (bytes)": (long_line, 1_000_000),
    ".properties, one long key (bytes)": (long_key, 1_000_000),
    "compose (broker services)": (compose, 250),
    "Spring application.yml (keys)": (spring, 5_000),
    "Strimzi KafkaTopics (documents)": (strimzi, 500),
    "TOML client dict (keys)": (toml_dict, 10_000),
    "JSON client dict (keys)": (json_dict, 10_000),
    "JSON client dict among application keys (keys)": (application_dict, 20_000),
}


# The lint runs in a child that reports its own VmHWM at exit: ru_maxrss would carry the
# memory of this script over into the child (Linux keeps it across fork and exec).
_CHILD = (
    "import atexit, os, runpy, sys\n"
    "def report():\n"
    "    peak = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]\n"
    "    open(os.environ['BENCH_PEAK_FILE'], 'w').write(peak)\n"
    "atexit.register(report)\n"
    "sys.argv = ['kafka-advisor', *sys.argv[1:]]\n"
    "runpy.run_module('advisor', run_name='__main__')\n"
)


def _measure(path: Path, folder: bool) -> tuple[float, float]:
    """Wall seconds and peak resident memory (MB) of one lint process."""
    target = path.parent if folder else path
    peak_file = path.parent.parent / "peak"
    command = [sys.executable, "-c", _CHILD, "lint", str(target), "--exit-zero", "--output-format", "json"]
    environment = {**os.environ, "BENCH_PEAK_FILE": str(peak_file)}
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO_ROOT, env=environment)
    seconds = time.perf_counter() - started
    return seconds, int(peak_file.read_text()) / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every base size")
    parser.add_argument("--only", help="run the shapes whose name contains this")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "in").mkdir()
        empty = Path(tmp) / "in" / "p.producer.properties"
        empty.write_text("acks=all\n")
        start_up = min(_measure(empty, folder=False)[0] for _ in range(3))
    print(f"start-up (a one-line file): {start_up:.2f} s, taken off every figure below")
    print(f"{'input':42} {'size':>10} {'MB':>7} {'seconds':>8} {'growth':>7} {'peak RSS MB':>12}")
    for name, (make, base) in SHAPES.items():
        if args.only and args.only not in name:
            continue
        previous = None
        for factor in (1, 2, 4, 8):
            n = max(1, int(base * args.scale * factor))
            with tempfile.TemporaryDirectory() as tmp:
                file_name, text = make(n)
                (Path(tmp) / "in").mkdir()
                path = Path(tmp) / "in" / file_name
                path.write_text(text)
                seconds, peak = _measure(path, folder="folder" in name)
                seconds = max(seconds - start_up, 0.001)
            growth = f"{seconds / previous:.2f}" if previous else "-"
            previous = seconds
            megabytes = len(text.encode()) / 1e6
            print(f"{name:42} {n:>10} {megabytes:>7.2f} {seconds:>8.2f} {growth:>7} {peak:>12.0f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
