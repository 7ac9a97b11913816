"""Captures → Observations: each sample named by its metric, placed on its node's series.

Labels split three ways. Identity labels a Prometheus server or operator adds (`pod`,
`instance`, ...) name the node; cluster labels (`strimzi_io_cluster`, `kafka_cluster`,
`cluster`) name its cluster; the other infrastructure labels (`job`, `namespace`, ...) are
dropped; what remains are the metric's own labels (topic, partition, request, quantile, ...).
Without identity labels the node is where the samples came from: the file, or the endpoint
(repeated scrapes of one endpoint are one node's series over time).
"""

from __future__ import annotations

from collections.abc import Iterable

from advisor.metrics import vocabulary
from advisor.metrics.inputs import Capture
from advisor.model.document import Problem
from advisor.model.observations import Observations, Point, Series
from advisor.model.provenance import Location, MetricSample

IDENTITY_LABELS = ("kubernetes_pod_name", "pod", "instance", "node_id", "broker_id")
CLUSTER_LABELS = ("strimzi_io_cluster", "kafka_cluster", "cluster")
INFRASTRUCTURE_LABELS = frozenset(
    {*IDENTITY_LABELS, *CLUSTER_LABELS, "job", "namespace", "kubernetes_namespace", "container", "endpoint",
     "service", "prometheus", "prometheus_replica", "env", "environment", "region", "zone", "app", "release",
     "strimzi_io_kind", "strimzi_io_name", "strimzi_io_pod_name", "strimzi_io_broker_role",
     "strimzi_io_controller_role", "strimzi_io_pool_name", "strimzi_io_component_type", "node_ip", "node_name",
     "__name__", "_objectname"}
)  # fmt: skip


def wanted() -> frozenset[str]:
    """Every series name a rule may read, for the exposition reader's family filter."""
    return frozenset(vocabulary.ALIASES)


def _written(name: str, labels: Iterable[tuple[str, str]]) -> str:
    shown = ",".join(f'{key}="{value}"' for key, value in labels)
    return f"{name}{{{shown}}}" if shown else name


def observe(captures: Iterable[Capture]) -> tuple[Observations, list[Problem]]:
    observations = Observations()
    problems: list[Problem] = []
    index: dict[tuple, Series] = {}
    untimed: set[tuple] = set()  # series that already have a point without a time
    for capture in captures:
        observations.origins.append(capture.origin)
        for sample in capture.samples:
            labels = {key.lower(): value for key, value in sample.labels}
            resolved = vocabulary.resolve(sample.name, labels, sample.value)
            if resolved is None:
                continue
            if sample.name in vocabulary.IMPLIED:
                labels = {**dict(vocabulary.IMPLIED[sample.name]), **labels}
            metric, reading = resolved
            node = next((labels[key] for key in IDENTITY_LABELS if labels.get(key)), capture.origin)
            cluster = next((labels[key] for key in CLUSTER_LABELS if labels.get(key)), None)
            own = tuple(sorted((k, v) for k, v in labels.items() if k not in INFRASTRUCTURE_LABELS))
            key = (metric.mbean, reading, node, cluster, own)
            series = index.get(key)
            if series is None:
                written = _written(sample.name, sample.labels)
                series = Series(metric.mbean, reading, node, cluster, own, written, metric.count_scale)
                index[key] = series
                observations.series.append(series)
            when = sample.timestamp_ms / 1000 if sample.timestamp_ms is not None else capture.time
            if capture.is_file:
                place: Location | MetricSample = Location(capture.origin, sample.line)
            else:
                place = MetricSample(capture.origin, series.written, when)
            if when is None:
                if key in untimed:
                    message = f"{series.written} appears again without a timestamp: which sample is newer is unknown"
                    problems.append(Problem(capture.origin, sample.line, message))
                    continue
                untimed.add(key)
            series.points.append(Point(when, sample.value, place))
    for series in observations.series:
        if len(series.points) > 1:
            series.points.sort(key=lambda point: -1.0 if point.time is None else point.time)
    return observations, problems
