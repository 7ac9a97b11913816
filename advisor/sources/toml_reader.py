"""TOML read into `Located` data with the exact span of every key and value.

tomllib decides what the document means (and refuses what is not TOML, with its line);
a scanner over the text then finds where each key and value was written: table headers
(`[a.b]`, `[[a.b]]` with their index), bare, quoted and dotted keys, inline tables,
and values that span lines (multi-line strings and arrays). Values are kept as text, as a
client receives them (5_000 → "5000", true → "true"). Linear in the input.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from advisor import lazy_re
from advisor.model.document import LoadError
from advisor.sources.spans import LineIndex, Located, LocatedList, Span

_ERROR_LINE = lazy_re.compile(r"line (\d+)")
_BARE = lazy_re.compile(r"[A-Za-z0-9_\-]+")
_BASIC = lazy_re.compile(r'"(?:[^"\\\n]|\\.)*"')
_LITERAL = lazy_re.compile(r"'[^'\n]*'")
_SPACE = lazy_re.compile(r"[ \t]*")

Path_ = tuple[object, ...]  # keys, and the index of an array-of-tables entry


def _text(value: Any) -> Any:
    if isinstance(value, dict):
        mapping = Located()
        for key, item in value.items():
            mapping[str(key)] = _text(item)
        return mapping
    if isinstance(value, list):
        items = LocatedList()
        items.extend(_text(item) for item in value)
        return items
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class _Scanner:
    """Finds key and value spans; `found` maps a key path to (key span, value span)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = LineIndex(text)
        self.found: dict[Path_, tuple[Span, Span | None]] = {}
        self.counts: dict[Path_, int] = {}

    def key(self, at: int) -> tuple[list[str], int, int] | None:
        """A (dotted) key at `at`: its parts, where it starts, where it ends."""
        parts, position, start = [], at, at
        while True:
            position = _SPACE.match(self.text, position).end()  # type: ignore[union-attr]
            if not parts:
                start = position
            match = _BARE.match(self.text, position) or _BASIC.match(self.text, position)
            match = match or _LITERAL.match(self.text, position)
            if match is None:
                return None
            token = match.group()
            parts.append(_unquote(token))
            end = match.end()
            position = _SPACE.match(self.text, end).end()  # type: ignore[union-attr]
            if self.text.startswith(".", position):
                position += 1
                continue
            return parts, start, end

    def value_end(self, at: int) -> int:
        """Where the value starting at `at` ends (exclusive): strings, arrays and inline tables
        may span lines; anything else ends at a comment, a comma or brace of an inline table,
        or the end of the line."""
        text = self.text
        for quote in ('"""', "'''"):
            if text.startswith(quote, at):
                close = text.find(quote, at + 3)
                while close != -1 and quote == '"""' and _escaped(text, close):
                    close = text.find(quote, close + 1)
                end = len(text) if close == -1 else close + 3
                while text.startswith(quote[0], end):  # up to two quotes may end the content
                    end += 1
                return end
        if text[at : at + 1] in ('"', "'"):
            match = (_BASIC if text[at] == '"' else _LITERAL).match(text, at)
            return match.end() if match else at + 1
        if text[at : at + 1] in ("[", "{"):
            depth, position = 0, at
            while position < len(text):
                char = text[position]
                if char in "\"'":
                    position = self.value_end(position)
                    continue
                if char == "#":
                    newline = text.find("\n", position)
                    position = len(text) if newline == -1 else newline
                    continue
                depth += char in "[{"
                depth -= char in "]}"
                position += 1
                if depth == 0:
                    return position
            return len(text)
        match = re.compile(r"[^\s#,}\]]+(?:[ \t]+[^\s#,}\]]+)*").match(text, at)  # dates may hold a space
        return match.end() if match else at

    def pairs(self, start: int, end: int, table: Path_, *, inline: bool) -> int:
        """Every `key = value` between `start` and `end` (a line, or an inline table's body);
        returns where the last value ended (past `end` for a value that spans lines)."""
        position, reached = start, end
        while position < end:
            found = self.key(position)
            if found is None:
                return reached
            parts, key_start, key_end = found
            equals = _SPACE.match(self.text, key_end).end()  # type: ignore[union-attr]
            while self.text.startswith(".", equals):  # a dotted key's later parts
                more = self.key(equals + 1)
                if more is None:
                    return reached
                parts += more[0]
                equals = _SPACE.match(self.text, more[2]).end()  # type: ignore[union-attr]
            if not self.text.startswith("=", equals):
                return reached
            value_start = _SPACE.match(self.text, equals + 1).end()  # type: ignore[union-attr]
            value_end = self.value_end(value_start)
            path = (*table, *parts)
            self.found[path] = (self.lines.span(key_start, key_end), self.lines.span(value_start, value_end))
            reached = max(reached, value_end)
            if self.text.startswith("{", value_start):
                self.pairs(value_start + 1, value_end - 1, path, inline=True)
            if not inline:
                return reached
            comma = self.text.find(",", value_end, end)
            if comma == -1:
                return reached
            position = comma + 1
        return reached

    def within_arrays(self, parts: list[str]) -> Path_:
        """`[a.b]` after `[[a]]` is a table of a's latest entry: its path holds that index."""
        path: list[object] = []
        for part in parts:
            path.append(part)
            count = self.counts.get(tuple(path))
            if count is not None and len(path) < len(parts):
                path.append(count - 1)
        return tuple(path)

    def scan(self) -> None:
        text, table = self.text, ()
        position = 0
        while position < len(text):
            line_end = text.find("\n", position)
            line_end = len(text) if line_end == -1 else line_end
            start = _SPACE.match(text, position).end()  # type: ignore[union-attr]
            if text.startswith("[", start):
                array = text.startswith("[[", start)
                found = self.key(start + (2 if array else 1))
                if found is not None:
                    parts = self.within_arrays(found[0])
                    if array:
                        index = self.counts.get(parts, 0)
                        self.counts[parts] = index + 1
                        table = (*parts, index)
                    else:
                        table = parts
                    self.found.setdefault(table, (self.lines.span(found[1], found[2]), None))
                position = line_end + 1
            elif start < line_end and text[start] != "#":
                # A value that spans lines (a multi-line string or array) ends past this line.
                reached = self.pairs(start, line_end, table, inline=False)
                newline = text.find("\n", reached)
                position = (len(text) if newline == -1 else newline) + 1 if reached > line_end else line_end + 1
            else:
                position = line_end + 1


def _unquote(token: str) -> str:
    if token[0] == '"':
        try:
            return json.loads(token)  # TOML's basic-string escapes are JSON's (\uXXXX too)
        except ValueError:
            return token[1:-1]
    return token.strip("'")


def _escaped(text: str, at: int) -> bool:
    backslashes = 0
    while at - backslashes - 1 >= 0 and text[at - backslashes - 1] == "\\":
        backslashes += 1
    return backslashes % 2 == 1


def _attach(value: Any, scanner: _Scanner, path: Path_) -> None:
    if isinstance(value, Located):
        for key, item in value.items():
            spans = scanner.found.get((*path, key))
            if spans is not None:
                value.key_spans[key] = spans[0]
                if spans[1] is not None:
                    value.value_spans[key] = spans[1]
            _attach(item, scanner, (*path, key))
        if value.key_spans:
            value.line = min(span.line for span in value.key_spans.values())
    elif isinstance(value, LocatedList):
        for index, item in enumerate(value):
            _attach(item, scanner, (*path, index))


def read_toml(text: str, path: str) -> Any:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    text = text.removeprefix("\ufeff")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        match = _ERROR_LINE.search(str(error))
        raise LoadError(path, int(match.group(1)) if match else 1, f"invalid TOML: {error}") from error
    located = _text(data)
    scanner = _Scanner(text)
    scanner.scan()
    _attach(located, scanner, ())
    return located
