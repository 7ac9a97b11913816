"""A live stream measured: kafka-producer-perf-test writes at a bounded rate while a Java consumer
with the side's consumer settings reads each record as it arrives — the end-to-end latency of
every record (consumer clock at poll() minus the CreateTime the producer stamped at send()) and
the fetches it took. The consumer is StreamLatency.java beside this module, run by the JDK's
source-file mode on Kafka's own jars: kafka-consumer-perf-test measures no latency, and Kafka's
EndToEndLatency tool forces linger.ms and fetch.max.wait.ms to 0 — the very settings compared.

Also the short ramp that finds a rate the cluster sustains for a side's settings."""

from __future__ import annotations

import re
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

from advisor import lazy_re
from advisor.bench import perf
from advisor.named_tuple import NamedTuple
from advisor.secrets import redact_line

PROBE_SOURCE = Path(__file__).resolve().parent / "java" / "StreamLatency.java"
_E2E = lazy_re.compile(
    r"^e2e records=(?P<records>\d+) not-create-time=(?P<other>\d+) p50=(?P<p50>\d+) p95=(?P<p95>\d+) "
    r"p99=(?P<p99>\d+) p999=(?P<p999>\d+) max=(?P<max>\d+)\s*$",
    re.MULTILINE,
)
_METRIC = lazy_re.compile(r"^metric (?P<name>[\w.-]+) (?P<value>\S+)\s*$", re.MULTILINE)
READY_TIMEOUT = 120.0  # seconds for the consumer's JVM to compile the probe, start and take its partitions


class LiveResult(NamedTuple):
    """One live run: the producer's figures at the bounded rate, and the consumer's."""

    records_per_second: float  # what the producer reached (the bound, when the cluster keeps up)
    p50_ms: float  # send to acknowledgement (kafka-producer-perf-test)
    p99_ms: float
    p999_ms: float
    e2e_p50_ms: float  # send to the consumer's poll()
    e2e_p99_ms: float
    e2e_p999_ms: float
    fetches_per_1000_records: float  # the consumer's fetch requests over the stream, per 1000 records
    fetch_latency_avg_ms: float  # how long the broker held a fetch on average (fetch.max.wait.ms at work)
    metrics: dict[str, float]  # the producer's explaining metrics (--print-metrics)


class E2e(NamedTuple):
    records: int
    p50: float
    p95: float
    p99: float
    p999: float
    max: float
    metrics: dict[str, float]


def e2e_summary(output: str) -> E2e:
    found = list(_E2E.finditer(output))
    if not found:
        raise perf.PerfError("the end-to-end consumer printed no result line")
    m = found[-1]
    if int(m["other"]):
        raise perf.PerfError("the topic stamps LogAppendTime: a record's send time is not in it, so no end-to-end "
                             "latency can be measured (message.timestamp.type=CreateTime is needed)")  # fmt: skip
    metrics: dict[str, float] = {}
    for metric in _METRIC.finditer(output):
        try:
            metrics[metric["name"]] = float(metric["value"])
        except ValueError:
            continue
    return E2e(int(m["records"]), float(m["p50"]), float(m["p95"]), float(m["p99"]), float(m["p999"]),
               float(m["max"]), metrics)  # fmt: skip


def probe_command(classpath: str) -> list[str]:
    return ["java", "-Xmx512m", "-cp", classpath, str(PROBE_SOURCE)]


def tool_classpath(tool: perf.Tool) -> str:
    """Kafka's jars: --classpath as given, or the libs folder beside a kafka-producer-perf-test script."""
    if tool.classpath is not None:
        return tool.classpath
    assert tool.script is not None
    return str(tool.script.resolve().parent.parent / "libs" / "*")


def run(tool: perf.Tool, topic: str, records: int, size: int, producer_config: Path, consumer_config: Path,
        bootstrap: str, throughput: int, payload: Path | None = None,
        keep: Callable[[str], None] | None = None, timeout: float = 900) -> LiveResult:  # fmt: skip
    """One live run on `topic` (empty, or positioned past: the consumer starts at its end): the
    consumer is started and takes its partitions, then the producer writes `records` at
    `throughput` records a second; the consumer reads them all as they come."""
    command = [*probe_command(tool_classpath(tool)), bootstrap, topic, str(records), str(consumer_config), "30000"]
    try:
        consumer = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as error:
        raise perf.PerfError(f"the end-to-end consumer could not start (java): {type(error).__name__}") from None
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert consumer.stdout is not None
        for line in consumer.stdout:
            if sum(map(len, lines)) < perf.MAX_OUTPUT:
                lines.append(line)
            if line.strip() == "ready":
                ready.set()
        ready.set()  # the consumer ended: whatever it printed says why

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        if not ready.wait(READY_TIMEOUT) or consumer.poll() is not None:
            raise perf.PerfError(_consumer_failed(consumer, "before it was ready"))
        produced = perf.run(tool, topic, records, size, producer_config, throughput, timeout=timeout, payload=payload,
                            keep=keep)  # fmt: skip
        try:
            consumer.wait(timeout=max(60.0, timeout / 2))
        except subprocess.TimeoutExpired:
            raise perf.PerfError("the end-to-end consumer did not finish reading the stream") from None
        reader.join(timeout=10)
        if consumer.returncode != 0:
            raise perf.PerfError(_consumer_failed(consumer, "while reading"))
    finally:
        if consumer.poll() is None:
            consumer.kill()
            consumer.wait()
    read_back = e2e_summary("".join(lines))
    fetches = read_back.metrics.get("stream-fetch-total", read_back.metrics.get("fetch-total", 0.0))
    return LiveResult(produced.records_per_second, produced.p50_ms, produced.p99_ms, produced.p999_ms,
                      read_back.p50, read_back.p99, read_back.p999,
                      fetches * 1000 / read_back.records if read_back.records else 0.0,
                      read_back.metrics.get("fetch-latency-avg", 0.0), produced.metrics)  # fmt: skip


def _consumer_failed(consumer: subprocess.Popen[str], when: str) -> str:
    if consumer.poll() is None:
        return f"the end-to-end consumer did not start {when} ({READY_TIMEOUT:.0f} s)"
    error = (consumer.stderr.read() if consumer.stderr else "").strip().splitlines()
    last = next((line for line in reversed(error) if line.strip() and not line.startswith("\tat ")), "no output")
    why = "a JDK is needed: it runs as a Java source file" if "source" in last.lower() or "javac" in last else ""
    last = redact_line(last)  # a client error may quote a setting: no secret in any output
    return f"the end-to-end consumer failed {when} (exit {consumer.returncode}): {last[:300]}" + (
        f" — {why}" if why else ""
    )


class RampStep(NamedTuple):
    asked: int  # records a second
    reached: float
    p99_ms: float


SUSTAINED = 0.95  # a step the producer kept within 5 % of the bound is sustained
STEP_SECONDS = 5


def ramp(tool: perf.Tool, topic: str, size: int, config: Path, start: int,
         progress: Callable[[str], None] = lambda _: None, steps: int = 8,
         payload: Path | None = None) -> list[RampStep]:  # fmt: skip
    """Short runs at a doubling bound from `start` records a second until the producer falls
    behind (reaches under 95 % of it) or `steps` have run; each step `STEP_SECONDS` long."""
    found: list[RampStep] = []
    rate = max(1, start)
    for number in range(1, steps + 1):
        progress(f"ramp {number}: {rate:,} records/s")
        result = perf.run(tool, topic, max(100, rate * STEP_SECONDS), size, config, rate, payload=payload)
        found.append(RampStep(rate, result.records_per_second, result.p99_ms))
        if result.records_per_second < rate * SUSTAINED:
            break
        rate *= 2
    return found


def sustained(steps: list[RampStep]) -> int | None:
    """The highest bound the producer kept, or None when it kept none."""
    kept = [step.asked for step in steps if step.reached >= step.asked * SUSTAINED]
    return max(kept) if kept else None
