"""Checks over the flow-control view (advisor/analysis/flow.py): a group too far behind in
seconds, a group whose oldest unread records will reach the retention before it reads them, a
filesystem that fills soon. Each judges per consumer group and topic (the worst partition) or
per filesystem."""

from __future__ import annotations

from typing import Any

from advisor.analysis import flow
from advisor.analysis.broker_settings import BrokerSettings
from advisor.analysis.client_settings import Beside
from advisor.metrics import windows
from advisor.model.observations import Observations
from advisor.model.provenance import Location
from advisor.rules.checks.metrics import ONE_SNAPSHOT, SHORT, number, seconds
from advisor.rules.registry import metric_check
from advisor.rules.violation import Violation

DEFAULT_RETENTION_HOURS = 168.0  # log.retention.hours' default in every release
RISING = 0.01  # lag seconds per second: below this the age of the oldest unread record is not rising
TOPIC_RETENTION = (
    "the brokers' retention; a topic's own retention.ms (not known here) may differ: "
    "kafka-configs --describe --entity-type topics shows it"
)


def span_notes(span: float | None, window: float) -> tuple[str, ...]:
    if span is None:
        return (ONE_SNAPSHOT,)
    return () if span >= window else (SHORT.format(observed=seconds(span), window=seconds(window)),)


def _subject(cluster: str | None, group: str, topic: str) -> str:
    return f"{group} on {topic}" + (f" ({cluster})" if cluster else "")


def worst_over_time(rows: list[flow.PartitionFlow]) -> list[windows.Signal]:
    """At each time any partition has a lag in seconds, the largest then known (each partition's
    latest): the group's lag in seconds on the topic over time."""
    times = sorted({t for row in rows for t, _ in row.lag_time_points})
    place = next((row.place for row in rows if row.place is not None), None)
    signals = []
    for moment in times:
        latest = [next((v for t, v in reversed(row.lag_time_points) if t <= moment), None) for row in rows]
        known = [v for v in latest if v is not None]
        if known:
            signals.append(windows.Signal(moment, max(known), place))  # type: ignore[arg-type]
    return signals


def trend_said(row: flow.PartitionFlow) -> str:
    rates = ""
    if row.rate_in is not None and row.rate_out is not None:
        rates = f": in {number(row.rate_in)}/s, out {number(row.rate_out)}/s"
    if row.trend == "diverging":
        return f"falling further behind{rates}"
    if row.draining and row.drain_seconds:
        return f"draining{rates}, caught up in about {seconds(row.drain_seconds)}"
    return f"{row.trend}{rates}"


@metric_check(("node", "value", "held", "series", "partition", "lag", "trend"))
def flow_lag_seconds(
    observations: Observations, definition: Any, params: dict[str, Any], beside: Beside
) -> list[Violation]:
    threshold = float(params["threshold"])
    window = float(params["sustained_seconds"])
    band = float(definition.watch.hysteresis or 0.0)
    violations = []
    for (cluster, group, topic), rows in flow.view(observations).groups().items():
        timed = [row for row in rows if row.lag_time is not None]
        if not timed:
            continue
        verdict = windows.judge(worst_over_time(timed), lambda v: v > threshold, lambda v: v <= threshold - band,
                                window)  # fmt: skip
        if verdict is None:
            continue
        worst = max(timed, key=lambda row: row.lag_time.seconds)  # type: ignore[union-attr]
        notes = span_notes(verdict.observed, window)
        if worst.lag_time.kind == "at-least":  # type: ignore[union-attr]
            notes = (*notes, f"the next record to read was written before the first sample: {seconds(verdict.value)} "
                             "is a lower bound")  # fmt: skip
        held = "in the one snapshot analysed" if verdict.held is None else f"for {seconds(verdict.held)}"
        arguments = {"node": _subject(cluster, group, topic), "value": seconds(verdict.value), "held": held,
                     "series": worst.written, "partition": worst.partition, "lag": number(worst.lag or 0),
                     "trend": trend_said(worst)}  # fmt: skip
        violations.append(Violation(keys=(worst.written,), location=worst.place, arguments=arguments,
                                    assumptions=notes, component="consumer"))  # fmt: skip
    return violations


def retention_seconds(settings: BrokerSettings) -> tuple[float, str, tuple[Location, ...]]:
    """The brokers' log retention (ms, else minutes, else hours, as Kafka reads them), what it is
    and where it is written; -1 means none (kept forever)."""
    if settings:
        units = (("log.retention.ms", 0.001), ("log.retention.minutes", 60.0), ("log.retention.hours", 3600.0))
        for key, unit in units:
            agreed = settings.agreed(key)
            if agreed is None or (not agreed.written and key != "log.retention.hours"):
                continue
            try:
                value = float(agreed.value)
            except ValueError:
                continue
            where = "the default" if not agreed.written else "as the broker configurations given agree"
            return (-1.0 if value < 0 else value * unit), f"{key}={agreed.value}, {where}", agreed.written
    return DEFAULT_RETENTION_HOURS * 3600, f"log.retention.hours={DEFAULT_RETENTION_HOURS:g}, Kafka's default", ()


@metric_check(("node", "value", "series", "partition", "lag", "age", "retention", "trend"))
def flow_retention(
    observations: Observations, definition: Any, params: dict[str, Any], beside: Beside
) -> list[Violation]:
    horizon = float(params["threshold"]) * 3600
    window = float(params["sustained_seconds"])
    retention, said, written = retention_seconds(beside.brokers)
    if retention < 0:
        return []  # kept forever: nothing is deleted before it is read
    violations = []
    for (cluster, group, topic), rows in flow.view(observations).groups().items():
        found = []
        for row in rows:
            if row.lag_time is None or not row.lag:
                continue
            age = row.lag_time.seconds
            if age >= retention:
                found.append((0.0, row))
                continue
            if row.draining or len(row.lag_time_points) < 2:
                continue
            rising = flow.slope(row.lag_time_points)
            if rising > RISING:
                found.append(((retention - age) / rising, row))
        if not found:
            continue
        left, row = min(found, key=lambda item: item[0])
        if left > horizon:
            continue
        notes = (*span_notes(row.span, window), TOPIC_RETENTION)
        if row.lag_time.kind == "at-least":  # type: ignore[union-attr]
            notes = (*notes, "the next record to read was written before the first sample: its age is a lower bound")
        value = "now" if left == 0 else f"in about {seconds(left)}"
        arguments = {"node": _subject(cluster, group, topic), "value": value, "series": row.written,
                     "partition": row.partition, "lag": number(row.lag or 0),
                     "age": seconds(row.lag_time.seconds),  # type: ignore[union-attr]
                     "retention": f"{seconds(retention)} ({said})", "trend": trend_said(row)}  # fmt: skip
        violations.append(Violation(keys=(row.written, "retention.ms", "log.retention.hours"), location=row.place,
                                    arguments=arguments, assumptions=notes, component="consumer",
                                    related=written))  # fmt: skip
    return violations


def _bytes(value: float) -> str:
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if abs(value) >= size:
            return f"{value / size:.3g} {unit}"
    return f"{value:.0f} B"


@metric_check(("node", "value", "series", "free", "rate", "volume"))
def flow_disk_fill(
    observations: Observations, definition: Any, params: dict[str, Any], beside: Beside
) -> list[Violation]:
    horizon = float(params["threshold"]) * 3600
    window = float(params["sustained_seconds"])
    violations: list[Violation] = []
    from advisor.rules.checks.zeebe_metrics import zeebe_only

    if zeebe_only(observations):
        return violations  # a Zeebe broker's disks, judged against its watermark (ZM004)
    for disk in flow.view(observations).disks:
        if disk.fill_seconds is None or disk.fill_seconds > horizon or disk.slope is None:
            continue
        arguments = {"node": disk.node, "volume": disk.volume, "value": seconds(disk.fill_seconds),
                     "series": disk.written, "free": _bytes(disk.free), "rate": f"{_bytes(-disk.slope)}/s"}  # fmt: skip
        violations.append(Violation(keys=(disk.written, "log.retention.bytes", "log.retention.hours"),
                                    location=disk.place, arguments=arguments,
                                    assumptions=span_notes(disk.span, window)))  # fmt: skip
    return violations
