"""What was measured: series of points, per node, per metric (data only).

A node is one broker or controller as the input tells them apart: an endpoint scraped, a
file, or the identity labels a Prometheus server adds (`instance`, `pod`, ...). Its cluster
is what the input's cluster labels say, else the run's one unnamed cluster. A series holds
one metric's points for one node and one set of metric labels (topic, request, quantile...),
in time order; a point without a time comes from a single snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from advisor.model.provenance import Location, MetricSample
from advisor.named_tuple import NamedTuple


class Point(NamedTuple):
    time: float | None  # seconds since the epoch; None: a snapshot without a time
    value: float
    place: Location | MetricSample  # the sample's line in a file, or the scrape it came from


@dataclass(eq=False)
class Series:
    metric: str  # the MBean (advisor/metrics/vocabulary.py)
    reading: str  # vocabulary.Reading: value, count, rate, lifetime, quantile
    node: str  # the node's display name
    cluster: str | None  # from the input's cluster labels; None: the run's one cluster
    labels: tuple[tuple[str, str], ...]  # metric labels (topic, request, quantile, ...), sorted
    written: str  # the series as the input wrote it (name and labels), for `keys`
    scale: float = 1.0  # multiply a count's rate by this (idle meters count nanoseconds)
    points: list[Point] = field(default_factory=list)
    component: str = "broker"  # broker, or the client role: producer, consumer
    library: str = ""  # a client's library: java, librdkafka, kafka-python

    def label(self, name: str) -> str | None:
        return dict(self.labels).get(name)


@dataclass(eq=False)
class Observations:
    series: list[Series] = field(default_factory=list)
    origins: list[str] = field(default_factory=list)  # files and endpoints read, in order

    def of(self, metric: str, reading: str | None = None) -> list[Series]:
        return [s for s in self.series if s.metric == metric and (reading is None or s.reading == reading)]
