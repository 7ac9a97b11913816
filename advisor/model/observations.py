"""What was measured: series of points, per node, per metric (data only).

A node is one broker or controller as the input tells them apart: an endpoint scraped, a
file, or the identity labels a Prometheus server adds (`instance`, `pod`, ...). Its cluster
is what the input's cluster labels say, else the run's one unnamed cluster. A series holds
one metric's points for one node and one set of metric labels (topic, request, quantile...),
in time order; a point without a time comes from a single snapshot.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

from advisor.model.document import Problem
from advisor.model.provenance import Location, MetricSample
from advisor.named_tuple import NamedTuple


class Point(NamedTuple):
    time: float | None  # seconds since the epoch; None: a snapshot without a time
    value: float
    place: Location | MetricSample  # the sample's line in a file, or the scrape it came from


def written_form(name: str, labels: Iterable[tuple[str, str]]) -> str:
    """A series as exposition writes it: `name{key="value",...}`."""
    shown = ",".join(f'{key}="{value}"' for key, value in labels)
    return f"{name}{{{shown}}}" if shown else name


@dataclass(eq=False, slots=True)
class Series:
    metric: str  # the MBean (advisor/metrics/vocabulary.py)
    reading: str  # vocabulary.Reading: value, count, rate, lifetime, quantile
    node: str  # the node's display name
    cluster: str | None  # from the input's cluster labels; None: the run's one cluster
    labels: tuple[tuple[str, str], ...]  # metric labels (topic, request, quantile, ...), sorted
    # The series as the input wrote it (name and labels), for `keys`: the text, or (name, labels as
    # written) joined when asked — a large scrape's hundreds of thousands of series are seldom shown.
    as_written: str | tuple[str, tuple[tuple[str, str], ...]]
    scale: float = 1.0  # multiply a count's rate by this (idle meters count nanoseconds)
    points: list[Point] = field(default_factory=list)
    component: str = "broker"  # broker, or the client role: producer, consumer
    library: str = ""  # a client's library: java, librdkafka, kafka-python

    @property
    def written(self) -> str:
        return self.as_written if isinstance(self.as_written, str) else written_form(*self.as_written)

    @property
    def name(self) -> str:
        """The series name as written, without its labels."""
        return self.as_written.partition("{")[0] if isinstance(self.as_written, str) else self.as_written[0]

    def label(self, name: str) -> str | None:
        return dict(self.labels).get(name)


Labels = tuple[tuple[str, str], ...]


class Pending(Protocol):
    """Series not made yet (advisor/metrics/columns.py)."""

    metrics: set[str]  # the metrics some of whose series are not made

    def make(self, observations: Observations, metric: str, points: int,
             labels: Callable[[Labels], bool] | None = None) -> None: ...  # fmt: skip

    # unmade series: their name, the inputs they came from, how many
    def inputs(self) -> Iterator[tuple[str, set[str], int]]: ...


@dataclass(eq=False)
class Observations:
    series: list[Series] = field(default_factory=list)
    origins: list[str] = field(default_factory=list)  # files and endpoints read, in order
    notes: list[Problem] = field(default_factory=list)  # how inputs were read that a reader should know
    # Series not made yet: the observer keeps a large scrape's untimed samples of its high-cardinality
    # metrics in columns (advisor/metrics/columns.py) and makes a metric's series when they are asked for.
    columns: Pending | None = None

    def every(self) -> list[Series]:
        """Every series, those kept in columns made too (what a whole listing needs; a rule asks `of`)."""
        if self.columns is not None:
            for metric in sorted(self.columns.metrics):
                self.of(metric)
        return self.series

    def of(
        self, metric: str, reading: str | None = None, points: int = 1, labels: Callable[[Labels], bool] | None = None
    ) -> list[Series]:
        """The series of one metric (of one reading), in the order observed. Indexed by metric on
        first use, again when series were added since: a large cluster's scrape holds hundreds of
        thousands of series, and every rule asks for its own. `points`: series of fewer points may
        be left unmade (a rate needs two); `labels`: series whose labels it refuses may be left
        unmade (the end offsets of partitions no group reads)."""
        if self.columns is not None and metric in self.columns.metrics:
            self.columns.make(self, metric, points, labels)
        index = self.__dict__.get("_by_metric")
        if index is None or index[0] != len(self.series):
            by_metric: dict[str, list[Series]] = {}
            for series in self.series:
                by_metric.setdefault(series.metric, []).append(series)
            index = self.__dict__["_by_metric"] = (len(self.series), by_metric)
        found = index[1].get(metric, [])
        return [s for s in found if s.reading == reading] if reading is not None else list(found)
