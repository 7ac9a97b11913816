"""Kafka's ProducerPerformance (kafka-producer-perf-test) and ConsumerPerformance: one run each,
and what it printed read (the producer's summary: advisor/metrics/perf_output.py)."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

from advisor import lazy_re
from advisor.metrics.perf_output import EXPLAINING as EXPLAINING  # the summary's reader, bench's too
from advisor.metrics.perf_output import MAX_OUTPUT as MAX_OUTPUT
from advisor.metrics.perf_output import PerfError as PerfError
from advisor.metrics.perf_output import PerfResult as PerfResult
from advisor.metrics.perf_output import metrics as metrics
from advisor.metrics.perf_output import summary as summary
from advisor.named_tuple import NamedTuple
from advisor.secrets import redact_line

PRODUCER_PERFORMANCE = "org.apache.kafka.tools.ProducerPerformance"


class Tool(NamedTuple):
    """How to start the tool: a `kafka-producer-perf-test(.sh)` script, or java with a classpath."""

    script: Path | None = None
    classpath: str | None = None

    def command(self) -> list[str]:
        if self.script is not None:
            return [str(self.script)]
        return ["java", "-Xmx512m", "-cp", self.classpath or "", PRODUCER_PERFORMANCE]


def run(tool: Tool, topic: str, records: int, size: int, config: Path, throughput: int = -1,
        timeout: float = 900, payload: Path | None = None,
        keep: Callable[[str], None] | None = None) -> PerfResult:  # fmt: skip
    """One run of `records` records of `size` bytes with the producer settings in `config`
    (bootstrap servers and security included), at most `throughput` records a second (-1: unbounded).
    With `payload`, the records are its lines instead (the tool picks one at random for each record),
    so compression works on real data, not the tool's random letters."""
    records_from = ["--payload-file", str(payload)] if payload is not None else ["--record-size", str(size)]
    command = [*tool.command(), "--topic", topic, "--num-records", str(records), *records_from,
               "--throughput", str(throughput), "--producer.config", str(config), "--print-metrics"]  # fmt: skip
    try:
        finished = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise PerfError(f"kafka-producer-perf-test could not run: {type(error).__name__}") from None
    output = finished.stdout[-MAX_OUTPUT:]
    if finished.returncode != 0:
        last = (finished.stderr or finished.stdout).strip().splitlines()[-1:] or ["no output"]
        raise PerfError(f"kafka-producer-perf-test failed (exit {finished.returncode}): {last[0][:300]}")
    result = summary(output)
    if keep is not None:  # the run as printed, each line redacted: a saved run is a verify input
        keep("".join(redact_line(line) + "\n" for line in output.splitlines()))
    return result


# kafka-consumer-perf-test with --hide-header: one CSV line per run — start.time, end.time,
# data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms,
# fetch.MB.sec, fetch.nMsg.sec (MB is MiB). fetch.* leave out the group join, so runs compare on
# them (kafka-profiles.md §5.2).
CONSUMER_PERFORMANCE = "org.apache.kafka.tools.ConsumerPerformance"
_NUMBER = r"-?[\d.]+(?:E-?\d+)?"
_CONSUMER_LINE = lazy_re.compile(rf"^[^,\n]+, [^,\n]+, (?P<mb>{_NUMBER}), {_NUMBER}, (?P<records>\d+), {_NUMBER}, "
                            rf"{_NUMBER}, {_NUMBER}, (?P<fetch_mb>{_NUMBER}), (?P<fetch_records>{_NUMBER})\s*$",
                            re.MULTILINE)  # fmt: skip


class ConsumeResult(NamedTuple):
    records: int
    mib: float
    fetch_mib_per_second: float
    fetch_records_per_second: float


def consume_summary(output: str) -> ConsumeResult:
    found = list(_CONSUMER_LINE.finditer(output))
    if not found:
        raise PerfError("kafka-consumer-perf-test printed no result line")
    m = found[-1]
    return ConsumeResult(int(m["records"]), float(m["mb"]), float(m["fetch_mb"]), float(m["fetch_records"]))


def consume(tool: Tool, topic: str, records: int, config: Path, bootstrap: str, group: str,
            timeout: float = 900) -> ConsumeResult:  # fmt: skip
    """One run of the consumer perf tool: `records` records from the topic's start, a group of its own."""
    if tool.script is not None:
        command = [str(tool.script.with_name(tool.script.name.replace("producer", "consumer")))]
    else:
        command = ["java", "-Xmx512m", "-cp", tool.classpath or "", CONSUMER_PERFORMANCE]
    command += ["--bootstrap-server", bootstrap, "--topic", topic, "--messages", str(records), "--group", group,
                "--consumer.config", str(config), "--hide-header", "--timeout", "60000"]  # fmt: skip
    try:
        finished = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise PerfError(f"kafka-consumer-perf-test could not run: {type(error).__name__}") from None
    if finished.returncode != 0:
        last = (finished.stderr or finished.stdout).strip().splitlines()[-1:] or ["no output"]
        raise PerfError(f"kafka-consumer-perf-test failed (exit {finished.returncode}): {last[0][:300]}")
    result = consume_summary(finished.stdout[-MAX_OUTPUT:])
    if result.records < records:
        raise PerfError(f"kafka-consumer-perf-test read {result.records} of {records} records before its timeout")
    return result


class Payload(NamedTuple):
    """A payload file: its name (never its content: records may hold anything) and its records."""

    path: Path
    records: int
    average_bytes: int


MAX_PAYLOAD_BYTES = 64 * 1024 * 1024  # the tool reads the whole file into memory, in each run


def payload(path: Path) -> Payload:
    """The file as kafka-producer-perf-test reads it (UTF-8, one record a line, empty lines kept
    out here so that the average is of records); ValueError when it holds none or is too large."""
    size = path.stat().st_size
    if size > MAX_PAYLOAD_BYTES:
        raise ValueError(f"{path}: {size:,} bytes; a payload file may have {MAX_PAYLOAD_BYTES:,} at most")
    lines = [line.encode() for line in path.read_bytes().decode("utf-8", "replace").split("\n") if line]
    if not lines:
        raise ValueError(f"{path}: no records (one a line)")
    return Payload(path, len(lines), round(sum(map(len, lines)) / len(lines)))
