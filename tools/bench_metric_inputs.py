#!/usr/bin/env python3
"""Speed and memory of `analyze` on large inputs of every other metrics format (a benchmark, not a
test: it prints figures; the exposition reader has tools/bench_exposition.py).

    .venv/bin/python tools/bench_metric_inputs.py [--runs 3]

Generates, in a temporary folder, inputs of the sizes people keep:
- librdkafka statistics: 360 emits (an hour at 10 s) of a consumer of 50 topics x 20 partitions;
- a Java client metrics dump: 360 dumps of a producer's ~600 metrics (50 topics' per-topic ones);
- a Prometheus range answer: 60 series x 1,440 points (a day at one minute), pretty-printed;
- a JmxTool properties dump: 1,800 polls (an hour at 2 s) of 200 keys.
Each is analysed whole (read, observed, every rule) in a fresh process per run; prints seconds
and the process's own peak memory (VmHWM).
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
T0 = 1764576000


def librdkafka(path: Path) -> None:
    with path.open("w") as out:
        for emit in range(360):
            topics = {
                f"topic-{t}": {
                    "partitions": {
                        str(p): {"consumer_lag": 100 + emit + p, "hi_offset": 10_000 + emit} for p in range(20)
                    }
                }
                for t in range(50)
            }
            out.write(
                json.dumps(
                    {
                        "name": "rdkafka#consumer-1",
                        "client_id": "reader",
                        "type": "consumer",
                        "ts": emit,
                        "time": T0 + emit * 10,
                        "topics": topics,
                    }
                )
                + "\n"
            )


def java_dump(path: Path) -> None:
    names = [
        "batch-size-avg",
        "record-size-avg",
        "record-send-rate",
        "record-send-total",
        "record-error-total",
        "bufferpool-wait-ratio",
        "request-latency-avg",
        "io-ratio",
    ]
    with path.open("w") as out:
        for dump in range(360):
            metrics = [
                {"group": "producer-metrics", "name": n, "tags": {"client-id": "app"}, "value": float(dump)}
                for n in names
            ]
            metrics += [
                {
                    "group": "producer-topic-metrics",
                    "name": f"m{m}",
                    "tags": {"client-id": "app", "topic": f"t{t}"},
                    "value": 1.0,
                }
                for t in range(50)
                for m in range(12)
            ]
            out.write(
                json.dumps(
                    {
                        "format": "kafka-client-metrics",
                        "time_ms": (T0 + dump * 10) * 1000,
                        "client_type": "producer",
                        "client_id": "app",
                        "metrics": metrics,
                    }
                )
                + "\n"
            )


def range_answer(path: Path) -> None:
    result = [
        {
            "metric": {"__name__": "kafka_server_replicamanager_underreplicatedpartitions", "instance": f"b{s}:9404"},
            "values": [[T0 + i * 60, "0"] for i in range(1440)],
        }
        for s in range(60)
    ]
    path.write_text(json.dumps({"status": "success", "data": {"resultType": "matrix", "result": result}}, indent=2))


def jmxtool(path: Path) -> None:
    keys = [f"kafka.log:type=Log,name=Size,topic=t{k},partition=0:Value" for k in range(196)]
    keys += [
        "kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions:Value",
        "kafka.controller:type=KafkaController,name=ActiveControllerCount:Value",
        "kafka.server:type=KafkaRequestHandlerPool,name=RequestHandlerAvgIdlePercent:Count",
        "kafka.server:type=ReplicaManager,name=IsrShrinksPerSec:Count",
    ]
    with path.open("w") as out:
        for poll in range(1800):
            out.write(f"time={(T0 + poll * 2) * 1000}\n")
            out.writelines(f"{key}={poll}\n" for key in sorted(keys))


INPUTS = {
    "librdkafka statistics": ("stats.json", librdkafka),
    "Java metrics dump": ("dump.json", java_dump),
    "Prometheus range answer": ("range.json", range_answer),
    "JmxTool properties": ("jmx.txt", jmxtool),
}
RUN = """
import sys, time
from pathlib import Path
started = time.perf_counter()
from advisor.report.session import analyze_files
report = analyze_files([Path(sys.argv[1])])
assert not report.problems, report.problems[:3]
seconds = time.perf_counter() - started
peak = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM")) / 1024
print(f"{seconds:.3f} {peak:.0f}")
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for label, (name, make) in INPUTS.items():
            path = Path(folder) / name
            make(path)
            size = path.stat().st_size / 1e6
            times, peaks = [], []
            for _ in range(args.runs):
                output = subprocess.run(
                    [sys.executable, "-c", RUN, str(path)], capture_output=True, text=True, cwd=REPO_ROOT, check=True
                ).stdout.split()
                times.append(float(output[0]))
                peaks.append(float(output[1]))
            print(
                f"{label:26} {size:7.1f} MB   median {statistics.median(times):6.2f} s   "
                f"peak {max(peaks):5.0f} MB   ({args.runs} runs)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
