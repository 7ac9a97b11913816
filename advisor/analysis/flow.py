"""The flow-control view: records in against records out, per consumer group and partition.

From offsets over time (docs/metrics.md, "Flow control"):
- **in**: the partition's end offset (an offset exporter's high watermark, a broker's
  LogEndOffset — the replica furthest ahead —, or a librdkafka consumer's own hi_offset);
- **out**: the group's committed offset (an offset exporter, or a librdkafka consumer's
  committed_offset); where only a lag is given (KMinion, a Java consumer's records-lag), the lag
  alone, whose slope is in - out.

Per partition: the lag in records; the **scissors** — the lag's least-squares slope over the
window says diverging (in > out), converging (out > in), stable, or caught up; the **lag in
seconds**, how long ago the next record to read was written, found where the end offset passed
it (kafka-lag-exporter's interpolation, kafka-metrics.md §7.1): a producer idle since then does
not stretch it (the crossing comes after the idle stretch), a position older than the window is
a lower bound (plus an extrapolated estimate), a group with no committed offset has none; and the
**drain ETA** = backlog / (out - in), or not draining. Per node, the filesystems' free space
falling gives a **disk-fill ETA**; per topic, ingress x (RF - 1) the replication traffic.

Analysis only: it reads Observations and returns data; rules (KM040-KM042) judge it, the report
renders it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from advisor.metrics import clients, vocabulary, windows
from advisor.model.observations import Observations, Point, Series
from advisor.model.provenance import Location, MetricSample

GROUP_LABELS = ("consumergroup", "group", "group_id")  # kafka_exporter, kafka-lag-exporter, KMinion
TOPIC_LABELS = ("topic", "topic_name")
PARTITION_LABELS = ("partition", "partition_id")
PSEUDO_FILESYSTEMS = frozenset({"tmpfs", "ramfs", "devtmpfs", "squashfs", "nsfs", "proc", "sysfs", "autofs"})
STABLE_SHARE = 0.05  # a lag that moved less than this share of its largest value (and 10 records) is stable
STABLE_RECORDS = 10.0
POINTS_KEPT = 240  # timed points a report keeps per series (a chart's width; a report stays small)


@dataclass
class LagTime:
    seconds: float  # how long ago the next record to read was written (a lower bound: see kind)
    kind: str  # "caught-up", "interpolated", "at-least" (older than the window), "unknown-rate"
    estimate: float | None = None  # "at-least": extrapolated with the window's in-rate


@dataclass
class PartitionFlow:
    cluster: str | None
    group: str  # the consumer group, or `client <id>` for a client's own metrics
    topic: str
    partition: str
    source: str  # where the group's numbers came from: an exporter dialect or a client library
    lag: float | None = None  # records, at the last sample
    lag_points: list[tuple[float, float]] = field(default_factory=list)  # (time, records)
    rate_in: float | None = None  # records/s over the window
    rate_out: float | None = None
    slope: float | None = None  # the lag's records/s (in - out)
    trend: str = "unknown"  # diverging, stable, converging, caught-up, unknown (one snapshot)
    lag_time: LagTime | None = None
    lag_time_points: list[tuple[float, float]] = field(default_factory=list)  # (time, lower-bound seconds)
    in_points: list[tuple[float, float]] = field(
        default_factory=list
    )  # (time, records/s written since the sample before)
    out_points: list[tuple[float, float]] = field(default_factory=list)  # (time, records/s committed since then)
    drain_seconds: float | None = None  # None with a lag: not draining
    span: float | None = None  # seconds observed
    place: Location | MetricSample | None = None  # where the last group number was read
    written: str = ""  # that series as the input wrote it
    note: str = ""  # why a number is missing (no committed offset, ...)

    @property
    def draining(self) -> bool | None:
        """True: caught up or the lag falls; False: a lag that does not fall over the window; None:
        one snapshot, or no lag known — whether it drains cannot be known."""
        if self.lag is None:
            return None
        if self.drain_seconds is not None:
            return True
        return None if self.trend == "unknown" else False


@dataclass
class DiskFlow:
    node: str
    volume: str  # the mountpoint, or the persistent volume claim
    free: float  # bytes, at the last sample
    size: float | None
    slope: float | None  # bytes/s (negative: filling)
    fill_seconds: float | None  # None: not filling (or one snapshot)
    span: float | None
    place: Location | MetricSample
    written: str
    points: list[tuple[float, float]] = field(default_factory=list)


@dataclass
class TopicTraffic:
    topic: str
    cluster: str | None
    bytes_in: float  # bytes/s into the leaders, summed over the brokers
    replicas: int | None  # the topic's replication factor, where an offset exporter says it
    replication: float | None  # bytes/s the followers copy: bytes_in x (RF - 1)


@dataclass
class FlowView:
    partitions: list[PartitionFlow] = field(default_factory=list)
    disks: list[DiskFlow] = field(default_factory=list)
    traffic: list[TopicTraffic] = field(default_factory=list)
    # Zeebe's exporters, the same scissors: a row per (exporter, broker, partition), `group` the
    # exporter, `topic` the broker that reported it (its leader), in = committed, out = exported.
    exports: list[PartitionFlow] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.partitions or self.disks or self.traffic or self.exports)

    def exporters(self) -> dict[tuple[str | None, str, str], list[PartitionFlow]]:
        """Export rows by (cluster, exporter, broker)."""
        found: dict[tuple[str | None, str, str], list[PartitionFlow]] = defaultdict(list)
        for row in self.exports:
            found[(row.cluster, row.group, row.topic)].append(row)
        return dict(found)

    def groups(self) -> dict[tuple[str | None, str, str], list[PartitionFlow]]:
        """Partitions by (cluster, group, topic)."""
        found: dict[tuple[str | None, str, str], list[PartitionFlow]] = defaultdict(list)
        for row in self.partitions:
            found[(row.cluster, row.group, row.topic)].append(row)
        return dict(found)

    def to_dict(self) -> dict[str, Any]:
        return _finite({"groups": [_group_record(key, rows) for key, rows in self.groups().items()],
                        "disks": [_disk_record(d) for d in self.disks],
                        "traffic": [vars(t).copy() for t in self.traffic],
                        "exports": [_export_record(key, rows) for key, rows in self.exporters().items()]})  # fmt: skip


def _finite(value: Any) -> Any:
    """The record with every number that overflowed (hostile offsets near 1e308) as None: JSON has
    no Infinity, and a report must stay valid JSON."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_finite(item) for item in value]
    return value


# What the flow rules judge (a rule's `watch.metric`), and the series each is built from.
LAG_SECONDS = "flow/lag-seconds"
TIME_TO_RETENTION = "flow/time-to-retention"
DISK_FILL = "flow/disk-fill-seconds"
QUANTITIES: dict[str, tuple[str, tuple[vocabulary.Metric, ...], tuple[clients.ClientMetric, ...]]] = {
    LAG_SECONDS: ("a consumer group's lag in seconds on a topic (its partitions' largest)",
                  (vocabulary.GROUP_OFFSET, vocabulary.PARTITION_END_OFFSET, vocabulary.LOG_END_OFFSET),
                  (clients.COMMITTED_OFFSET, clients.PARTITION_END)),
    TIME_TO_RETENTION: ("how long until a group's oldest unread record is as old as the retention",
                        (vocabulary.GROUP_OFFSET, vocabulary.PARTITION_END_OFFSET, vocabulary.LOG_END_OFFSET),
                        (clients.COMMITTED_OFFSET, clients.PARTITION_END)),
    DISK_FILL: ("how long until a filesystem's free space runs out at its current fall", (vocabulary.FS_AVAILABLE,),
                ()),
}  # fmt: skip


# --- building the view -------------------------------------------------------------------------


def _first(series: Series, names: Sequence[str]) -> str | None:
    labels = dict(series.labels)
    return next((labels[name] for name in names if labels.get(name) not in (None, "")), None)


def _timed(points: Iterable[Point]) -> list[Point]:
    """Timed points in order, one per time (a later duplicate wins: two exporters' rules alike)."""
    by_time: dict[float, Point] = {}
    for point in points:
        if point.time is not None and math.isfinite(point.value):  # NaN, ±Inf: no offset, no size
            by_time[point.time] = point
    return [by_time[t] for t in sorted(by_time)]


def view(observations: Observations) -> FlowView:
    """The flow view of everything observed (cached on the observations: rules and report share it)."""
    cached = getattr(observations, "_flow", None)
    if cached is None:
        cached = FlowView(_partitions(observations), _disks(observations), _traffic(observations),
                          _exports(observations))  # fmt: skip
        observations._flow = cached  # type: ignore[attr-defined]
    return cached


def _ends(observations: Observations, read: set[tuple[str, str]]) -> dict[tuple[str | None, str, str], list[Point]]:
    """(cluster, topic, partition) → the end offset over time: an offset exporter's high watermark,
    else the broker replica furthest ahead (the leader's LogEndOffset) — of the (topic,
    partition)s `read` (a large scrape's other end offsets are left unmade)."""

    def wanted(labels: tuple[tuple[str, str], ...]) -> bool:
        named = dict(labels)
        topic = next((named[name] for name in TOPIC_LABELS if named.get(name)), None)
        partition = next((named[name] for name in PARTITION_LABELS if named.get(name)), None)
        return (topic, partition) in read

    ends: dict[tuple[str | None, str, str], list[Point]] = {}
    for metric in (vocabulary.LOG_END_OFFSET, vocabulary.PARTITION_END_OFFSET):  # the exporter's wins
        merged: dict[tuple[str | None, str, str], list[Point]] = defaultdict(list)
        for series in observations.of(metric.mbean, labels=wanted):
            topic, partition = _first(series, TOPIC_LABELS), _first(series, PARTITION_LABELS)
            if topic is None or partition is None:
                continue
            key = (series.cluster, topic, partition)
            points = _timed(series.points)
            if metric is vocabulary.LOG_END_OFFSET:  # one series per replica: keep the one furthest ahead
                if points and (not merged[key] or points[-1].value > merged[key][-1].value):
                    merged[key] = points
            else:
                merged[key] = _timed([*merged[key], *points])
        ends.update({key: points for key, points in merged.items() if points})
    return ends


def _end_for(ends: dict[tuple[str | None, str, str], list[Point]], cluster: str | None, topic: str,
             partition: str) -> list[Point]:  # fmt: skip
    if (cluster, topic, partition) in ends:
        return ends[(cluster, topic, partition)]
    matching = [points for (c, t, p), points in ends.items() if t == topic and p == partition]
    return matching[0] if len(matching) == 1 else []


def _partitions(observations: Observations) -> list[PartitionFlow]:
    rows: list[PartitionFlow] = []
    positions: dict[tuple[str | None, str, str, str], list[Point]] = defaultdict(list)
    lags: dict[tuple[str | None, str, str, str], list[Point]] = defaultdict(list)
    own_ends: dict[tuple[str | None, str, str, str], list[Point]] = defaultdict(list)
    written: dict[tuple[str | None, str, str, str], str] = {}
    sources: dict[tuple[str | None, str, str, str], str] = {}

    def take(series: Series, group: str, into: dict, source: str) -> None:  # type: ignore[type-arg]
        topic, partition = _first(series, TOPIC_LABELS), _first(series, PARTITION_LABELS)
        if topic is None or partition is None:
            return
        key = (series.cluster, group, topic, partition)
        into[key].extend(series.points)
        if into is not own_ends:
            written.setdefault(key, series.written)
            sources.setdefault(key, source)

    for metric, into in ((vocabulary.GROUP_OFFSET, positions), (vocabulary.GROUP_LAG, lags)):
        for series in observations.of(metric.mbean):
            group = _first(series, GROUP_LABELS)
            if group is not None:
                take(series, group, into, _dialect(series.written))
    for metric, into in ((clients.COMMITTED_OFFSET, positions), (clients.RECORDS_LAG, lags),
                         (clients.PARTITION_RECORDS_LAG, lags), (clients.PARTITION_END, own_ends)):  # fmt: skip
        for series in observations.of(metric.id):
            take(series, f"client {series.node}", into, series.library)

    read = {(key[2], key[3]) for key in {*positions, *lags}}
    ends = _ends(observations, read) if read else {}  # the ends of the partitions groups read
    for key in sorted({*positions, *lags}, key=lambda k: (k[0] or "", k[1], k[2], _number_order(k[3]))):
        cluster, group, topic, partition = key
        end = _timed(own_ends.get(key, [])) or _end_for(ends, cluster, topic, partition)
        row = PartitionFlow(cluster, group, topic, partition, sources[key], written=written[key])
        _fill(row, end, _timed(positions.get(key, [])), _timed(lags.get(key, [])))
        rows.append(row)
    return rows


def _exports(observations: Observations) -> list[PartitionFlow]:
    """Zeebe's export lag as the same flow: in = the partition's last committed position, out = an
    exporter's last exported position, both as the broker that runs the exporters (the partition's
    leader) reports them; the lag time is how long ago the oldest unexported record was committed."""
    committed: dict[tuple[str | None, str, str], list[Point]] = {}
    for series in observations.of(vocabulary.ZEEBE_COMMITTED.mbean):
        partition = _first(series, PARTITION_LABELS)
        if partition is not None:
            committed[(series.cluster, series.node, partition)] = _timed(series.points)
    rows = []
    for series in observations.of(vocabulary.ZEEBE_EXPORTED.mbean):
        partition = _first(series, PARTITION_LABELS)
        if partition is None:
            continue
        row = PartitionFlow(series.cluster, series.label("exporter") or "?", series.node, partition, "zeebe",
                            written=series.written)  # fmt: skip
        _fill(row, committed.get((series.cluster, series.node, partition), []), _timed(series.points), [])
        if row.note.startswith("no committed offset"):
            row.note = "no position exported yet (-1): the exporter has exported nothing on this partition"
        elif row.note.startswith("no lag known"):
            row.note = "no lag known: the partition's committed position is not beside the exported one"
        rows.append(row)
    return sorted(rows, key=lambda r: (r.cluster or "", r.group, r.topic, _number_order(r.partition)))


def _number_order(text: str) -> tuple[int, str]:
    return (int(text), "") if text.isdigit() else (1 << 62, text)


def _dialect(written: str) -> str:
    name = written.split("{", 1)[0]
    alias = vocabulary.ALIASES.get(name)
    if alias is None and name in vocabulary.DEFAULT_SERIES:  # the JMX exporter without rules
        return vocabulary.JMX_DEFAULT if name == name.lower() else vocabulary.JMX_DEFAULT_CASE
    return sorted(alias.dialects)[0] if alias else "metrics"


def _fill(row: PartitionFlow, end: list[Point], position: list[Point], given_lag: list[Point]) -> None:
    """Lag, rates, trend, lag seconds and drain ETA of one partition's group."""
    committed = [p for p in position if p.value >= 0]  # -1 (kafka_exporter), -1001 (librdkafka): none yet
    if position and not committed:
        row.note = "no committed offset: the group has not committed on this partition (a new group?)"
    if given_lag:
        lag = [(p.time, p.value, p.place) for p in given_lag if p.value >= 0]  # -1: unknown
    elif committed and end:
        lag = [(p.time, max(0.0, _at(end, p.time) - p.value), p.place) for p in committed if _at(end, p.time) >= 0]
    else:
        lag = []
    if not lag:
        if not row.note:
            row.note = "no lag known (no end offset beside the committed one)" if committed else "no lag known"
        last = committed or position or given_lag
        row.place = last[-1].place if last else None
        return
    row.lag_points = [(t, v) for t, v, _ in lag]  # type: ignore[misc]
    row.lag, row.place = lag[-1][1], lag[-1][2]
    row.span = lag[-1][0] - lag[0][0] if len(lag) > 1 else None  # type: ignore[operator]
    if len(end) > 1:
        row.rate_in = _rate(end)
        row.in_points = _steps(end)
    if len(committed) > 1:
        row.rate_out = _rate(committed)
        row.out_points = _steps(committed)
    if row.span:
        row.slope = slope(row.lag_points)
        change = row.slope * row.span
        largest = max(v for _, v in row.lag_points)
        tolerance = max(STABLE_RECORDS, STABLE_SHARE * largest)
        if largest == 0:
            row.trend = "caught-up"
        elif change > tolerance:
            row.trend = "diverging"
        elif change < -tolerance:
            row.trend = "converging"
        else:
            row.trend = "stable"
    if row.lag == 0:  # whatever came before, it has caught up now
        row.trend = "caught-up"
    if row.lag == 0:
        row.drain_seconds = 0.0
    elif row.trend == "converging" and row.slope and row.slope < 0:
        row.drain_seconds = row.lag / -row.slope
    if committed and end and (len(end) > 1 or row.lag == 0):  # one end offset says nothing of when records came
        row.lag_time_points = [(p.time, lag_seconds(end, p.value, p.time).seconds) for p in committed]  # type: ignore[misc, arg-type]
        row.lag_time = lag_seconds(end, committed[-1].value, committed[-1].time)  # type: ignore[arg-type]


def _steps(points: list[Point]) -> list[tuple[float, float]]:
    """Records/s between each sample and the one before it (a fall — a recreated topic — is no rate)."""
    return [(b.time, (b.value - a.value) / (b.time - a.time)) for a, b in pairwise(points)
            if a.time is not None and b.time is not None and b.time > a.time and b.value >= a.value]  # fmt: skip


def _at(points: list[Point], moment: float | None) -> float:
    """The end offset at `moment`: the last point at or before it (else the first)."""
    found = points[0].value
    for point in points:
        if moment is not None and point.time is not None and point.time > moment:
            break
        found = point.value
    return found


def _rate(points: list[Point]) -> float:
    """Records/s between the first and last point (an offset only grows; a fall is a new topic)."""
    start = max((i for i in range(1, len(points)) if points[i].value < points[i - 1].value), default=0)
    first, last = points[start], points[-1]
    elapsed = last.time - first.time  # type: ignore[operator]
    return (last.value - first.value) / elapsed if elapsed > 0 else 0.0


def slope(points: Sequence[tuple[float, float]]) -> float:
    """Least-squares records/s: committed offsets move in steps (auto-commit every 5 s), so the
    two ends alone would read a step as a trend."""
    count = len(points)
    mean_t = sum(t for t, _ in points) / count
    mean_v = sum(v for _, v in points) / count
    spread = sum((t - mean_t) ** 2 for t, _ in points)
    if spread == 0:
        return 0.0
    return sum((t - mean_t) * (v - mean_v) for t, v in points) / spread


def lag_seconds(end: list[Point], position: float, moment: float) -> LagTime:
    """How long before `moment` the record at `position` (the next to read) was written: the time
    the end offset passed it, interpolated between the samples around the crossing."""
    known = [p for p in end if p.time is not None and p.time <= moment + 1e-6] or end[:1]
    if position >= known[-1].value:
        return LagTime(0.0, "caught-up")
    after = next((i for i, p in enumerate(known) if p.value > position), None)
    if after is None:  # cannot happen: the last point is past the position
        return LagTime(0.0, "caught-up")
    if after == 0:  # written before the first sample: at least that old
        bound = moment - known[0].time  # type: ignore[operator]
        rate = _rate(known) if len(known) > 1 else 0.0
        estimate = bound + (known[0].value - position) / rate if rate > 0 else None
        return LagTime(max(0.0, bound), "at-least", estimate)
    left, right = known[after - 1], known[after]
    share = (position - left.value) / (right.value - left.value)
    written_at = left.time + share * (right.time - left.time)  # type: ignore[operator]
    return LagTime(max(0.0, moment - written_at), "interpolated")


def _disks(observations: Observations) -> list[DiskFlow]:
    sizes = {(s.node, s.labels): s for s in observations.of(vocabulary.FS_SIZE.mbean)}
    found = []
    for series in observations.of(vocabulary.FS_AVAILABLE.mbean):
        labels = dict(series.labels)
        if labels.get("fstype") in PSEUDO_FILESYSTEMS:
            continue
        points = _timed(series.points) or [p for p in series.points if math.isfinite(p.value)]
        if not points:
            continue
        volume = labels.get("mountpoint") or labels.get("persistentvolumeclaim") or labels.get("device") or "?"
        size_series = sizes.get((series.node, series.labels))
        size = size_series.points[-1].value if size_series and size_series.points else None
        pairs = [(p.time, p.value) for p in points if p.time is not None]
        fall = slope(pairs) if len(pairs) > 1 else None
        span = pairs[-1][0] - pairs[0][0] if len(pairs) > 1 else None
        free = points[-1].value
        fill = free / -fall if fall is not None and fall < 0 else None
        found.append(DiskFlow(series.node, volume, free, size, fall, fill, span, points[-1].place, series.written,
                              pairs))  # fmt: skip
    return sorted(found, key=lambda d: (d.fill_seconds if d.fill_seconds is not None else math.inf, d.node))


def _traffic(observations: Observations) -> list[TopicTraffic]:
    totals: dict[tuple[str | None, str], float] = defaultdict(float)
    for series in observations.of(vocabulary.BYTES_IN.mbean, "count", points=2):  # a rate needs two
        topic = series.label("topic")
        counted = windows.increase(series) if topic is not None else None  # restarts counted from zero
        if counted is not None and counted.observed and math.isfinite(counted.value):
            totals[(series.cluster, topic)] += counted.value / counted.observed  # type: ignore[index]
    replicas: dict[tuple[str | None, str], int] = {}
    for series in observations.of(vocabulary.PARTITION_REPLICAS.mbean):
        topic = _first(series, TOPIC_LABELS)
        if topic is not None and series.points:
            replicas[(series.cluster, topic)] = max(replicas.get((series.cluster, topic), 0),
                                                    int(series.points[-1].value))  # fmt: skip
    found = []
    for (cluster, topic), rate in sorted(totals.items(), key=lambda item: -item[1]):
        factor = replicas.get((cluster, topic)) or next((r for (c, t), r in replicas.items() if t == topic), None)
        found.append(TopicTraffic(topic, cluster, rate, factor, rate * (factor - 1) if factor else None))
    return found


# --- records for JSON and text -----------------------------------------------------------------


def _group_record(key: tuple[str | None, str, str], rows: list[PartitionFlow]) -> dict[str, Any]:
    cluster, group, topic = key
    lagged = [r for r in rows if r.lag is not None]
    times = [r.lag_time.seconds for r in rows if r.lag_time is not None]
    stuck = [r for r in lagged if r.draining is False]
    unknown = [r for r in rows if r.draining is None]
    drains = [r.drain_seconds for r in lagged if r.drain_seconds is not None]
    # One verdict the text and the JSON share: not draining where any partition's lag does not fall;
    # unknown where some cannot be told (one snapshot, no lag known); draining only where every one is.
    draining = False if stuck else None if unknown else True
    return {
        "cluster": cluster,
        "group": group,
        "topic": topic,
        "source": rows[0].source,
        "lag": sum(r.lag for r in lagged) if lagged else None,
        "lag_seconds_max": max(times) if times else None,
        "trend": _worst(r.trend for r in rows),
        "drain_seconds": max(drains) if draining and drains else None,
        "draining": draining,
        "draining_unknown": _why_unknown(unknown) if draining is None else None,
        "rate_in": _total(r.rate_in for r in rows),
        "rate_out": _total(r.rate_out for r in rows),
        "partitions": [_partition_record(r) for r in rows],
    }


def _export_record(key: tuple[str | None, str, str], rows: list[PartitionFlow]) -> dict[str, Any]:
    """An exporter on one broker, as a consumer group's record is made, named as Zeebe's."""
    record = _group_record(key, rows)
    record["exporter"], record["broker"] = record.pop("group"), record.pop("topic")
    return record


def _partition_record(row: PartitionFlow) -> dict[str, Any]:
    return {
        "partition": row.partition,
        "lag": row.lag,
        "lag_seconds": row.lag_time.seconds if row.lag_time else None,
        "lag_seconds_kind": row.lag_time.kind if row.lag_time else None,
        "lag_seconds_estimate": row.lag_time.estimate if row.lag_time else None,
        "rate_in": row.rate_in,
        "rate_out": row.rate_out,
        "trend": row.trend,
        "drain_seconds": row.drain_seconds,
        "span_seconds": row.span,
        "lag_series": [v for _, v in row.lag_points[-60:]],
        # Timed, for charts: (seconds since 1970, value), the last POINTS_KEPT of each.
        "lag_points": [list(p) for p in row.lag_points[-POINTS_KEPT:]],
        "lag_seconds_points": [list(p) for p in row.lag_time_points[-POINTS_KEPT:]],
        "in_points": [list(p) for p in row.in_points[-POINTS_KEPT:]],
        "out_points": [list(p) for p in row.out_points[-POINTS_KEPT:]],
        "series": row.written,
        "note": row.note or None,
    }


def _disk_record(disk: DiskFlow) -> dict[str, Any]:
    return {"node": disk.node, "volume": disk.volume, "free_bytes": disk.free, "size_bytes": disk.size,
            "bytes_per_second": disk.slope, "fill_seconds": disk.fill_seconds, "span_seconds": disk.span,
            "free_series": [v for _, v in disk.points[-60:]], "series": disk.written,
            "free_points": [list(p) for p in disk.points[-POINTS_KEPT:]]}  # fmt: skip


def _why_unknown(rows: list[PartitionFlow]) -> str:
    if any(r.lag is None for r in rows):
        return "no lag known on some partitions"
    return "one snapshot: a trend needs the lag at two times at least (scrape again, or give files saved apart)"


_TREND_ORDER = ("diverging", "stable", "converging", "caught-up", "unknown")


def _worst(trends: Iterable[str]) -> str:
    found = set(trends)
    return next((t for t in _TREND_ORDER if t in found), "unknown")


def _total(values: Iterable[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) if known else None
