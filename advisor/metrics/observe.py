"""Captures → Observations: each sample named by its metric, placed on its node's series.

Labels split three ways. Identity labels a Prometheus server or operator adds (`pod`,
`instance`, ...) name the node; cluster labels (`strimzi_io_cluster`, `kafka_cluster`,
`cluster`) name its cluster; the other infrastructure labels (`job`, `namespace`, ...) are
dropped; what remains are the metric's own labels (topic, partition, request, quantile, ...).
Without identity labels the node is where the samples came from: the file (files that show one
target scraped again are one node: targets.py), or the endpoint (repeated scrapes of one endpoint
are one node's series over time).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from advisor.metrics import columns, micrometer, targets, vocabulary
from advisor.metrics.clients import ClientSample
from advisor.metrics.exposition import Sample
from advisor.metrics.inputs import Capture
from advisor.metrics.jmxtool import BeanSample
from advisor.model.document import Problem
from advisor.model.observations import Observations, Point, Series, written_form
from advisor.model.provenance import Location, MetricSample
from advisor.named_tuple import NamedTuple

IDENTITY_LABELS = ("kubernetes_pod_name", "pod", "instance", "node_id", "broker_id")
CLUSTER_LABELS = ("strimzi_io_cluster", "kafka_cluster", "cluster", "cluster_name")  # cluster_name: kafka-lag-exporter
INFRASTRUCTURE_LABELS = frozenset(
    {*IDENTITY_LABELS, *CLUSTER_LABELS, "job", "namespace", "kubernetes_namespace", "container", "endpoint",
     "service", "prometheus", "prometheus_replica", "env", "environment", "region", "zone", "app", "release",
     "strimzi_io_kind", "strimzi_io_name", "strimzi_io_pod_name", "strimzi_io_broker_role",
     "strimzi_io_controller_role", "strimzi_io_pool_name", "strimzi_io_component_type", "node_ip", "node_name",
     "__name__", "_objectname"}
)  # fmt: skip


def wanted() -> frozenset[str]:
    """Every series name a rule may read, for the exposition reader's family filter."""
    names = frozenset(vocabulary.ALIASES) | vocabulary.DEFAULT_SERIES | frozenset(micrometer.NAMES)
    return names | {targets.START_TIME}  # which saved scrapes are one process


_written = written_form


class _Builder:
    """Series by key, and points onto them; a second untimed point of one series is a problem."""

    def __init__(self) -> None:
        self.observations = Observations()
        self.problems: list[Problem] = []
        self.index: dict[tuple, Series] = {}  # type: ignore[type-arg]
        self.untimed: dict[tuple, tuple[int, float]] = {}  # type: ignore[type-arg]  # key → (capture, value)
        self.furthest: dict[tuple, int] = {}  # type: ignore[type-arg]  # (key, time) → its point's index
        self.nodes: dict[int, str] = {}  # capture number → node: label-less files of one target (targets.py)
        self.plans: dict[tuple[str, tuple[str, ...]], object] = {}  # (name, label names) → _Plan, _SKIP or None
        self.files: list[bool] = []  # each input: a file (its samples' places are lines) or a scrape
        self.columns = columns.Columns(self.index, self.observations.origins, self.files)

    def series(self, key: tuple, make: Callable[[], Series]) -> Series:  # type: ignore[type-arg]
        found = self.index.get(key)
        if found is None:
            found = self.index[key] = make()
            self.observations.series.append(found)
        return found

    def point(self, key: tuple, series: Series, point: Point, origin: str, line: int, capture: int,  # type: ignore[type-arg]
              stamped: bool) -> None:  # fmt: skip
        """`stamped`: the sample carries its own time; else it has its input's (a file's
        modification time, a scrape's) or none, and a second one in the same input is ambiguous."""
        if not stamped:
            seen = self.untimed.get(key)
            if seen == (capture, point.value):
                return  # one scrape writing one series twice alike (an exporter's two rules): one sample
            if seen is not None and (seen[0] == capture or point.time is None):
                message = f"{series.written} of {series.node} appears again without a time: which is newer is unknown"
                self.problems.append(Problem(origin, line, message))
                return
            self.untimed[key] = (capture, point.value)
        series.points.append(point)


def observe(captures: Iterable[Capture]) -> tuple[Observations, list[Problem]]:
    built = _Builder()
    captures = list(captures)
    built.nodes, built.observations.notes = targets.nodes(captures, IDENTITY_LABELS)
    for number, capture in enumerate(captures):
        built.observations.origins.append(capture.origin)
        built.files.append(capture.is_file)
        exposed = []
        for sample in capture.samples:
            if isinstance(sample, ClientSample):
                _client(sample, capture, built, number)
            elif isinstance(sample, BeanSample):
                _bean(sample, capture, built, number)
            else:
                _broker(sample, capture, built, number)
                if sample.name in micrometer.NAMES:
                    exposed.append(sample)
        for client_sample in micrometer.client_samples(exposed):  # Java clients' meters in a scrape
            _client(client_sample, capture, built, number)
    for series in built.observations.series:
        if len(series.points) > 1:
            series.points.sort(key=lambda point: -1.0 if point.time is None else point.time)
    if built.columns.metrics:
        built.observations.columns = built.columns
    return built.observations, built.problems


class _Plan(NamedTuple):
    """How the samples of one series name with one list of label names are observed — the same
    for each of them, so worked out once: a large cluster's scrape is hundreds of thousands of
    samples of a few such shapes."""

    metric: vocabulary.Metric
    reading: str
    identity: tuple[int, ...]  # the identity labels' positions, in IDENTITY_LABELS' order
    cluster: tuple[int, ...]  # the cluster labels' positions, in CLUSTER_LABELS' order
    own: tuple[tuple[str, int, str], ...]  # (name, position or -1, the implied value), sorted by name
    as_written: bool  # every own label is written under its own name: the samples' pairs are kept as they are


_SKIP = object()  # a name no rule reads, in any dialect


def _plan(name: str, names: tuple[str, ...]) -> _Plan | object | None:
    """The plan for a shape; _SKIP for a name nothing reads; None when a sample's values decide
    (the exporter's default format names the metric in a label, a count-or-rate by its size,
    exporter 1.x's `_objectname`): those go the general way."""
    alias = vocabulary.ALIASES.get(name)
    if alias is None:
        return None if name in vocabulary.DEFAULT_SERIES else _SKIP
    lowered = {key.lower(): at for at, key in enumerate(names)}  # a repeated name: the last wins, as in a dict
    implied = dict(vocabulary.IMPLIED.get(name, ()))
    if "_objectname" in lowered or alias.reading == vocabulary.Reading.COUNT_OR_RATE:
        return None
    if implied.keys() & {*IDENTITY_LABELS, *CLUSTER_LABELS}:
        return None
    reading = alias.reading
    if reading == vocabulary.Reading.QUANTILE and "quantile" not in lowered:
        reading = vocabulary.Reading.COUNT
    merged = {**{key: -1 for key in implied}, **lowered}
    own = tuple(sorted((key, at, implied.get(key, "")) for key, at in merged.items()
                       if key not in INFRASTRUCTURE_LABELS))  # fmt: skip
    identity = tuple(lowered[key] for key in IDENTITY_LABELS if key in lowered)
    cluster = tuple(lowered[key] for key in CLUSTER_LABELS if key in lowered)
    as_written = all(at >= 0 and names[at] == key for key, at, _ in own)
    return _Plan(alias.metric, reading, identity, cluster, own, as_written)


def _broker(sample: Sample, capture: Capture, built: _Builder, number: int) -> None:
    """An exporter's sample onto its node's series, named by the vocabulary (others are passed over)."""
    shape = (sample.name, tuple([key for key, _ in sample.labels]))
    plan = built.plans.get(shape, _UNPLANNED)
    if plan is _UNPLANNED:
        plan = built.plans[shape] = _plan(*shape)
    if not isinstance(plan, _Plan):
        if plan is None:
            _broker_by_values(sample, capture, built, number)
        return  # _SKIP: a name nothing reads
    values = [value for _, value in sample.labels]
    cluster = next((values[at] for at in plan.cluster if values[at]), None)
    if plan.as_written:  # the parser's shared pairs, not new ones a sample
        labels = sample.labels
        own = tuple([labels[at] for _, at, _ in plan.own])
    else:
        own = tuple([(key, values[at] if at >= 0 else implied) for key, at, implied in plan.own])
    metric, reading = plan.metric, plan.reading
    if metric is vocabulary.LOG_END_OFFSET:
        _furthest(sample, capture, built, number, metric, reading, cluster, own)
        return
    node = next((values[at] for at in plan.identity if values[at]), None)
    _place(sample, capture, built, number, (metric.mbean, reading, node or built.nodes.get(number, capture.origin),
                                            cluster, own), metric)  # fmt: skip


_UNPLANNED = object()


def _broker_by_values(sample: Sample, capture: Capture, built: _Builder, number: int) -> None:
    """A sample whose label values decide what it is (see _plan)."""
    labels = {key.lower(): value for key, value in sample.labels}
    resolved = vocabulary.resolve(sample.name, labels, sample.value)
    if resolved is None:  # the JMX exporter without rules names a metric by its bean's `name` key
        default = vocabulary.resolve_default(sample.name, labels)
        if default is None:
            return
        resolved, labels = default[:2], default[2]
    if sample.name in vocabulary.IMPLIED:
        labels = {**dict(vocabulary.IMPLIED[sample.name]), **labels}
    metric, reading = resolved
    cluster = next((labels[key] for key in CLUSTER_LABELS if labels.get(key)), None)
    own = tuple(sorted((k, v) for k, v in labels.items() if k not in INFRASTRUCTURE_LABELS))
    if metric is vocabulary.LOG_END_OFFSET:
        _furthest(sample, capture, built, number, metric, reading, cluster, own)
        return
    node = next((labels[key] for key in IDENTITY_LABELS if labels.get(key)), None)
    node = node or built.nodes.get(number, capture.origin)
    _place(sample, capture, built, number, (metric.mbean, reading, node, cluster, own), metric)


SeriesKey = columns.Key


def _place(sample: Sample, capture: Capture, built: _Builder, number: int, key: SeriesKey,
           metric: vocabulary.Metric) -> None:  # fmt: skip
    """The sample as a point of its series (made on first use; a high-cardinality metric's untimed
    sample kept in its column until its series is asked for)."""
    if sample.timestamp_ms is None and key[0] in columns.METRICS:
        shown = None if capture.is_file else (sample.name, sample.labels)
        problem = built.columns.add(key, (sample.name, sample.labels), capture.time, sample.value, number, sample.line,
                                    shown, capture.origin)  # fmt: skip
        if problem is not None:
            built.problems.append(problem)
        return
    series = built.index.get(key)
    if series is None:
        if key[0] in columns.METRICS:  # a timed sample of a column's metric (columns.make keeps the order)
            built.columns.timed_first[key] = (number, sample.line)
        written = (sample.name, sample.labels)  # joined when shown
        series = built.series(key, lambda: Series(metric.mbean, key[1], key[2], key[3], key[4], written,
                                                  metric.count_scale))  # fmt: skip
    when = _when(sample, capture)
    place = _exposed_place(sample, capture, when)
    stamped = sample.timestamp_ms is not None
    built.point(key, series, Point(when, sample.value, place), capture.origin, sample.line, number, stamped)


def _when(sample: Sample | ClientSample | BeanSample, capture: Capture) -> float | None:
    """The sample's own time, else its input's (a file's modification time, a scrape's), if any."""
    return sample.timestamp_ms / 1000 if sample.timestamp_ms is not None else capture.time


def _exposed_place(sample: Sample, capture: Capture, when: float | None) -> Location | MetricSample:
    """Where an exporter's sample was read: a file's line, or the series as a scrape wrote it."""
    if capture.is_file:
        return Location(capture.origin, sample.line)
    return MetricSample(capture.origin, _written(sample.name, sample.labels), when)


FURTHEST = columns.FURTHEST


def _furthest(sample: Sample, capture: Capture, built: _Builder, number: int, metric: vocabulary.Metric,
              reading: str, cluster: str | None, own: tuple[tuple[str, str], ...]) -> None:  # fmt: skip
    """A replica's log end offset, kept as its partition's: at each time the replica furthest ahead
    (what the flow view reads as the partition's end), not a series per broker — a large cluster
    has hundreds of thousands of replicas, and no rule asks which broker holds which."""
    key = (metric.mbean, reading, FURTHEST, cluster, own)
    if sample.timestamp_ms is None and metric.mbean in columns.METRICS:  # untimed: kept in its column
        shown = None if capture.is_file else (sample.name, sample.labels)
        built.columns.furthest(key, (sample.name, sample.labels), capture.time, sample.value, number, sample.line,
                               shown)  # fmt: skip
        return
    series = built.index.get(key)
    if series is None:
        if metric.mbean in columns.METRICS:
            built.columns.timed_first[key] = (number, sample.line)
        series = built.series(key, lambda: Series(metric.mbean, reading, FURTHEST, cluster, own,
                                                  (sample.name, sample.labels), metric.count_scale))  # fmt: skip
    when = _when(sample, capture)
    at = built.furthest.get((key, when))
    if at is not None:  # another replica at the same time: the furthest stays (its place made only then)
        if sample.value > series.points[at].value:
            series.points[at] = Point(when, sample.value, _exposed_place(sample, capture, when))
        return
    built.furthest[(key, when)] = len(series.points)
    series.points.append(Point(when, sample.value, _exposed_place(sample, capture, when)))


def _client(sample: ClientSample, capture: Capture, built: _Builder, number: int) -> None:
    """A client's sample onto its series: the node is the client, the role its component."""
    metric = sample.metric
    key = (metric.id, metric.reading, sample.client, None, sample.labels)
    role, library = metric.role, sample.library
    series = built.series(key, lambda: Series(metric.id, metric.reading, sample.client, None, sample.labels,
                                              sample.written, component=role, library=library))  # fmt: skip
    place = Location(capture.origin, sample.line)
    stamped = sample.timestamp_ms is not None
    built.point(key, series, Point(_when(sample, capture), sample.value, place), capture.origin, sample.line, number,
                stamped)  # fmt: skip


def _bean(sample: BeanSample, capture: Capture, built: _Builder, number: int) -> None:
    """A JmxTool sample: named by its MBean already; the dump reads one JVM, the file is the node."""
    metric, reading, node = sample.metric, sample.reading, capture.origin
    key = (metric.mbean, reading, node, None, sample.labels)
    series = built.series(key, lambda: Series(metric.mbean, reading, node, None, sample.labels, sample.written,
                                              metric.count_scale))  # fmt: skip
    place = Location(capture.origin, sample.line)
    stamped = sample.timestamp_ms is not None
    built.point(key, series, Point(_when(sample, capture), sample.value, place), capture.origin, sample.line, number,
                stamped)  # fmt: skip
