"""Structured data that remembers where each key and value was written.

`Located` is a dict whose keys have a key span and a value span; `LocatedList` a list whose
items have spans. A `Span` is 1-based lines and columns (columns count code points; the end
column is exclusive) and 0-based offsets, so a writer can replace exactly the text a value
took. Readers: sources/structured.py (YAML, TOML) and sources/json_reader.py (JSON).
"""

from __future__ import annotations

from bisect import bisect_right

from advisor import TYPE_CHECKING, lazy_re
from advisor.model.provenance import Location
from advisor.named_tuple import NamedTuple, from_values

if TYPE_CHECKING:
    from typing import Any

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
    """A mapping that knows the spans of its keys and values.

    A YAML mapping keeps its key and value nodes (`_nodes`) and makes spans from their marks
    only where they are asked for — most keys of a large values file are never located — and
    the span dicts on first use; pickled or copied, it takes its spans along, not the nodes.

    Values merged from another file (a Terraform helm_release's `set` over the values file it
    names) keep that file's spans: `origin` is the file a mapping's spans are in, `origins` the
    file of each key merged in from elsewhere (both None for a file's own mappings: class
    defaults, so the hot loop that builds mappings sets neither)."""

    origin: str | None = None
    origins: dict[str, str] | None = None

    def __init__(self) -> None:
        super().__init__()
        self._key_spans: dict[str, Span] | None = None
        self._value_spans: dict[str, Span] | None = None
        self._nodes: dict[str, tuple[Any, Any]] | None = None  # key -> (key node, value node)
        self.duplicates: list[tuple[str, Span]] = []  # earlier occurrences of a key written twice
        self.line = 1

    @property
    def key_spans(self) -> dict[str, Span]:
        if self._key_spans is None:
            self._spans_made()
        return self._key_spans  # type: ignore[return-value]  # made just above

    @property
    def value_spans(self) -> dict[str, Span]:
        if self._value_spans is None:
            self._spans_made()
        return self._value_spans  # type: ignore[return-value]  # made just above

    def _spans_made(self) -> None:
        nodes, self._nodes = self._nodes or {}, None
        self._key_spans = {key: node_span(pair[0]) for key, pair in nodes.items()}
        self._value_spans = {key: node_span(pair[1]) for key, pair in nodes.items()}

    def __getstate__(self) -> dict[str, Any]:
        if self._key_spans is None:
            self._spans_made()
        return {name: value for name, value in vars(self).items() if name != "_nodes"}

    @property
    def positions(self) -> dict[str, tuple[int, int]]:
        return {key: (span.line, span.column) for key, span in self.key_spans.items()}

    def key_span(self, key: str) -> Span | None:
        if self._nodes is not None:
            pair = self._nodes.get(key)
            return node_span(pair[0]) if pair is not None else None
        return self.key_spans.get(key)

    def value_span(self, key: str) -> Span | None:
        if self._nodes is not None:
            pair = self._nodes.get(key)
            return node_span(pair[1]) if pair is not None else None
        return self.value_spans.get(key)

    def key_starts(self) -> dict[str, tuple[int, int]]:
        """Every key's (line, column), from the nodes' marks where they are kept (no span made)."""
        if self._nodes is not None:
            return {
                key: (pair[0].start_mark.line + 1, pair[0].start_mark.column + 1) for key, pair in self._nodes.items()
            }
        return self.positions

    def position(self, key: str) -> tuple[int, int]:
        span = self.key_span(key)
        return (span.line, span.column) if span is not None else (self.line, 1)

    @classmethod
    def spanned(cls, line: int, origin: str | None = None) -> Located:
        """An empty mapping that will hold spans given to it (`put`), not made from YAML nodes."""
        mapping = cls()
        mapping.line = line
        mapping._key_spans, mapping._value_spans = {}, {}
        if origin is not None:
            mapping.origin = origin
        return mapping

    def put(self, key: str, value: Any, key_span: Span | None, value_span: Span | None,
            written_in: str | None = None) -> None:  # fmt: skip
        """`key` set to `value` with its spans (those given), written in `written_in` when that is
        another file than this mapping's. The mapping holds its spans already (`spanned`, `copied`)."""
        if self._key_spans is None or self._value_spans is None:
            self._spans_made()
        self[key] = value
        if key_span is not None:
            self._key_spans[key] = key_span  # type: ignore[index]  # made just above
        if value_span is not None:
            self._value_spans[key] = value_span  # type: ignore[index]
        if written_in is not None and written_in != self.origin:
            self.origins = {**(self.origins or {}), key: written_in}

    def copied(self) -> Located:
        """A copy with its own spans and origins, to change without changing this one (a file's
        parse is shared by the readers that look at it)."""
        copy = self.__class__()
        copy.update(self)
        copy.line, copy.duplicates = self.line, self.duplicates
        copy._key_spans = {key: span for key in self if (span := self.key_span(key)) is not None}
        copy._value_spans = {key: span for key in self if (span := self.value_span(key)) is not None}
        if self.origin is not None:
            copy.origin = self.origin
        if self.origins is not None:
            copy.origins = dict(self.origins)
        return copy

    def file_of(self, key: str, path: str) -> str:
        """The file `key` was written in: `path` (the file read) unless merged from elsewhere."""
        if self.origins is not None and key in self.origins:
            return self.origins[key]
        return self.origin or path

    def key_location(self, key: str, path: str) -> Location:
        span = self.key_span(key)
        where = self.file_of(key, path)
        return span.at(where) if span is not None else Location(where, self.line)

    def value_location(self, key: str, path: str) -> Location | None:
        span = self.value_span(key)
        return span.at(self.file_of(key, path)) if span is not None else None


def node_span(node: Any) -> Span:
    """A YAML node's span, from its start and end marks (0-based lines and columns there)."""
    start, end = node.start_mark, node.end_mark
    return from_values(Span, (start.line + 1, start.column + 1, end.line + 1, end.column + 1, start.index, end.index))


class LocatedList(list):  # type: ignore[type-arg]
    """A sequence that knows the span of each item (in `origin` when merged from another file)."""

    origin: str | None = None

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

    __slots__ = ("_starts", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._starts: list[int] | None = None  # the line starts, found when first asked for

    @property
    def text(self) -> str:
        return self._text

    @property
    def starts(self) -> list[int]:
        if self._starts is None:
            self._starts = [0] + [match.end() for match in _NEWLINE.finditer(self._text)]
        return self._starts

    def span(self, start: int, end: int) -> Span:
        """The span of text[start:end] (end exclusive; an empty span stays at its start)."""
        starts = self.starts
        line = bisect_right(starts, start)
        end_line = bisect_right(starts, max(end - 1, start))
        end_column = end - starts[end_line - 1] + 1
        return from_values(Span, (line, start - starts[line - 1] + 1, end_line, end_column, start, end))
