"""A large scrape's high-cardinality metrics kept as columns until a series is asked for.

A large cluster's scrape holds a log end offset per replica and the per-topic meters of every
broker: hundreds of thousands of series, each a few hundred bytes and a few microseconds to make,
which no rule reads and the flow view reads only for the partitions a consumer group reads (an
end offset) or only with two scrapes or more (a rate). Their untimed samples — what a scrape
saved with curl, or an endpoint, gives — are kept here by series key, each with its time, value,
input and line; `Observations.of` makes a metric's series when asked (the same series the
observer would have made: tests/metrics/test_columns.py holds the two ways equal).
"""

from __future__ import annotations

from collections.abc import Iterator

from advisor.metrics import vocabulary
from advisor.model.document import Problem
from advisor.model.observations import Observations, Point, Series, written_form
from advisor.model.provenance import Location, MetricSample

# The metrics kept as columns: a partition's end offset (a replica's, kept as the furthest) and a
# topic's meters of each broker.
METRICS = frozenset({vocabulary.LOG_END_OFFSET.mbean, vocabulary.BYTES_IN.mbean, vocabulary.MESSAGES_IN.mbean})

Labels = tuple[tuple[str, str], ...]
Key = tuple[str, str, str, "str | None", Labels]  # the observer's series key: metric, reading, node, cluster, labels
Written = tuple[str, Labels]  # a sample's name and labels as written


class Columns:
    """Untimed samples of METRICS by series key: [(the first sample's (name, labels), its (input,
    line)), entries...]."""

    def __init__(self, index: dict[Key, Series], origins: list[str], files: list[bool]) -> None:
        self.by_metric: dict[str, dict[Key, list]] = {}  # type: ignore[type-arg]
        self.metrics: set[str] = set()
        self.index = index  # the observer's series by key: a series made from timed samples is added to
        self.origins, self.files = origins, files
        self.timed_first: dict[Key, tuple[int, int]] = {}  # such a series: its first sample's (input, line)

    def furthest(self, key: Key, written: Written, when: float | None, value: float, number: int, line: int,
                 shown: Written | None) -> None:  # fmt: skip
        """A replica's end offset: at each time the furthest replica's (observe._furthest)."""
        column = self._column(key[0])
        entries = column.get(key)
        if entries is None:
            column[key] = [(written, (number, line)), (when, value, number, line, shown)]
            return
        for at in range(len(entries) - 1, 0, -1):  # one entry a time: usually the last one
            if entries[at][0] == when:
                if value > entries[at][1]:
                    entries[at] = (when, value, number, line, shown)
                return
        entries.append((when, value, number, line, shown))

    def add(self, key: Key, written: Written, when: float | None, value: float, number: int, line: int,
            shown: Written | None, origin: str) -> Problem | None:  # fmt: skip
        """An untimed sample of its series; a second one of one input, or of inputs without a
        time, is a problem (observe._Builder.point)."""
        column = self._column(key[0])
        entries = column.get(key)
        if entries is None:
            column[key] = [(written, (number, line)), (when, value, number, line, shown)]
            return None
        last = entries[-1]
        if last[2] == number and last[1] == value:
            return None  # one scrape writing one series twice alike (an exporter's two rules): one sample
        if last[2] == number or when is None:
            shown_as = _series(key, entries[0][0], 1.0).written
            return Problem(origin, line, f"{shown_as} of {key[2]} appears again without a time: which is newer is "
                                         "unknown")  # fmt: skip
        entries.append((when, value, number, line, shown))
        return None

    def _column(self, metric: str) -> dict[Key, list]:  # type: ignore[type-arg]
        column = self.by_metric.get(metric)
        if column is None:
            column = self.by_metric[metric] = {}
            self.metrics.add(metric)
        return column

    def make(self, observations: Observations, metric: str, points: int) -> None:
        """Make the series of `metric` that hold at least `points` points (every one a series
        made from timed samples joins), onto the observations."""
        column = self.by_metric.get(metric, {})
        scale = vocabulary.by_mbean(metric).count_scale
        made = []
        for key, entries in column.items():
            existing = self.index.get(key)
            if existing is None and len(entries) - 1 < points:
                continue
            made.append(key)
            series = existing
            written, first = entries[0]
            if series is not None and first < self.timed_first.get(key, (-1, -1)):
                series.as_written = written  # a series is written as its first sample was
            if series is None:
                series = self.index[key] = _series(key, written, scale)
                observations.series.append(series)
            furthest = key[2] == FURTHEST
            for when, value, number, line, shown in entries[1:]:
                place = self._place(number, line, shown, when)
                if furthest and existing is not None:
                    same = next((at for at, p in enumerate(series.points) if p.time == when), None)
                    if same is not None:
                        if value > series.points[same].value:
                            series.points[same] = Point(when, value, place)
                        continue
                series.points.append(Point(when, value, place))
            if existing is not None or len(series.points) > 1:
                series.points.sort(key=lambda point: -1.0 if point.time is None else point.time)
        for key in made:
            del column[key]
        if not column:
            self.metrics.discard(metric)

    def _place(self, number: int, line: int, shown: Written | None, when: float | None) -> Location | MetricSample:
        if self.files[number]:
            return Location(self.origins[number], line)
        return MetricSample(self.origins[number], written_form(*shown), when)  # type: ignore[misc]

    def inputs(self) -> Iterator[tuple[str, set[str]]]:
        """Each series not made yet: its name as written, the inputs it came from (but those its
        series made from timed samples already holds points of)."""
        for column in self.by_metric.values():
            for key, entries in column.items():
                origins = {self.origins[entry[2]] for entry in entries[1:]}
                made = self.index.get(key)
                if made is not None:
                    origins -= {p.place.path if isinstance(p.place, Location) else p.place.origin for p in made.points}
                yield entries[0][0][0], origins


FURTHEST = "(the replica furthest ahead)"


def _series(key: Key, written: Written, scale: float) -> Series:
    return Series(key[0], key[1], key[2], key[3], key[4], written, scale)
