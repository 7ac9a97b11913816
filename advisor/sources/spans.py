"""Structured data that remembers where each key and value was written.

`Located` is a dict whose keys have a key span and a value span; `LocatedList` a list whose
items have spans. A `Span` is 1-based lines and columns (columns count code points; the end
column is exclusive) and 0-based offsets, so a writer can replace exactly the text a value
took. Readers: sources/structured.py (YAML, TOML) and sources/json_reader.py (JSON).
"""

from __future__ import annotations

from bisect import bisect_right

from advisor import lazy_re
from advisor.model.provenance import Location
from advisor.named_tuple import NamedTuple, from_values

_NEWLINE = lazy_re.compile(r"\r\n|\n|\r")


class Span(NamedTuple):
    line: int
    column: int
    end_line: int
    end_column: int
    offset: int
    end_offset: int

    def at(self, path: str) -> Location:
        return from_values(Location, (path, *self))  # Location(path, *self), without namedtuple's Python __new__


class Located(dict):  # type: ignore[type-arg]
    """A mapping that knows the spans of its keys and values."""

    def __init__(self) -> None:
        super().__init__()
        self.key_spans: dict[str, Span] = {}
        self.value_spans: dict[str, Span] = {}
        self.duplicates: list[tuple[str, Span]] = []  # earlier occurrences of a key written twice
        self.line = 1

    @property
    def positions(self) -> dict[str, tuple[int, int]]:
        return {key: (span.line, span.column) for key, span in self.key_spans.items()}

    def position(self, key: str) -> tuple[int, int]:
        span = self.key_spans.get(key)
        return (span.line, span.column) if span is not None else (self.line, 1)

    def key_location(self, key: str, path: str) -> Location:
        span = self.key_spans.get(key)
        return span.at(path) if span is not None else Location(path, self.line)

    def value_location(self, key: str, path: str) -> Location | None:
        span = self.value_spans.get(key)
        return span.at(path) if span is not None else None


class LocatedList(list):  # type: ignore[type-arg]
    """A sequence that knows the span of each item."""

    def __init__(self) -> None:
        super().__init__()
        self.spans: list[Span] = []
        self.line = 1

    @property
    def positions(self) -> list[tuple[int, int]]:
        return [(span.line, span.column) for span in self.spans]


def raw_text(text: str, location: Location | None) -> str | None:
    """The text a value span covers, as written."""
    if location is None or location.offset is None or location.end_offset is None:
        return None
    return text[location.offset : location.end_offset]


class LineIndex:
    """Offsets → lines and columns, for one text (line ends: \\n, \\r\\n or \\r, as Java reads)."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [match.end() for match in _NEWLINE.finditer(text)]

    def span(self, start: int, end: int) -> Span:
        """The span of text[start:end] (end exclusive; an empty span stays at its start)."""
        line = bisect_right(self.starts, start)
        end_line = bisect_right(self.starts, max(end - 1, start))
        end_column = end - self.starts[end_line - 1] + 1
        return from_values(Span, (line, start - self.starts[line - 1] + 1, end_line, end_column, start, end))
