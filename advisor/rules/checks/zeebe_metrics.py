"""The Camunda pack's metric checks (ZM rules): the Zeebe broker's refusals against the commands it
received, and each partition's export lag — the log's last committed position against each
exporter's last exported one — with its trend: the scissors of what arrives and what leaves.

Each gets the run's observations, the rule, its params and what configurations were given beside."""

from __future__ import annotations

from advisor import TYPE_CHECKING
from advisor.analysis import flow
from advisor.metrics import vocabulary, windows
from advisor.rules.checks import flow as flow_checks
from advisor.rules.checks.metrics import ARGUMENTS, SHORT, number, seconds
from advisor.rules.registry import metric_check
from advisor.rules.violation import Violation

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from advisor.analysis.client_settings import Beside
    from advisor.model.observations import Observations, Series

COMPONENT = "zeebe-broker"


def _key(series: Series, *dropped: str) -> tuple[str, str | None, tuple[tuple[str, str], ...]]:
    return series.node, series.cluster, tuple((k, v) for k, v in series.labels if k not in dropped)


@metric_check((*ARGUMENTS, "partition", "dropped", "received"))
def rejected_share(
    observations: Observations, definition: Any, params: dict[str, Any], beside: Beside
) -> list[Violation]:
    """A partition that refused more than the threshold's share of the commands it received, from
    both counters' increase over what was observed (a count seen once is since the broker started:
    not judged)."""
    share, window = float(params["threshold"]), float(params["sustained_seconds"])
    received = {_key(s): s for s in observations.of(vocabulary.ZEEBE_RECEIVED.mbean)}
    violations = []
    for series in sorted(observations.of(vocabulary.ZEEBE_DROPPED.mbean), key=_key):
        total = received.get(_key(series))
        dropped, taken = windows.increase(series), windows.increase(total) if total is not None else None
        if dropped is None or taken is None or taken.value <= 0 or dropped.value / taken.value <= share:
            continue
        observed = dropped.observed or 0.0
        notes = () if observed >= window else (SHORT.format(observed=seconds(observed), window=seconds(window)),)
        partition = series.label("partition") or "?"
        arguments = {"node": series.node, "series": series.written, "nodes": series.node, "partition": partition,
                     "value": f"{dropped.value / taken.value:.1%}", "held": f"in the {seconds(observed)} observed",
                     "dropped": number(dropped.value), "received": number(taken.value), "config": ""}  # fmt: skip
        violation = Violation(keys=(series.written,), location=dropped.place, arguments=arguments, assumptions=notes)
        violation.component = COMPONENT
        violations.append(violation)
    return violations


@metric_check((*ARGUMENTS, "partition", "exporter", "trend", "committed_rate", "exported_rate", "age"))
def export_lag(observations: Observations, definition: Any, params: dict[str, Any], beside: Beside) -> list[Violation]:
    """Each exporter's lag on each partition (last committed position − last exported position, at
    the samples both were read), judged above the threshold for the window, with what moved it: the
    rate records were committed and the rate the exporter took them."""
    threshold, window = float(params["threshold"]), float(params["sustained_seconds"])
    committed = {_key(s): s for s in observations.of(vocabulary.ZEEBE_COMMITTED.mbean)}
    flows = {(r.cluster, r.topic, r.group, r.partition): r for r in flow.view(observations).exports}
    violations = []
    for series in sorted(observations.of(vocabulary.ZEEBE_EXPORTED.mbean), key=_key):
        log = committed.get(_key(series, "exporter"))
        if log is None:
            continue  # the partition's committed position is not in the input: nothing to measure against
        at = {point.time: point.value for point in log.points}
        lag = [windows.Signal(p.time, at[p.time] - p.value, p.place) for p in series.points if p.time in at]
        verdict = windows.judge(lag, lambda v: v > threshold, lambda v: v <= threshold / 2, window)
        if verdict is None:
            continue
        trend, committed_rate, exported_rate = _scissors(log, series)
        held = "in the one snapshot analysed" if verdict.held is None else (
            f"for {seconds(verdict.held)}" if verdict.held else "at the last sample")  # fmt: skip
        notes: tuple[str, ...] = ()
        if verdict.held is None:
            notes = ("one snapshot: how the lag moves is not known",)
        elif not verdict.sustained:
            notes = (SHORT.format(observed=seconds(verdict.observed or 0), window=seconds(window)),)
        arguments = {"node": series.node, "series": series.written, "nodes": series.node, "config": "",
                     "partition": series.label("partition") or "?", "exporter": series.label("exporter") or "?",
                     "value": number(verdict.value), "held": held, "trend": trend,
                     "committed_rate": committed_rate, "exported_rate": exported_rate,
                     "age": _age(flows.get((series.cluster, series.node, series.label("exporter") or "?",
                                            series.label("partition") or "?")))}  # fmt: skip
        violation = Violation(keys=(series.written, log.written), location=verdict.place, arguments=arguments,
                              assumptions=notes)  # fmt: skip
        violation.component = COMPONENT
        violations.append(violation)
    return violations


def _age(row: flow.PartitionFlow | None) -> str:
    """How long ago the oldest unexported record was committed (the flow view's lag time), as a clause."""
    if row is None or row.lag_time is None or row.lag_time.kind in ("caught-up", "unknown-rate"):
        return ""
    if row.lag_time.kind == "at-least":
        return f"; its oldest unexported record was committed more than {seconds(row.lag_time.seconds)} ago"
    return f"; its oldest unexported record was committed {seconds(row.lag_time.seconds)} ago"


@metric_check(("node", "value", "held", "series", "partition", "exporter", "lag", "trend"))
def export_lag_seconds(
    observations: Observations, definition: Any, params: dict[str, Any], beside: Beside
) -> list[Violation]:
    """Each exporter on each broker whose oldest unexported record was committed longer ago than the
    threshold (the flow view's lag time: when the committed position passed the exported one), for
    the window — the worst partition at each sample, as KM040 judges a consumer group."""
    threshold, window = float(params["threshold"]), float(params["sustained_seconds"])
    band = float(definition.watch.hysteresis or 0.0)
    violations = []
    for (cluster, exporter, broker), rows in sorted(flow.view(observations).exporters().items(), key=str):
        timed = [row for row in rows if row.lag_time is not None]
        if not timed:
            continue
        verdict = windows.judge(flow_checks.worst_over_time(timed), lambda v: v > threshold,
                                lambda v: v <= threshold - band, window)  # fmt: skip
        if verdict is None:
            continue
        worst = max(timed, key=lambda row: row.lag_time.seconds)  # type: ignore[union-attr]
        notes = flow_checks.span_notes(verdict.observed, window)
        if worst.lag_time.kind == "at-least":  # type: ignore[union-attr]
            notes = (*notes, f"the oldest unexported record was committed before the first sample: "
                             f"{seconds(verdict.value)} is a lower bound")  # fmt: skip
        held = "in the one snapshot analysed" if verdict.held is None else f"for {seconds(verdict.held)}"
        arguments = {"node": broker + (f" ({cluster})" if cluster else ""), "value": seconds(verdict.value),
                     "held": held, "series": worst.written, "partition": worst.partition, "exporter": exporter,
                     "lag": number(worst.lag or 0), "trend": flow_checks.trend_said(worst)}  # fmt: skip
        violation = Violation(keys=(worst.written,), location=worst.place, arguments=arguments, assumptions=notes)
        violation.component = COMPONENT
        violations.append(violation)
    return violations


def _scissors(log: Series, exported: Series) -> tuple[str, str, str]:
    """(how the lag moves, records committed per second, records exported per second) over what both
    observed: export falling behind when it takes records slower than they are committed."""
    if len(log.points) < 2 or len(exported.points) < 2:
        return "its trend unknown (one snapshot)", "?", "?"

    def rate(series: Series) -> float | None:
        first, last = series.points[0], series.points[-1]
        if first.time is None or last.time is None or last.time <= first.time:
            return None
        return (last.value - first.value) / (last.time - first.time)

    arriving, leaving = rate(log), rate(exported)
    if arriving is None or leaving is None:
        return "its trend unknown", "?", "?"
    if leaving < arriving * 0.98:
        trend = "and growing: export falls behind what is committed"
    elif leaving > arriving * 1.02:
        trend = "and shrinking: export catches up"
    else:
        trend = "and steady: export keeps pace without catching up"
    return trend, f"{number(arriving)}/s", f"{number(leaving)}/s"


ZEEBE_METRICS = (vocabulary.ZEEBE_RECEIVED, vocabulary.ZEEBE_DROPPED, vocabulary.ZEEBE_LIMIT,
                 vocabulary.ZEEBE_COMMITTED, vocabulary.ZEEBE_EXPORTED)  # fmt: skip
DISK = "camunda.data.primary-storage.disk."
PROCESSING, REPLICATION = DISK + "free-space.processing", DISK + "free-space.replication"
INTERVAL = DISK + "monitoring-interval"


def zeebe_only(observations: Observations) -> bool:
    """The run's brokers are Zeebe's: its metrics were read, and no Kafka broker's or offset's."""
    if not any(observations.of(metric.mbean) for metric in ZEEBE_METRICS):
        return False
    return not any(s.metric.startswith(("kafka.", "offsets:")) for s in observations.every())


def _agreed(beside: Beside, key: str, parse: Callable[[str | None], float | None]) -> tuple[float, str, bool]:
    """(value, as said, configured) of a broker setting: the one the Zeebe broker configurations
    given beside agree on, else Camunda's default."""
    from advisor.analysis import camunda as view

    sets = [cs for cs in getattr(beside.document, "config_sets", []) if cs.component == "zeebe-broker"]
    values = {view.in_force(cs, key, view.judged_release(cs).release).value for cs in sets}
    if len(values) == 1 and (value := next(iter(values))) is not None and parse(value) is not None:
        return float(parse(value) or 0), value, True
    default = view.default(key, "8.9")
    return float(parse(default) or 0), str(default), False


def _watermark(beside: Beside) -> tuple[float, str]:
    """The processing watermark the brokers given beside agree on, else the release default."""
    from advisor.analysis import camunda as view

    value, said, configured = _agreed(beside, PROCESSING, view.size_bytes)
    count = len([cs for cs in getattr(beside.document, "config_sets", []) if cs.component == "zeebe-broker"])
    if configured:
        return value, f"{said}, as the {count} broker configuration(s) given say"
    return value, f"{said}, Camunda's default (no configuration given agrees on one)"


@metric_check(
    ("node", "value", "series", "free", "rate", "volume", "watermark", "replication", "replication_watermark")
)
def disk_to_watermark(
    observations: Observations, definition: Any, params: dict[str, Any], beside: Beside
) -> list[Violation]:
    """A Zeebe broker's volume falling toward the processing watermark, where the broker refuses
    every command: the time left is (free − watermark) ÷ the rate it falls."""
    if not zeebe_only(observations):
        return []  # a Kafka broker's disk: KM042 judges it
    horizon, window = float(params["threshold"]) * 3600, float(params["sustained_seconds"])
    from advisor.analysis import camunda as view

    watermark, said = _watermark(beside)
    replication, replication_said, configured = _agreed(beside, REPLICATION, view.size_bytes)
    violations = []
    for disk in flow.view(observations).disks:
        if disk.slope is None or disk.slope >= 0:
            continue
        left = max(0.0, (disk.free - watermark) / -disk.slope)
        # Then the replication watermark, below which the journal takes no new segment.
        replicating = max(0.0, (disk.free - replication) / -disk.slope)
        if left > horizon:
            continue
        notes = () if disk.span is None or disk.span >= window else (
            SHORT.format(observed=seconds(disk.span), window=seconds(window)),)  # fmt: skip
        arguments = {"node": disk.node, "volume": disk.volume, "series": disk.written, "nodes": disk.node,
                     "value": seconds(left), "free": _gb(disk.free), "rate": f"{_gb(-disk.slope)}/s",
                     "watermark": said, "replication": seconds(replicating),
                     "replication_watermark": f"{replication_said}{'' if configured else ', the default'}"}  # fmt: skip
        violation = Violation(keys=(disk.written, PROCESSING), location=disk.place, arguments=arguments,
                              assumptions=notes)  # fmt: skip
        violation.component = COMPONENT
        violations.append(violation)
    return violations


@metric_check(("node", "volume", "series", "rate", "fill", "interval", "gap", "processing", "replication"))
def disk_outruns_check(
    observations: Observations, definition: Any, params: dict[str, Any], beside: Beside
) -> list[Violation]:
    """A Zeebe broker's volume falling faster than the broker checks it: in one monitoring interval
    it loses more than lies between the processing and replication watermarks, so the broker can
    pass from taking commands to refusing replication between two checks, never having refused
    the commands alone."""
    from advisor.analysis import camunda as view

    if not zeebe_only(observations):
        return []
    processing, processing_said, configured_p = _agreed(beside, PROCESSING, view.size_bytes)
    replication, replication_said, configured_r = _agreed(beside, REPLICATION, view.size_bytes)
    interval_ms, interval_said, configured_i = _agreed(beside, INTERVAL, view.duration_ms)
    gap = processing - replication
    if gap <= 0 or interval_ms <= 0:
        return []  # the broker refuses to start (ZB006), or checks continuously
    intervals, window = float(params["threshold"]), float(params["sustained_seconds"])

    def said(value: str, configured: bool) -> str:
        return f"{value}, {'configured' if configured else 'the default'}"

    violations = []
    for disk in flow.view(observations).disks:
        if disk.slope is None or -disk.slope * interval_ms / 1000 * intervals <= gap:
            continue  # the gap lasts at least `intervals` checks at this fall
        notes = () if disk.span is None or disk.span >= window else (
            SHORT.format(observed=seconds(disk.span), window=seconds(window)),)  # fmt: skip
        arguments = {"node": disk.node, "volume": disk.volume, "series": disk.written, "nodes": disk.node,
                     "value": _gb(-disk.slope * interval_ms / 1000), "rate": f"{_gb(-disk.slope)}/s",
                     "fill": _gb(-disk.slope * interval_ms / 1000), "interval": said(interval_said, configured_i),
                     "gap": _gb(gap), "processing": said(processing_said, configured_p),
                     "replication": said(replication_said, configured_r)}  # fmt: skip
        violation = Violation(keys=(disk.written, INTERVAL), location=disk.place, arguments=arguments,
                              assumptions=notes)  # fmt: skip
        violation.component = COMPONENT
        violations.append(violation)
    return violations


def _gb(value: float) -> str:
    if abs(value) >= 1024**3:
        return f"{value / 1024**3:.1f} GiB"
    return f"{value / 1024**2:.0f} MiB" if abs(value) >= 10 * 1024**2 else f"{value / 1024**2:.2g} MiB"
