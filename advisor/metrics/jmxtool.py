"""Kafka's own JMX dump tool (`kafka-jmx.sh`, org.apache.kafka.tools.JmxTool): its four report
formats, read into broker samples named by their MBean.

Every poll writes every key — `time` (epoch milliseconds), then `<ObjectName>:<attribute>` sorted —
as `original` (a CSV header of quoted keys once, then one comma-joined row per poll), `properties`
(`key=value` lines), `csv` (`key,"value"` lines) or `tsv` (`key<TAB>value` lines). An ObjectName
holds `=` and `,`, so a line splits at its last separator. A `--date-format` time is not read: a
poll's time must be epoch milliseconds. The dump reads one JVM: the node is the file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from advisor import lazy_re
from advisor.metrics import vocabulary
from advisor.metrics.vocabulary import Metric, Reading, counted
from advisor.model.document import LoadError
from advisor.named_tuple import NamedTuple

_PERCENTILE = lazy_re.compile(r"(\d+)thPercentile\Z")
_ATTRIBUTES = {"Value": Reading.VALUE, "Count": Reading.COUNT, "OneMinuteRate": Reading.RATE,
               "MeanRate": Reading.LIFETIME}  # fmt: skip


class BeanSample(NamedTuple):
    """A broker sample named by its MBean (not a series name to resolve)."""

    metric: Metric
    reading: str
    labels: tuple[tuple[str, str], ...]
    value: float
    timestamp_ms: int | None
    line: int
    written: str  # the ObjectName:attribute key as the tool wrote it


# What JmxTool writes on stderr before its report (kafka.tools.JmxTool in Scala, with a full stop
# after the address; org.apache.kafka.tools.JmxTool in Java, without): a terminal paste, or a
# run with `2>&1`, starts with these — and, while the broker is not up yet, with the failed
# attempts and their stack traces (the Scala tool prints them).
_PREAMBLE = lazy_re.compile(
    r"(?:Trying to connect to JMX url: |Could not connect to JMX url: |\s+at |Caused by: |\s*\.\.\. \d+ more"
    r"|(?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error)\b)"
)
MAX_PREAMBLE = 500  # lines: a few minutes of failed attempts, each with its stack trace


def _report_lines(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """(line number, line) of the report: the preamble JmxTool writes before it passed over,
    when the text starts with one (the numbers stay the file's)."""
    numbered = enumerate(lines, start=1)
    for number, line in numbered:
        if number > MAX_PREAMBLE or not (line.strip() == "" or _PREAMBLE.match(line)):
            yield number, line
            break
    yield from numbered


def kind_of(head: str) -> str | None:
    first = next((line for _, line in _report_lines(head.lstrip("\ufeff").split("\n"))), "").rstrip("\r")
    if first.startswith('"time","'):
        return "original"
    if re.match(r"time=\d", first):
        return "properties"
    if re.match(r'time,"', first):
        return "csv"
    if re.match(r"time\t", first):
        return "tsv"
    return None


def _beans() -> dict[tuple[str, frozenset[tuple[str, str]]], Metric]:
    """(domain, {type, name}) → metric, for every MBean-named metric of the vocabulary."""
    found = {}
    for metric in vocabulary.METRICS:
        if metric.attribute:
            continue
        domain, _, properties = metric.mbean.partition(":")
        pairs = (tuple(part.split("=", 1)) for part in properties.split(","))
        found[(domain, frozenset(pairs))] = metric
    return found


def resolve(key: str) -> tuple[Metric, str, tuple[tuple[str, str], ...]] | None:
    """An `ObjectName:attribute` key → (metric, reading, labels), or None for what no rule reads."""
    name, _, attribute = key.rpartition(":")
    domain, _, properties = name.partition(":")
    try:
        pairs = dict(part.split("=", 1) for part in properties.split(","))
    except ValueError:
        return None
    metric = _BEANS.get((domain, frozenset({("type", pairs.get("type", "")), ("name", pairs.get("name", ""))})))
    if metric is None:
        return None
    labels = tuple(sorted((k.lower(), v) for k, v in pairs.items() if k not in ("type", "name")))
    percentile = _PERCENTILE.match(attribute)
    if percentile:
        digits = percentile.group(1)
        return metric, Reading.QUANTILE, (*labels, ("quantile", f"0.{digits}"))
    reading = _ATTRIBUTES.get(attribute)
    return (metric, counted(metric, reading), labels) if reading else None


def read(text: str, path: str, kind: str) -> list[BeanSample]:
    return read_lines(text.splitlines(), path, kind)


def read_lines(lines: Iterable[str], path: str, kind: str) -> list[BeanSample]:
    """A dump read a line at a time (an hour of polls is tens of MB)."""
    if kind == "original":
        return _original(lines, path)
    separator = {"properties": "=", "csv": ",", "tsv": "\t"}[kind]
    samples: list[BeanSample] = []
    stamp: int | None = None
    for number, line in _report_lines(lines):
        line = line.rstrip("\r\n")
        if not line.strip():
            continue
        key, sep, value = line.rpartition(separator)
        if not sep:
            raise LoadError(path, number, f"a JmxTool {kind} line is key{separator}value")
        value = value.strip('"') if kind == "csv" else value
        if key == "time":
            stamp = _time(value, path, number)
            continue
        samples += _sample(key, value, stamp, number)
    return samples


def _time(value: str, path: str, number: int) -> int:
    try:
        stamp = int(value)
    except ValueError:
        raise LoadError(
            path, number, "the time must be epoch milliseconds: run JmxTool without --date-format"
        ) from None
    if not 0 <= stamp < 10**14:
        raise LoadError(path, number, "the time is out of range (epoch milliseconds)")
    return stamp


def _sample(key: str, value: str, stamp: int | None, number: int) -> list[BeanSample]:
    resolved = resolve(key)
    if resolved is None:
        return []
    try:
        number_value = float(value)
    except ValueError:
        return []  # a string attribute (an MBean's RateUnit, say)
    metric, reading, labels = resolved
    return [BeanSample(metric, reading, labels, number_value, stamp, number, key)]


def _original(lines: Iterable[str], path: str) -> list[BeanSample]:
    """A header of quoted keys, then rows of values in the same order (values hold no comma)."""
    rows = _report_lines(lines)
    keys = [key.strip().strip('"') for key in _split_header(next(rows, (1, ""))[1])]
    samples: list[BeanSample] = []
    for number, line in rows:
        line = line.rstrip("\r\n")
        if not line.strip():
            continue
        values = line.split(",")
        if len(values) != len(keys):
            raise LoadError(
                path, number, f"a JmxTool row has {len(keys)} values, one per header key: {len(values)} here"
            )
        stamp = _time(values[0], path, number)
        for key, value in zip(keys[1:], values[1:], strict=True):
            samples += _sample(key, value, stamp, number)
    return samples


def _split_header(line: str) -> list[str]:
    """Quoted keys joined by commas (a key's ObjectName holds commas inside its quotes)."""
    return re.findall(r'"((?:[^"])*)"', line)


_BEANS = _beans()
