"""java.util.Properties syntax, with the line and column of every key.

Follows Properties.load(Reader): `#`/`!` comment lines, key/value separated by
`=`, `:` or whitespace, backslash line continuation (leading whitespace of the
next line dropped), escapes `\\t \\n \\r \\f \\uXXXX`, any other `\\x` → `x`. A
trailing `# ...` is part of the value, exactly as Java reads it.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.model.document import LoadError

_WHITESPACE = " \t\f"
_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


@dataclass(frozen=True)
class Entry:
    key: str
    value: str
    line: int  # 1-based line where the logical line starts
    column: int  # 1-based column of the key


def _natural_lines(text: str) -> list[str]:
    # Java ends a line at \n, \r or \r\n.
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _ends_with_continuation(line: str) -> bool:
    backslashes = len(line) - len(line.rstrip("\\"))
    return backslashes % 2 == 1


def _unescape(raw: str, path: str, line: int) -> str:
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


def _split_key(logical: str) -> tuple[str, str]:
    """(raw key, raw value) at the first unescaped separator, as Properties.load does."""
    i = 0
    while i < len(logical):
        char = logical[i]
        if char == "\\":
            i += 2
            continue
        if char in "=:" or char in _WHITESPACE:
            break
        i += 1
    key = logical[:i]
    rest = logical[i:].lstrip(_WHITESPACE)
    if rest[:1] in ("=", ":") and (i == len(logical) or logical[i] in _WHITESPACE or logical[i] in "=:"):
        rest = rest[1:].lstrip(_WHITESPACE)
    return key, rest


def parse(text: str, path: str) -> tuple[list[Entry], list[tuple[int, str]]]:
    """Entries in file order, and comment lines as (line number, text)."""
    entries: list[Entry] = []
    comments: list[tuple[int, str]] = []
    lines = _natural_lines(text)
    index = 0
    while index < len(lines):
        start = index
        stripped = lines[index].lstrip(_WHITESPACE)
        index += 1
        if not stripped:
            continue
        if stripped[0] in "#!":
            comments.append((start + 1, stripped))
            continue
        column = len(lines[start]) - len(stripped) + 1
        logical = stripped
        while _ends_with_continuation(logical) and index < len(lines):
            logical = logical[:-1] + lines[index].lstrip(_WHITESPACE)
            index += 1
        if _ends_with_continuation(logical):
            logical = logical[:-1]  # a continuation at end of file continues into nothing
        raw_key, raw_value = _split_key(logical)
        entries.append(
            Entry(_unescape(raw_key, path, start + 1), _unescape(raw_value, path, start + 1), start + 1, column)
        )
    return entries, comments
