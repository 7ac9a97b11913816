"""A large scrape's high-cardinality metrics kept as columns until a series is asked for.

A large cluster's scrape holds a log end offset per replica and the per-topic meters of every
broker: hundreds of thousands of series, each a few hundred bytes and a few microseconds to make,
which no rule reads and the flow view reads only for the partitions a consumer group reads (an
end offset) or only with two scrapes or more (a rate). Their untimed samples — what a scrape
saved with curl, or an endpoint, gives — are gathered per input as it is read (`Gathered`: the
exposition reader hands over each line its per-family pattern matched, no sample made, and the
observer the samples it reads the careful way), by series key, and `Observations.of` makes a
metric's series when asked: the same series the observer would have made
(tests/metrics/test_columns.py holds the two ways equal).
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Iterator

from advisor.metrics import shapes, vocabulary
from advisor.model.document import LoadError, Problem
from advisor.model.observations import Observations, Point, Series, written_form
from advisor.model.provenance import Location, MetricSample
from advisor.named_tuple import NamedTuple
from advisor.sources import limits

# The metrics kept as columns: a partition's end offset (a replica's, kept as the furthest) and a
# topic's meters of each broker.
METRICS = frozenset({vocabulary.LOG_END_OFFSET.mbean, vocabulary.BYTES_IN.mbean, vocabulary.MESSAGES_IN.mbean})
FURTHEST = "(the replica furthest ahead)"

Labels = tuple[tuple[str, str], ...]
# The observer's series key: metric, reading, node (None: its input's, not known yet), cluster, labels.
Key = tuple[str, str, "str | None", "str | None", Labels]
# A sample as written: (name, labels); (name, label names, the pattern's groups) as the reader matched it
# in a scrape; or, in a file, (name, label names) alone — its line is read again when it is shown.
Written = tuple[str, Labels] | tuple[str, tuple[str, ...], tuple[str, ...]] | tuple[str, tuple[str, ...]]


def labels_of(written: Written) -> tuple[str, Labels]:
    """A sample's (name, labels), however it was kept (a file's line: see `unread`)."""
    if len(written) == 2:
        return written  # type: ignore[return-value]
    name, names, groups = written
    return name, tuple(zip(names, groups, strict=False))  # the last group is the value


def unread(written: Written) -> bool:
    """A file's line kept by its shape alone: its labels are to be read again."""
    return len(written) == 2 and bool(written[1]) and isinstance(written[1][0], str)


class _Fast(NamedTuple):
    """What `take` needs of a shape's plan."""

    kind: int  # the metric, reading and own label names, by number
    furthest: bool  # an end offset: the furthest replica's is kept
    cluster_at: tuple[int, ...]
    identity_at: tuple[int, ...]
    own_at: tuple[tuple[int, str], ...]  # each own label's position (or -1) and implied value
    shape: int


class Gathered:
    """One input's untimed samples of METRICS, by series key, in columns: each key coded as a tuple
    of small numbers (its metric and own label names, node, cluster and own label values, each
    string kept once) with its value, line and first line in arrays — a large scrape's 331,920
    series in tens of megabytes where as many tuples and series would take hundreds. A label-less
    sample's node is None: its input's, known once every input is read. Each key keeps what a
    reading in line order keeps, whatever order its samples come in (the reader's matched lines
    first, then the observer's): for an end offset the furthest replica's (of equals the first
    line's); of a series written twice alike the first, twice unlike the first and a problem at
    the later line. `digest`: also what targets.py compares of label-less inputs (several read);
    `file`: a matched line keeps its shape alone, and is read again when its series is shown."""

    def __init__(self, digest: bool = True, file: bool = True) -> None:
        self.digesting, self.file = digest, file
        self.strings: dict[str | None, int] = {None: 0}  # each label value once, by number (0: none)
        self.table: list[str | None] = [None]
        self.kinds: dict[tuple[str, str, tuple[str, ...]], int] = {}  # (metric, reading, own label names) → number
        self.kind_list: list[tuple[str, str, tuple[str, ...]]] = []
        self.slots: dict[tuple[int, ...], int] = {}  # a key's code → its slot in the arrays
        self.codes: list[tuple[int, ...]] = []
        self.values = array("d")
        self.lines = array("q")
        self.first_lines = array("q")  # a key's first line (an end offset's may be another replica's)
        self.shape_of = array("l")  # the shape of a key's first sample: its name, and its labels' names
        self.shape_list: list[tuple[str, tuple[str, ...]]] = []
        self.shape_ids: dict[tuple[str, tuple[str, ...]], int] = {}
        self.written: dict[int, Written] = {}  # a kept sample as written, where it is not a file's matched line
        self.first_written: dict[int, Written] = {}  # the first sample as written, where it is not the kept one
        self.removed: set[int] = set()
        # Series written twice unlike: (the later line, key, the first line, the first sample as written).
        self.problems: list[tuple[int, Key, int, Written]] = []
        self.fast: dict[tuple[str, tuple[str, ...]], _Fast | None] = {}
        self.identified = False  # a line carries an identity label
        self.digest = 0  # every line's (name, label names, label values) hashed and summed
        self.count = 0  # lines taken

    # --- reading ---------------------------------------------------------------------------------

    def take(self, name: str, names: tuple[str, ...], groups: tuple[str, ...], value: float, line: int) -> bool:
        """A line the reader matched (exposition.parse's `take`): kept here when it is of METRICS."""
        shape = (name, names)
        fast = self.fast.get(shape)
        if fast is None:
            if shape in self.fast:
                return False  # not of METRICS
            fast = self.fast[shape] = self._fast(name, names)
            if fast is None:
                return False
        kind, furthest, cluster_at, identity_at, own_at, shape_id = fast
        strings = self.strings
        cluster = identity = 0
        for at in cluster_at:
            if groups[at]:
                cluster = strings.get(groups[at]) or self._string(groups[at])
                break
        if not furthest:
            for at in identity_at:
                if groups[at]:
                    identity = strings.get(groups[at]) or self._string(groups[at])
                    break
        own = [groups[at] if at >= 0 else implied for at, implied in own_at]
        code = (kind, identity, cluster, *[strings.get(v) or self._string(v) for v in own])
        self.count += 1
        if self.digesting:
            self.identified = self.identified or any(groups[at] for at in identity_at)
            self.digest += hash((name, names, groups[:-1]))
        written = None if self.file else (name, names, groups)  # a file's line is read again when shown
        if furthest:
            self._furthest(code, value, line, written, shape_id)
        else:
            self._latest(code, value, line, written, shape_id)
        return True

    def _fast(self, name: str, names: tuple[str, ...]) -> _Fast | None:
        """What `take` needs of a shape's plan (shapes.plan), or None when it is not of METRICS."""
        plan = shapes.plan(name, names)
        if not isinstance(plan, shapes.Plan) or plan.metric.mbean not in METRICS:
            return None
        kind = self._kind(plan.metric.mbean, plan.reading, tuple(key for key, _, _ in plan.own))
        furthest = plan.metric is vocabulary.LOG_END_OFFSET
        own_at = tuple((at, implied) for _, at, implied in plan.own)
        return _Fast(kind, furthest, plan.cluster, plan.identity, own_at, self._shape((name, names)))

    def _string(self, text: str | None) -> int:
        found = self.strings.get(text)
        if found is None:
            found = self.strings[text] = len(self.table)
            self.table.append(text)
        return found

    def _kind(self, mbean: str, reading: str, own_names: tuple[str, ...]) -> int:
        found = self.kinds.get((mbean, reading, own_names))
        if found is None:
            found = self.kinds[(mbean, reading, own_names)] = len(self.kind_list)
            self.kind_list.append((mbean, reading, own_names))
        return found

    def _shape(self, shape: tuple[str, tuple[str, ...]]) -> int:
        found = self.shape_ids.get(shape)
        if found is None:
            found = self.shape_ids[shape] = len(self.shape_list)
            self.shape_list.append(shape)
        return found

    def _code(self, key: Key) -> tuple[int, ...]:
        mbean, reading, node, cluster, own = key
        kind = self._kind(mbean, reading, tuple(name for name, _ in own))
        return (kind, 0 if node is None or node == FURTHEST else self._string(node), self._string(cluster),
                *[self._string(value) for _, value in own])  # fmt: skip

    def key(self, code: tuple[int, ...]) -> Key:
        """A code's series key (node None: its input's)."""
        mbean, reading, own_names = self.kind_list[code[0]]
        table = self.table
        own = tuple(zip(own_names, [table[at] for at in code[3:]], strict=True))
        node = FURTHEST if mbean == vocabulary.LOG_END_OFFSET.mbean else table[code[1]]
        return mbean, reading, node, table[code[2]], own  # type: ignore[return-value]

    # --- the observer's samples (key tuples) ------------------------------------------------------

    def furthest(self, key: Key, value: float, line: int, written: tuple[str, Labels]) -> None:
        self._furthest(self._code(key), value, line, written, self._sample_shape(written))

    def latest(self, key: Key, value: float, line: int, written: tuple[str, Labels]) -> None:
        self._latest(self._code(key), value, line, written, self._sample_shape(written))

    def _sample_shape(self, written: tuple[str, Labels]) -> int:
        return self._shape((written[0], tuple([name for name, _ in written[1]])))

    # --- keeping ---------------------------------------------------------------------------------

    def _new(self, code: tuple[int, ...], value: float, line: int, written: Written | None, shape: int) -> None:
        slot = self.slots[code] = len(self.codes)
        self.codes.append(code)
        self.values.append(value)
        self.lines.append(line)
        self.first_lines.append(line)
        self.shape_of.append(shape)
        if written is not None:
            self.written[slot] = written

    def _furthest(self, code: tuple[int, ...], value: float, line: int, written: Written | None, shape: int) -> None:
        slot = self.slots.get(code)
        if slot is None:  # a new key: kept as this sample (inline: once a line for a large scrape)
            self._new(code, value, line, written, shape)
            return
        kept_line = self.lines[slot]
        if line < self.first_lines[slot]:  # the first line of all: its sample is how the series is written
            self.first_lines[slot] = line
            self.shape_of[slot] = shape
            self._put(self.first_written, slot, written)
        if value > self.values[slot] or (value == self.values[slot] and line < kept_line):
            if self.first_lines[slot] == kept_line and line != kept_line and slot in self.written:
                self.first_written.setdefault(slot, self.written[slot])  # the kept one was the first
            self.values[slot], self.lines[slot] = value, line  # the furthest; of equals, the first
            self._put(self.written, slot, written)

    def _latest(self, code: tuple[int, ...], value: float, line: int, written: Written | None, shape: int) -> None:
        slot = self.slots.get(code)
        if slot is None:  # a new key: kept as this sample (inline: once a line for a large scrape)
            self._new(code, value, line, written, shape)
            return
        kept = self.lines[slot]
        if value == self.values[slot]:  # one scrape writing one series twice alike (an exporter's two rules)
            if line < kept:
                self.lines[slot] = self.first_lines[slot] = line
                self.shape_of[slot] = shape
                self._put(self.written, slot, written)
            return
        first = (kept, self._as_written(slot)) if kept < line else (line, written or self.shape_list[shape])
        later = max(kept, line)
        if line < kept:
            self.values[slot], self.lines[slot], self.first_lines[slot] = value, line, line
            self.shape_of[slot] = shape
            self._put(self.written, slot, written)
        self.problems.append((later, self.key(code), *first))

    @staticmethod
    def _put(kept: dict[int, Written], slot: int, written: Written | None) -> None:
        """A sample as written, or none (a file's matched line: its shape says it)."""
        if written is None:
            kept.pop(slot, None)
        else:
            kept[slot] = written

    def _as_written(self, slot: int) -> Written:
        """The kept sample as written: the observer's, or a file's matched line by its shape."""
        return self.written.get(slot) or self.shape_list[self.shape_of[slot]]

    # --- reading back -----------------------------------------------------------------------------

    def size(self) -> int:
        return len(self.codes) - len(self.removed)

    def metrics(self) -> set[str]:
        return {self.kind_list[kind][0] for kind in {code[0] for code in self.slots}}

    def entries(self, metric: str | None = None) -> Iterator[tuple[Key, float, int, Written, int, Written]]:
        """Each key kept: (key, value, line, the kept sample as written, the first line, the first
        sample as written) — a file's matched line as written is its shape (`unread`)."""
        kinds = {at for at, (mbean, _, _) in enumerate(self.kind_list) if metric is None or mbean == metric}
        for slot, code in enumerate(self.codes):
            if code[0] not in kinds or slot in self.removed:
                continue
            kept = self._as_written(slot)
            first_line = self.first_lines[slot]
            first = self.first_written.get(slot) or (kept if first_line == self.lines[slot]
                                                     else self.shape_list[self.shape_of[slot]])  # fmt: skip
            yield self.key(code), self.values[slot], self.lines[slot], kept, first_line, first

    def remove(self, key: Key) -> None:
        slot = self.slots.get(self._code(key))
        if slot is not None:
            self.removed.add(slot)

    def names(self, metric: str) -> Counter[str]:
        """How many keys of `metric` each first sample's name has (the per-input counts' fast way)."""
        kinds = {at for at, (mbean, _, _) in enumerate(self.kind_list) if mbean == metric}
        found: Counter[str] = Counter()
        for slot, code in enumerate(self.codes):
            if code[0] in kinds and slot not in self.removed:
                found[self.shape_list[self.shape_of[slot]][0]] += 1
        return found


class Columns:
    """Each input's Gathered, in input order, merged into series when a metric is asked for."""

    def __init__(self, index: dict[Key, Series], origins: list[str], files: list[bool],
                 node_of: Callable[[int], str]) -> None:  # fmt: skip
        self.inputs_gathered: list[tuple[int, float | None, Gathered]] = []  # (input number, its time, what it gave)
        self.metrics: set[str] = set()
        self.index = index  # the observer's series by key: a series made from timed samples is added to
        self.origins, self.files, self.node_of = origins, files, node_of
        self.timed_first: dict[Key, tuple[int, int]] = {}  # such a series: its first sample's (input, line)
        self.made: set[Key] = set()  # the series made so far
        self.read_again: dict[tuple[int, int], tuple[str, Labels]] = {}  # (input, line) → (name, labels)

    def add(self, number: int, when: float | None, gathered: Gathered) -> list[Problem]:
        """One input's columns (its problems: series written twice unlike, and, where no time is
        known, a series another input wrote too — which is newer cannot be known)."""
        origin = self.origins[number]
        again = {first_line for _, _, first_line, first in gathered.problems if unread(first)}
        if again:  # the files' lines to read again, at once
            self._read_lines(number, again)
        problems = [self._twice(origin, line, self._resolved(key, number), self._labels(number, first_line, first))
                    for line, key, first_line, first in gathered.problems]  # fmt: skip
        if when is None:  # no time: a series another input wrote too is ambiguous, and left out
            seen = {self._resolved(entry[0], n) for n, _, other in self.inputs_gathered for entry in other.entries()
                    if entry[0][2] != FURTHEST}  # fmt: skip
            for key, _, line, _, first_line, first in list(gathered.entries()):
                if key[2] != FURTHEST and self._resolved(key, number) in seen:
                    problems.append(self._twice(origin, line, self._resolved(key, number),
                                                self._labels(number, first_line, first)))  # fmt: skip
                    gathered.remove(key)
        if gathered.size():
            self.inputs_gathered.append((number, when, gathered))
            self.metrics |= gathered.metrics()
        return sorted(problems, key=lambda problem: problem.line or 0)

    def _twice(self, origin: str, line: int, key: Key, first: tuple[str, Labels]) -> Problem:
        shown = _series(key, first, 1.0).written
        return Problem(origin, line, f"{shown} of {key[2]} appears again without a time: which is newer is unknown")

    def _labels(self, number: int, line: int, written: Written) -> tuple[str, Labels]:
        """A sample's (name, labels); a file's line kept by its shape is read again (once)."""
        if not unread(written):
            return labels_of(written)
        if (number, line) not in self.read_again:
            self._read_lines(number, {line})
        return self.read_again.get((number, line), labels_of(written))

    def _read_lines(self, number: int, lines: set[int]) -> None:
        """Lines of one file read again, for the labels of the series about to be shown."""
        from advisor.metrics.exposition import parse  # what the reader parsed them with: the careful way

        origin = self.origins[number]
        last, limit = max(lines), limits.current().line_chars + 1  # as the reader read it, bounded alike
        try:
            with open(origin, encoding="utf-8", errors="replace", newline="") as stream:
                for at, text in enumerate(iter(lambda: stream.readline(limit), ""), 1):
                    if at in lines:
                        found = next(parse([text], origin), None)
                        if found is not None:
                            self.read_again[(number, at)] = (found.name, found.labels)
                    if at >= last:
                        break
        except (OSError, LoadError):
            pass  # changed or gone since it was read: its series are shown by their shape

    def _resolved(self, key: Key, number: int) -> Key:
        return key if key[2] is not None else (key[0], key[1], self.node_of(number), key[3], key[4])

    def _merged(self, metric: str) -> dict[Key, list]:  # type: ignore[type-arg]
        """Key → [(the first sample as written, its (input, line)), (time, value, input, line, written)...]."""
        merged: dict[Key, list] = {}  # type: ignore[type-arg]
        for number, when, gathered in self.inputs_gathered:
            for key, value, line, written, first_line, first in gathered.entries(metric):
                key = self._resolved(key, number)
                entries = merged.get(key)
                entry = (when, value, number, line, written)
                if entries is None:
                    merged[key] = [(first, (number, first_line)), entry]
                elif key[2] == FURTHEST:
                    at = next((at for at in range(len(entries) - 1, 0, -1) if entries[at][0] == when), None)
                    if at is None:
                        entries.append(entry)
                    elif value > entries[at][1]:
                        entries[at] = entry
                else:
                    entries.append(entry)
        return merged

    def make(self, observations: Observations, metric: str, points: int,
             keep: Callable[[Labels], bool] | None = None) -> None:  # fmt: skip
        """Make the series of `metric` that hold at least `points` points and whose labels `keep`
        takes (every one a series made from timed samples joins), onto the observations."""
        if len(self.inputs_gathered) < points and not any(key[0] == metric for key in self.timed_first):
            return  # one input, nothing timed: no series of two points (a rate), so none is decoded
        merged = self._merged(metric)
        if keep is not None:
            merged = {key: entries for key, entries in merged.items() if keep(key[4])}
        scale = vocabulary.by_mbean(metric).count_scale
        wanted: dict[int, set[int]] = {}
        for key, entries in merged.items():  # the files' lines to read again: each series' first
            written, (number, line) = entries[0]
            if unread(written) and key not in self.made:
                wanted.setdefault(number, set()).add(line)
        for number, lines in wanted.items():
            self._read_lines(number, lines)
        for key, entries in merged.items():
            existing = self.index.get(key)
            if (existing is None and len(entries) - 1 < points) or key in self.made:
                continue
            written, first = entries[0]
            labels = self._labels(first[0], first[1], written)
            series = existing
            if series is not None and first < self.timed_first.get(key, (-1, -1)):
                series.as_written = labels  # a series is written as its first sample was
            if series is None:
                series = self.index[key] = _series(key, labels, scale)
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
            self.made.add(key)
        if keep is None and all(key in self.made for key in merged):
            self.metrics.discard(metric)

    def _place(self, number: int, line: int, written: Written, when: float | None) -> Location | MetricSample:
        if self.files[number]:
            return Location(self.origins[number], line)
        return MetricSample(self.origins[number], written_form(*labels_of(written)), when)

    def inputs(self) -> Iterator[tuple[str, set[str], int]]:
        """Each series not made yet: its name as written, the inputs it came from (but those its
        series made from timed samples already holds points of) — counted, not merged: the
        per-input counts of a large scrape read every key once. Inputs of one time merge their end
        offsets (the furthest replica's input alone holds the point): then counted merged."""
        times = [when for _, when, _ in self.inputs_gathered]
        if len(set(times)) < len(times) or self.timed_first or self.made or len(set(self.origins)) < len(self.origins):
            yield from self._inputs_merged()  # inputs of one time, series made, an endpoint scraped in rounds
            return
        for number, _, gathered in self.inputs_gathered:
            for metric in self.metrics:
                for name, count in gathered.names(metric).items():
                    yield name, {self.origins[number]}, count

    def _inputs_merged(self) -> Iterator[tuple[str, set[str], int]]:
        for metric in sorted(self.metrics):
            for key, entries in self._merged(metric).items():
                if key in self.made:
                    continue
                origins = {self.origins[entry[2]] for entry in entries[1:]}
                made = self.index.get(key)
                if made is not None:
                    origins -= {p.place.path if isinstance(p.place, Location) else p.place.origin for p in made.points}
                yield entries[0][0][0], origins, 1


def _series(key: Key, written: tuple[str, Labels], scale: float) -> Series:
    assert key[2] is not None  # resolved (Columns._resolved)
    return Series(key[0], key[1], key[2], key[3], key[4], written, scale)
