"""java.util.Properties syntax, with the line and column of every key.

Follows Properties.load(Reader): `#`/`!` comment lines, key/value separated by
`=`, `:` or whitespace, backslash line continuation (leading whitespace of the
next line dropped), escapes `\\t \\n \\r \\f \\uXXXX`, any other `\\x` → `x`. A
trailing `# ...` is part of the value, exactly as Java reads it.
"""

from __future__ import annotations

from bisect import bisect_right

from advisor import lazy_re
from advisor.model.document import LoadError
from advisor.named_tuple import NamedTuple, from_values
from advisor.sources.spans import LineIndex, Span

_WHITESPACE = " \t\f"
_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


class Entry(NamedTuple):
    key: str
    value: str
    line: int  # 1-based line where the logical line starts
    column: int  # 1-based column of the key
    key_span: Span | None = None  # the key as written (escapes included)
    value_span: Span | None = None  # the value as written, continuations included (to the line end)
    raw_value: str = ""  # the text value_span covers


def _unescape(raw: str, path: str, line: int) -> str:
    if "\\" not in raw:
        return raw  # most keys and values: nothing to undo
    out: list[str] = []
    i = 0
    while i < len(raw):
        char = raw[i]
        if char != "\\" or i + 1 >= len(raw):
            out.append(char)
            i += 1
            continue
        following = raw[i + 1]
        if following == "u":
            digits = raw[i + 2 : i + 6]
            if len(digits) != 4 or any(d not in "0123456789abcdefABCDEF" for d in digits):
                raise LoadError(path, line, "malformed \\uxxxx escape (expected four hex digits)")
            out.append(chr(int(digits, 16)))
            i += 6
        else:
            out.append(_ESCAPES.get(following, following))
            i += 2
    return "".join(out)


_KEY_STOP = lazy_re.compile(r"\\.|\\$|[=: \t\f]")  # an escaped character (skipped) or a separator


def _split_key(logical: str) -> tuple[int, int]:
    """(end of the raw key, start of the raw value) at the first unescaped separator, as
    Properties.load does."""
    key_end = len(logical)
    for stop in _KEY_STOP.finditer(logical):  # not one regex repeat: its backtracking stack grows per character
        if stop.group()[0] != "\\":
            key_end = stop.start()
            break
    rest = key_end
    while rest < len(logical) and logical[rest] in _WHITESPACE:
        rest += 1
    if rest < len(logical) and logical[rest] in "=:":
        rest += 1
        while rest < len(logical) and logical[rest] in _WHITESPACE:
            rest += 1
    return key_end, rest


class _Logical:
    """One logical line: its text, and where each piece of it stands in the original text."""

    def __init__(self) -> None:
        self.parts: list[str] = []  # joined once at the end: a run of continued lines costs its length
        self.length = 0
        self.backslashes = 0  # how many backslashes end the text so far
        self.pieces: list[tuple[int, int]] = []  # (index in self.text, offset in the original)

    def add(self, piece: str, offset: int) -> None:
        self.pieces.append((self.length, offset))
        self.parts.append(piece)
        self.length += len(piece)
        kept = piece.rstrip("\\")
        self.backslashes = len(piece) - len(kept) + (0 if kept else self.backslashes)

    def continues(self) -> bool:
        """An odd number of backslashes ends the text: the line goes on (Properties.load)."""
        return self.backslashes % 2 == 1

    def drop_backslash(self) -> None:
        """The joining backslash is not text (it ends the last part when the line continues)."""
        self.parts[-1] = self.parts[-1][:-1]
        self.length -= 1
        self.backslashes -= 1

    def join(self) -> None:
        self.text = "".join(self.parts)

    def original(self, index: int, *, left: bool = False) -> int:
        """The original offset of self.text[index] (or just past the last character). With
        `left`, an index where a continued line starts maps to the end of the line before (its
        backslash): a value that begins there begins before the line break."""
        position = bisect_right(self.pieces, (index, float("inf"))) - 1
        if left and position > 0 and self.pieces[position][0] == index:
            position -= 1
        start, offset = self.pieces[max(position, 0)]
        return offset + index - start


def parse(text: str, path: str) -> tuple[list[Entry], list[tuple[int, str]]]:
    """Entries in file order, and comment lines as (line number, text)."""
    entries: list[Entry] = []
    comments: list[tuple[int, str]] = []
    index = LineIndex(text)
    starts = index.starts
    lines = [text[start : (starts[n + 1] if n + 1 < len(starts) else len(text))].rstrip("\r\n")
             for n, start in enumerate(starts)]  # fmt: skip
    number = 0
    while number < len(lines):
        first = number
        line = lines[number]
        stripped = line.lstrip(_WHITESPACE)
        number += 1
        if not stripped:
            continue
        if stripped[0] in "#!":
            comments.append((first + 1, stripped))
            continue
        offset = starts[first] + len(line) - len(stripped)
        if not stripped.endswith("\\"):  # one line, no continuation: most entries, without _Logical
            key_end, value_start = _split_key(stripped)
            key_to = offset + key_end
            has_value = value_start < len(stripped)
            value_from = offset + value_start if has_value else key_to
            value_to = starts[first] + len(line) if has_value else value_from
            entry = (_unescape(stripped[:key_end], path, first + 1), _unescape(stripped[value_start:], path, first + 1),
                     first + 1, len(line) - len(stripped) + 1, index.span(offset, key_to),
                     index.span(value_from, value_to), text[value_from:value_to])  # fmt: skip
            entries.append(from_values(Entry, entry))
            continue
        logical = _Logical()
        logical.add(stripped, offset)
        while logical.continues() and number < len(lines):
            logical.drop_backslash()
            following = lines[number]
            kept = following.lstrip(_WHITESPACE)
            logical.add(kept, starts[number] + len(following) - len(kept))
            number += 1
        if logical.continues():
            logical.drop_backslash()  # a continuation at end of file continues into nothing
        logical.join()
        key_end, value_start = _split_key(logical.text)
        raw_key, raw_value = logical.text[:key_end], logical.text[value_start:]
        key_from, key_to = logical.original(0), logical.original(key_end)
        value_from = logical.original(value_start, left=True) if value_start < len(logical.text) else key_to
        value_to = starts[number - 1] + len(lines[number - 1]) if value_start < len(logical.text) else value_from
        entries.append(
            Entry(
                _unescape(raw_key, path, first + 1),
                _unescape(raw_value, path, first + 1),
                first + 1,
                len(line) - len(stripped) + 1,
                index.span(key_from, key_to),
                index.span(value_from, value_to),
                text[value_from:value_to],
            )
        )
    return entries, comments
