"""kafka-producer-perf-test's output read: its final summary line and, with --print-metrics, the
producer's own metrics (`bench` runs the tool; `verify` and `analyze` read a run saved to a file).

The summary line: `N records sent, X records/sec (Y MB/sec), A ms avg latency, M ms max latency,
P50 ms 50th, P95 ms 95th, P99 ms 99th, P999 ms 99.9th.` — newer releases may add ` steady state`
after the count and print records/sec with six decimals; older ones wrote `M max latency` without
"ms". MB is MiB; latency runs from just before send() to the callback (kafka-profiles.md §5.1).
"""

from __future__ import annotations

import re

from advisor import lazy_re
from advisor.named_tuple import NamedTuple

_SUMMARY = lazy_re.compile(
    r"(?P<records>\d+) records sent(?: steady state)?, (?P<rate>[\d.]+) records/sec \((?P<mb>[\d.]+) MB/sec\), "
    r"(?P<avg>[\d.]+) ms avg latency, (?P<max>[\d.]+) (?:ms )?max latency, (?P<p50>\d+) ms 50th, "
    r"(?P<p95>\d+) ms 95th, (?P<p99>\d+) ms 99th, (?P<p999>\d+) ms 99\.9th"
)
# --print-metrics: `group:name:{tags} : value` lines after the summary (ToolsUtils.printMetrics).
_METRIC = lazy_re.compile(
    r"^producer-metrics:(?P<name>[\w.-]+):\{(?P<tags>[^}]*)\}\s*:\s*(?P<value>\S+)\s*$", re.MULTILINE
)
# The producer metrics that explain a difference (kafka-profiles.md §5.1).
EXPLAINING = ("batch-size-avg", "record-queue-time-avg", "compression-rate-avg", "bufferpool-wait-ratio",
              "records-per-request-avg", "request-latency-avg")  # fmt: skip
MAX_OUTPUT = 4_000_000  # characters of a run's output kept: the summary is the last line


class PerfResult(NamedTuple):
    records: int
    records_per_second: float
    mib_per_second: float
    avg_ms: float
    max_ms: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    p999_ms: float
    metrics: dict[str, float]  # --print-metrics: the explaining producer metrics (the client's own)


class PerfError(Exception):
    pass


def summary(output: str) -> PerfResult:
    """The last full summary of a run's output (a steady-state one, when the tool printed it, is last)."""
    found = list(_SUMMARY.finditer(output))
    if not found:
        raise PerfError("kafka-producer-perf-test printed no summary line")
    m = found[-1]
    return PerfResult(int(m["records"]), float(m["rate"]), float(m["mb"]), float(m["avg"]), float(m["max"]),
                      float(m["p50"]), float(m["p95"]), float(m["p99"]), float(m["p999"]), metrics(output))  # fmt: skip


def metrics(output: str) -> dict[str, float]:
    """The explaining metrics --print-metrics printed (the producer-wide ones, not per topic or node)."""
    return {name: value for name, value in all_metrics(output).items() if name in EXPLAINING}


def all_metrics(output: str) -> dict[str, float]:
    """Every producer-wide metric --print-metrics printed (not per topic or node), by name."""
    found = {}
    for m in _METRIC.finditer(output):
        if "topic=" not in m["tags"] and "node-id=" not in m["tags"]:
            try:
                value = float(m["value"].replace(",", ""))
            except ValueError:
                continue
            if value == value and abs(value) != float("inf"):
                found[m["name"]] = value
    return found


_CLIENT_ID = lazy_re.compile(r"^producer-metrics:[\w.-]+:\{[^}]*client-id=(?P<id>[^,}]+)", re.MULTILINE)


def client_id(output: str) -> str | None:
    """The producer's client id, as --print-metrics tags its metrics."""
    found = _CLIENT_ID.search(output)
    return found["id"] if found else None


def summary_offset(output: str) -> int:
    """Where the last summary line starts."""
    found = list(_SUMMARY.finditer(output))
    return found[-1].start() if found else 0
