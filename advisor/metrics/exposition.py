"""Prometheus text exposition (format 0.0.4), read as a stream of lines with a family filter.

What an exporter's `/metrics` serves and what people paste: `# HELP` / `# TYPE` lines, then
samples `name{label="value",...} value [timestamp]`. A scrape of a large cluster is millions of
lines of which a rule needs a few percent, so the name is taken first (two `str.find`s) and
checked against the wanted names before any label is split or number parsed; lines are read
one at a time, never the whole text (../shared/knowledge/perf-ingredients.md §4: 1 M lines in
~0.3 s and ~50 MB this way, against 14.5 s and 1.4 GB for prometheus_client). Lines of families
not asked for are not checked. A family's lines are written alike, so a wanted line written with
the label names its family's last line had is read with one match of a pattern made for them
(`_shape`); any other line goes the careful way. A malformed wanted line is a `path:line`
LoadError naming what was expected; tests/integration/test_exposition_oracle.py holds the parser
to prometheus_client on a real JMX exporter's scrape, tests/metrics/test_exposition_shapes.py
the two ways to each other.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from advisor import lazy_re
from advisor.model.document import LoadError
from advisor.named_tuple import NamedTuple

# A family's samples carry its name with one of these endings (counters, summaries, histograms).
SUFFIXES = ("", "_total", "_sum", "_count", "_bucket", "_created", "_info")
_NAME = lazy_re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*\Z")
_LABEL = lazy_re.compile(r'\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(,|\Z)', re.DOTALL)
_UNESCAPE = lazy_re.compile(r"\\(.)", re.DOTALL)
_ESCAPES = {"n": "\n", "\\": "\\", '"': '"'}


class Sample(NamedTuple):
    name: str  # the series as written (with its _total / _count / _bucket ending)
    labels: tuple[tuple[str, str], ...]  # in the order written
    value: float
    timestamp_ms: int | None
    line: int


class Family(NamedTuple):
    name: str
    kind: str  # counter, gauge, summary, histogram, untyped
    line: int


def wanted_names(families: Iterable[str]) -> frozenset[str]:
    """Every sample name the given families' samples may carry."""
    return frozenset(f"{family}{suffix}" for family in families for suffix in SUFFIXES)


def _unescape(text: str) -> str:
    return _UNESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), "\\" + m.group(1)), text) if "\\" in text else text


def _labels(text: str, path: str, number: int, strings: dict | None = None) -> tuple[tuple[str, str], ...]:  # type: ignore[type-arg]
    if "\\" not in text:  # no escapes: '",' can only end a label (a quote in a value is escaped)
        fast = _plain_labels(text, strings if strings is not None else {})
        if fast is not None:
            return fast
    labels = []
    position = 0
    while position < len(text):
        match = _LABEL.match(text, position)
        if match is None:
            if not text[position:].strip():
                break
            raise LoadError(path, number, 'invalid sample: labels must be written name="value", separated by commas')
        labels.append((match.group(1), _unescape(match.group(2))))
        position = match.end()
    return tuple(labels)


def _plain_labels(text: str, strings: dict) -> tuple[tuple[str, str], ...] | None:  # type: ignore[type-arg]
    """Labels without escapes, split rather than matched; None when anything is off (the
    careful reader then decides, and names the error). `strings`: one copy of each name, value
    and (name, value) pair (a large scrape repeats its label names, topics and partitions
    hundreds of thousands of times: one copy each instead of one a sample is half the samples'
    memory, and the series keep the same pairs)."""
    labels = []
    for part in text.split('",'):
        part = part.lstrip(" \t,")  # the separator before it (a value may end in a comma)
        if not part:
            continue
        name, sep, value = part.partition('="')
        name = name.strip(" \t")
        if value.endswith('"'):
            value = value[:-1]  # the last label keeps its closing quote
        if not sep or '"' in value or not (name.isascii() and name.isidentifier()):
            return None
        pair = (strings.setdefault(name, name), strings.setdefault(value, value))
        labels.append(strings.setdefault(pair, pair))
    return tuple(labels)


def _value(text: str, path: str, number: int) -> float:
    try:
        return float(text)  # NaN, +Inf, -Inf and Java's 6.5E9 included
    except ValueError:
        message = "invalid sample: the value must be a number (NaN, +Inf and -Inf included)"
        raise LoadError(path, number, message) from None


def _sample(
    line: str,
    name_end: int,
    path: str,
    number: int,
    checked: bool = False,
    strings: dict | None = None,  # type: ignore[type-arg]
) -> Sample:
    name = line[:name_end] if strings is None else strings.setdefault(line[:name_end], line[:name_end])
    if not checked and not _NAME.match(name):
        raise LoadError(path, number, "invalid sample: a metric name is expected first")
    rest = line[name_end:].lstrip(" \t")
    labels: tuple[tuple[str, str], ...] = ()
    if rest.startswith("{"):
        close = rest.rfind("}")  # the label set's: a value or timestamp holds no brace
        if close < 0:
            raise LoadError(path, number, "invalid sample: the label set is not closed with '}'")
        labels = _labels(rest[1:close], path, number, strings)
        rest = rest[close + 1 :]
    fields = rest.split()
    if not 1 <= len(fields) <= 2:
        raise LoadError(path, number, "invalid sample: a value (and at most a timestamp) is expected after the name")
    timestamp = None
    if len(fields) == 2:
        try:
            timestamp = int(fields[1])
        except ValueError:
            raise LoadError(path, number, "invalid sample: the timestamp must be whole milliseconds") from None
        if not -(10**14) < timestamp < 10**14:
            raise LoadError(path, number, "invalid sample: the timestamp is out of range (milliseconds since 1970)")
    return Sample(name, labels, _value(fields[0], path, number), timestamp, number)


Shapes = dict[tuple[str, ...], "re.Pattern[str]"]


def _shape(names: tuple[str, ...], compiled: Shapes) -> re.Pattern[str]:
    """The pattern of a line whose label set holds exactly these names, in this order, with values
    free of escapes, then a value and no timestamp: what an exporter writes for a whole family, so
    one match takes a sample's labels where splitting takes four times as long. A line it does not
    match (spaces, escapes, a timestamp, other names) goes the careful way, which says any error."""
    pattern = compiled.get(names)
    if pattern is None:
        labels = ",".join(f'{re.escape(name)}="([^"\\\\]*)"' for name in names)
        pattern = compiled[names] = re.compile("\\{" + labels + ",?\\}[ \t]+([^ \t\r\n]+)[ \t]*[\r\n]*\\Z")
    return pattern


def _pairs(names: tuple[str, ...], values: tuple[str, ...], strings: dict) -> tuple[tuple[str, str], ...]:  # type: ignore[type-arg]
    """The labels of a matched line, each pair the one copy `strings` keeps (_plain_labels)."""
    found = []
    for name, value in zip(names, values, strict=False):  # the last value is the sample's: zip stops before it
        pair = (name, strings.setdefault(value, value))
        found.append(strings.setdefault(pair, pair))
    return tuple(found)


def _name_end(line: str) -> int:
    """Where the metric name ends: at its label set, or at the first space or tab."""
    ends = [i for i in (line.find("{"), line.find(" "), line.find("\t")) if i >= 0]
    return min(ends) if ends else -1


Take = Callable[[str, tuple[str, ...], tuple[str, ...], float, int], bool]


def parse(
    lines: Iterable[str],
    path: str,
    wanted: frozenset[str] | None = None,
    families: list[Family] | None = None,
    take: Take | None = None,
) -> Iterator[Sample]:
    """The samples of `lines` (all, or those whose name is in `wanted` — see wanted_names);
    `# TYPE` lines go to `families` when a list is given. `take(name, label names, the pattern's
    groups (the labels' values, then the sample's), value, line)`: a line its family's pattern
    matched, offered before a sample is made of it — True, and none is."""
    number = 0
    strings: dict = {}  # type: ignore[type-arg]  # one copy of each name, label and pair (_plain_labels)
    shapes: dict[str, tuple[re.Pattern[str], tuple[str, ...]]] = {}  # a name → its label names, as last written
    compiled: Shapes = {}
    for line in lines:
        number += 1
        # The fast path: the name ends at its label set, or at the first space before one.
        brace = line.find("{")
        if brace > 0:
            space = line.find(" ", 0, brace)
            name = line[:brace] if space < 0 else line[:space]
        else:
            space = line.find(" ")
            name = line[:space] if space > 0 else ""
        if wanted is not None and name in wanted:
            shape = shapes.get(name) if brace > 0 and space < 0 else None
            matched = shape[0].match(line, brace) if shape is not None else None
            if matched is not None:  # the label names this name was last written with: one match
                found = matched.groups()
                try:
                    value = float(found[-1])
                except ValueError:
                    value = None  # the careful way names the error
                if value is not None:
                    if take is not None and take(strings[name], shape[1], found, value, number):  # type: ignore[index]
                        continue
                    yield Sample(strings[name], _pairs(shape[1], found, strings), value, None, number)  # type: ignore[index]  # shape is set here
                    continue
            careful = _sample(line.rstrip("\r\n"), len(name), path, number, True, strings)
            if brace > 0 and space < 0 and careful.timestamp_ms is None and "\\" not in line:
                names = tuple(key for key, _ in careful.labels)
                shapes[name] = (_shape(names, compiled), names)
            yield careful
            continue
        if name and name[0] != "#" and "\t" not in name:
            if wanted is None:
                yield _sample(line.rstrip("\r\n"), len(name), path, number)
            continue  # a family not asked for: passed over unchecked
        # Comments, blank lines, leading whitespace, tabs: rare, read with care.
        sample = _unusual(line, number, path, wanted, families)
        if sample is not None:
            yield sample


def _unusual(
    line: str, number: int, path: str, wanted: frozenset[str] | None, families: list[Family] | None
) -> Sample | None:
    line = line.strip(" \t\r\n")  # leading and trailing whitespace is ignored
    if not line:
        return None
    if line[0] == "#":
        if families is not None and line.startswith("# TYPE "):
            parts = line.split()
            if len(parts) >= 4:
                families.append(Family(parts[2], parts[3], number))
        return None
    name_end = _name_end(line)
    if name_end < 0:
        if wanted is not None and line not in wanted:
            return None
        raise LoadError(path, number, "invalid sample: a value is expected after the metric name")
    if wanted is not None and line[:name_end] not in wanted:
        return None
    return _sample(line, name_end, path, number)
