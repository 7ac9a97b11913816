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

from advisor.metrics import columns, micrometer, shapes, targets, vocabulary
from advisor.metrics.clients import ClientSample
from advisor.metrics.exposition import Sample
from advisor.metrics.inputs import Capture
from advisor.metrics.jmxtool import BeanSample
from advisor.model.document import Problem
from advisor.model.observations import Observations, Point, Series, written_form
from advisor.model.provenance import Location, MetricSample

IDENTITY_LABELS, CLUSTER_LABELS, INFRASTRUCTURE_LABELS = shapes.IDENTITY, shapes.CLUSTER, shapes.INFRASTRUCTURE
_Plan, _plan = shapes.Plan, shapes.plan


def wanted() -> frozenset[str]:
    """Every series name a rule may read, for the exposition reader's family filter."""
    names = frozenset(vocabulary.ALIASES) | vocabulary.DEFAULT_SERIES | frozenset(micrometer.NAMES)
    return names | {targets.START_TIME}  # which saved scrapes are one process


class _Builder:
    """Series by key, and points onto them; a second untimed point of one series is a problem."""

    def __init__(self) -> None:
        self.observations = Observations()
        self.problems: list[Problem] = []
        self.index: dict[tuple, Series] = {}  # type: ignore[type-arg]
        self.untimed: dict[tuple, tuple[int, float]] = {}  # type: ignore[type-arg]  # key → (capture, value)
        self.furthest: dict[tuple, int] = {}  # type: ignore[type-arg]  # (key, time) → its point's index
        self.nodes: dict[int, str] = {}  # capture number → node: label-less files of one target (targets.py)
        self.plans: dict[tuple[str, tuple[str, ...]], object] = {}  # (name, label names) → a Plan, shapes.SKIP or None
        self.files: list[bool] = []  # each input: a file (its samples' places are lines) or a scrape
        self.columns = columns.Columns(
            self.index,
            self.observations.origins,
            self.files,
            lambda number: self.nodes.get(number, self.observations.origins[number]),
        )
        self.gathered = columns.Gathered()  # the input being observed: its untimed samples of the column metrics

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
        built.gathered = capture.gathered or columns.Gathered()  # what the reader took, and what is taken here
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
        built.problems += built.columns.add(number, capture.time, built.gathered)
    for series in built.observations.series:
        if len(series.points) > 1:
            series.points.sort(key=lambda point: -1.0 if point.time is None else point.time)
    if built.columns.metrics:
        built.observations.columns = built.columns
    return built.observations, built.problems


def _broker(sample: Sample, capture: Capture, built: _Builder, number: int) -> None:
    """An exporter's sample onto its node's series, named by the vocabulary (others are passed over)."""
    shape = (sample.name, tuple([key for key, _ in sample.labels]))
    plan = built.plans.get(shape, _UNPLANNED)
    if plan is _UNPLANNED:
        plan = built.plans[shape] = _plan(*shape)
    if not isinstance(plan, _Plan):
        if plan is None:
            _broker_by_values(sample, capture, built, number)
        return  # shapes.SKIP: a name nothing reads
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
    _place(sample, capture, built, number, (metric.mbean, reading, node, cluster, own), metric)


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
    _place(sample, capture, built, number, (metric.mbean, reading, node, cluster, own), metric)


def _place(sample: Sample, capture: Capture, built: _Builder, number: int, key: columns.Key,
           metric: vocabulary.Metric) -> None:  # fmt: skip
    """The sample as a point of its series (made on first use; a high-cardinality metric's untimed
    sample kept in its column until its series is asked for). The key's node is None where no
    identity label names it: the input's (or the target's it was found to be: targets.py)."""
    if sample.timestamp_ms is None and key[0] in columns.METRICS:
        built.gathered.latest(key, sample.value, sample.line, (sample.name, sample.labels))
        return
    node = key[2] or built.nodes.get(number, capture.origin)
    key = (key[0], key[1], node, key[3], key[4])
    series = built.index.get(key)
    if series is None:
        if key[0] in columns.METRICS:  # a timed sample of a column's metric (columns.make keeps the order)
            built.columns.timed_first[key] = (number, sample.line)
        written = (sample.name, sample.labels)  # joined when shown
        series = built.series(key, lambda: Series(metric.mbean, key[1], node, key[3], key[4], written,
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
    return MetricSample(capture.origin, written_form(sample.name, sample.labels), when)


FURTHEST = columns.FURTHEST


def _furthest(sample: Sample, capture: Capture, built: _Builder, number: int, metric: vocabulary.Metric,
              reading: str, cluster: str | None, own: tuple[tuple[str, str], ...]) -> None:  # fmt: skip
    """A replica's log end offset, kept as its partition's: at each time the replica furthest ahead
    (what the flow view reads as the partition's end), not a series per broker — a large cluster
    has hundreds of thousands of replicas, and no rule asks which broker holds which."""
    key = (metric.mbean, reading, FURTHEST, cluster, own)
    if sample.timestamp_ms is None and metric.mbean in columns.METRICS:  # untimed: kept in its column
        built.gathered.furthest(key, sample.value, sample.line, (sample.name, sample.labels))
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
