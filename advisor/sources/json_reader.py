"""JSON read into `Located` data with the exact span of every key and value.

One pass over the tokens (a compiled regex), iterative (no recursion: nesting depth costs
no stack), linear in the input, as strict as `json.loads`. Values are kept as text, as a
client receives them: strings decoded, numbers as Python writes them, `true`/`false`, null
as None. A key
written twice keeps the last value, as `json.loads` does, and its spans; the earlier
occurrences are listed in the mapping's `duplicates`. Columns count code points.
"""

from __future__ import annotations

import json
from typing import Any

from advisor import lazy_re
from advisor.model.document import LoadError
from advisor.sources.spans import LineIndex, Located, LocatedList, Span

_TOKEN = lazy_re.compile(
    r'(?P<ws>[ \t\n\r]+)|(?P<string>"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*")'
    r"|(?P<number>-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)|(?P<literal>true|false|null)|(?P<punct>[{}\[\]:,])"
)


def _scalar(kind: str, text: str) -> Any:
    if kind == "string":
        return json.loads(text)
    if kind == "literal":
        return None if text == "null" else text
    return str(json.loads(text))  # what a Python client passes on: 1e3 → "1000.0"


def read_json(text: str, path: str) -> Any:
    text = text.removeprefix("\ufeff")  # a BOM is not part of the document
    lines = LineIndex(text)
    stack: list[Any] = []  # open containers
    container_starts: list[int] = []
    states: list[str] = []  # per open container: start | key | value | comma
    keys: list[tuple[str, Span] | None] = []  # per open container: the key awaiting its value
    root: Any = _NOTHING
    position, size = 0, len(text)

    def fail(message: str, at: int) -> LoadError:
        return LoadError(path, lines.span(at, at + 1).line, f"invalid JSON: {message}")

    def place(value: Any, span: Span) -> None:
        nonlocal root
        if not stack:
            if root is not _NOTHING:
                raise fail("extra data after the document", span.offset)
            root = value
            return
        container = stack[-1]
        if isinstance(container, Located):
            if states[-1] != "key":
                raise fail("a key is expected", span.offset)
            key, key_span = keys[-1]  # type: ignore[misc]
            if key in container:  # the last occurrence wins, as json.loads decides
                container.duplicates.append((key, container.key_spans[key]))
            container[key] = value
            container.key_spans[key] = key_span
            container.value_spans[key] = span
        else:
            if states[-1] not in ("start", "comma"):
                raise fail("',' expected between items", span.offset)
            container.append(value)
            container.spans.append(span)
        states[-1] = "value"

    while position < size:
        match = _TOKEN.match(text, position)
        if match is None:
            raise fail(f"unexpected character {text[position]!r}", position)
        kind, token, start = match.lastgroup, match.group(), position
        position = match.end()
        if kind == "ws":
            continue
        in_mapping = bool(stack) and isinstance(stack[-1], Located)
        if token == ",":
            if not stack or states[-1] != "value":
                raise fail("unexpected ','", start)
            states[-1] = "comma"
        elif token == ":":
            raise fail("unexpected ':'", start)
        elif token in ("}", "]"):
            if not stack or (token == "}") != in_mapping or states[-1] not in ("start", "value"):
                raise fail(f"unexpected {token!r}", start)
            container, opened = stack.pop(), container_starts.pop()
            states.pop()
            keys.pop()
            place(container, lines.span(opened, position))
        elif in_mapping and states[-1] in ("start", "comma"):
            if kind != "string":
                raise fail("object keys must be strings", start)
            after = _TOKEN.match(text, position)
            while after is not None and after.lastgroup == "ws":
                after = _TOKEN.match(text, after.end())
            if after is None or after.group() != ":":
                raise fail("':' expected after an object key", position)
            keys[-1] = (json.loads(token), lines.span(start, position))
            states[-1] = "key"
            position = after.end()
        elif token in ("{", "["):
            if stack and states[-1] not in (("key",) if in_mapping else ("start", "comma")):
                raise fail(f"unexpected {token!r}", start)
            container = Located() if token == "{" else LocatedList()
            container.line = lines.span(start, start + 1).line
            stack.append(container)
            container_starts.append(start)
            states.append("start")
            keys.append(None)
        else:
            place(_scalar(kind, token), lines.span(start, position))  # type: ignore[arg-type]
    if stack:
        raise fail("the document ends inside a container", max(size - 1, 0))
    if root is _NOTHING:
        raise fail("no value", 0)
    return root


class _Nothing:
    pass


_NOTHING = _Nothing()
