"""How an exporter's series shape is observed: which labels name the node, which the cluster, which
are the metric's own, and what metric and reading a name stands for — worked out once for a name
with its label names (a large cluster's scrape is hundreds of thousands of samples of a few such
shapes), for the observer (observe.py) and the columns the reader fills (columns.py).

Labels split three ways. Identity labels a Prometheus server or operator adds (`pod`,
`instance`, ...) name the node; cluster labels (`strimzi_io_cluster`, `kafka_cluster`,
`cluster`) name its cluster; the other infrastructure labels (`job`, `namespace`, ...) are
dropped; what remains are the metric's own labels (topic, partition, request, quantile, ...).
"""

from __future__ import annotations

from advisor.metrics import vocabulary
from advisor.named_tuple import NamedTuple

IDENTITY = ("kubernetes_pod_name", "pod", "instance", "node_id", "broker_id")
CLUSTER = ("strimzi_io_cluster", "kafka_cluster", "cluster", "cluster_name")  # cluster_name: kafka-lag-exporter
INFRASTRUCTURE = frozenset(
    {*IDENTITY, *CLUSTER, "job", "namespace", "kubernetes_namespace", "container", "endpoint",
     "service", "prometheus", "prometheus_replica", "env", "environment", "region", "zone", "app", "release",
     "strimzi_io_kind", "strimzi_io_name", "strimzi_io_pod_name", "strimzi_io_broker_role",
     "strimzi_io_controller_role", "strimzi_io_pool_name", "strimzi_io_component_type", "node_ip", "node_name",
     "__name__", "_objectname"}
)  # fmt: skip


class Plan(NamedTuple):
    """How the samples of one series name with one list of label names are observed — the same
    for each of them, so worked out once: a large cluster's scrape is hundreds of thousands of
    samples of a few such shapes."""

    metric: vocabulary.Metric
    reading: str
    identity: tuple[int, ...]  # the identity labels' positions, in IDENTITY's order
    cluster: tuple[int, ...]  # the cluster labels' positions, in CLUSTER's order
    own: tuple[tuple[str, int, str], ...]  # (name, position or -1, the implied value), sorted by name
    as_written: bool  # every own label is written under its own name: the samples' pairs are kept as they are


SKIP = object()  # a name no rule reads, in any dialect


def plan(name: str, names: tuple[str, ...]) -> Plan | object | None:
    """The plan for a shape; SKIP for a name nothing reads; None when a sample's values decide
    (the exporter's default format names the metric in a label, a count-or-rate by its size,
    exporter 1.x's `_objectname`): those go the general way."""
    alias = vocabulary.ALIASES.get(name)
    if alias is None:
        return None if name in vocabulary.DEFAULT_SERIES else SKIP
    lowered = {key.lower(): at for at, key in enumerate(names)}  # a repeated name: the last wins, as in a dict
    implied = dict(vocabulary.IMPLIED.get(name, ()))
    if "_objectname" in lowered or alias.reading == vocabulary.Reading.COUNT_OR_RATE:
        return None
    if implied.keys() & {*IDENTITY, *CLUSTER}:
        return None
    reading = alias.reading
    if reading == vocabulary.Reading.QUANTILE and "quantile" not in lowered:
        reading = vocabulary.Reading.COUNT
    merged = {**{key: -1 for key in implied}, **lowered}
    own = tuple(sorted((key, at, implied.get(key, "")) for key, at in merged.items()
                       if key not in INFRASTRUCTURE))  # fmt: skip
    identity = tuple(lowered[key] for key in IDENTITY if key in lowered)
    cluster = tuple(lowered[key] for key in CLUSTER if key in lowered)
    as_written = all(at >= 0 and names[at] == key for key, at, _ in own)
    return Plan(alias.metric, reading, identity, cluster, own, as_written)
