"""The part of HCL (Terraform's language) that Kafka resources are written in: blocks with
labels, `name = value` attributes whose values are strings, numbers, booleans, lists, maps or
heredocs, with exact spans. Anything else (a reference, a function call, an expression) is kept
as its text and marked as an expression: a value the file does not hold."""

from __future__ import annotations

from advisor.model.document import LoadError
from advisor.named_tuple import NamedTuple
from advisor.sources.spans import LineIndex, Span

MAX_DEPTH = 64


class Value(NamedTuple):
    value: object  # str, int/float text as str, bool, list[Value], dict[str, Value]
    span: Span
    expression: bool = False  # a reference or call: not a literal the file states
    key_span: Span | None = None  # in a map: where its key is


class Block(NamedTuple):
    kind: str
    labels: list[str]
    attributes: dict[str, Value]
    blocks: list[Block]
    span: Span


class _Parser:
    def __init__(self, text: str, path: str) -> None:
        self.text, self.path, self.at = text, path, 0
        self.index = LineIndex(text)

    def fail(self, why: str) -> LoadError:
        line = self.text.count("\n", 0, self.at) + 1
        return LoadError(self.path, line, f"HCL: {why}")

    def skip(self, newlines: bool = True) -> None:
        text, size = self.text, len(self.text)
        while self.at < size:
            char = text[self.at]
            if char in " \t\r" or (newlines and char == "\n"):
                self.at += 1
            elif char == "#" or text.startswith("//", self.at):
                end = text.find("\n", self.at)
                self.at = size if end < 0 else end
            elif text.startswith("/*", self.at):
                end = text.find("*/", self.at + 2)
                if end < 0:
                    raise self.fail("a /* comment is not closed")
                self.at = end + 2
            else:
                return

    def identifier(self) -> str:
        start = self.at
        while self.at < len(self.text) and (self.text[self.at].isalnum() or self.text[self.at] in "_-."):
            self.at += 1
        return self.text[start : self.at]

    def body(self, depth: int, closing: str | None) -> tuple[dict[str, Value], list[Block]]:
        if depth > MAX_DEPTH:
            raise self.fail(f"blocks nested deeper than {MAX_DEPTH}")
        attributes: dict[str, Value] = {}
        blocks: list[Block] = []
        while True:
            self.skip()
            if self.at >= len(self.text):
                if closing:
                    raise self.fail("a block is not closed")
                return attributes, blocks
            if closing and self.text[self.at] == closing:
                self.at += 1
                return attributes, blocks
            start = self.at
            name = self.identifier()
            if not name:
                raise self.fail(f"unexpected {self.text[self.at]!r}")
            self.skip(newlines=False)
            if self.text.startswith("=", self.at) and not self.text.startswith("==", self.at):
                self.at += 1
                attributes[name] = self.value(depth + 1)
                continue
            labels = []
            while self.text.startswith('"', self.at):
                labels.append(str(self.string().value))
                self.skip(newlines=False)
            if not self.text.startswith("{", self.at):
                raise self.fail(f"{name}: expected = or {{")
            self.at += 1
            inner, nested = self.body(depth + 1, "}")
            blocks.append(Block(name, labels, inner, nested, self.index.span(start, self.at)))

    def string(self) -> Value:
        start = self.at
        self.at += 1
        parts: list[str] = []
        depth = 0  # inside ${ ... } a quote does not end the string
        while self.at < len(self.text):
            char = self.text[self.at]
            if char == "\\" and self.at + 1 < len(self.text):
                escaped = self.text[self.at + 1]
                parts.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(escaped, "\\" + escaped))
                self.at += 2
                continue
            if char == "\n" and depth == 0:
                raise self.fail("a string is not closed on its line")
            if self.text.startswith("${", self.at):
                depth += 1
            elif char == "}" and depth:
                depth -= 1
            elif char == '"' and depth == 0:
                self.at += 1
                return Value("".join(parts), self.index.span(start, self.at))
            parts.append(char)
            self.at += 1
        raise self.fail("a string is not closed")

    def heredoc(self) -> Value:
        self.at += 2
        indented = self.text.startswith("-", self.at)
        self.at += indented
        marker = self.identifier()
        line_end = self.text.find("\n", self.at)
        if not marker or line_end < 0:
            raise self.fail("a heredoc needs a marker and a body")
        body_start = line_end + 1
        position = body_start
        while position <= len(self.text):
            end = self.text.find("\n", position)
            end = len(self.text) if end < 0 else end
            if self.text[position:end].strip() == marker:
                self.at = end
                body = self.text[body_start:position]
                return Value(body, self.index.span(body_start, position))
            position = end + 1
        raise self.fail(f"heredoc {marker} is not closed")

    def value(self, depth: int) -> Value:
        if depth > MAX_DEPTH:
            raise self.fail(f"values nested deeper than {MAX_DEPTH}")
        self.skip(newlines=False)
        text, start = self.text, self.at
        if text.startswith('"', start):
            return self.string()
        if text.startswith("<<", start):
            return self.heredoc()
        if text.startswith("[", start):
            self.at += 1
            items: list[Value] = []
            while True:
                self.skip()
                if text.startswith("]", self.at):
                    self.at += 1
                    return Value(items, self.index.span(start, self.at))
                before = self.at
                items.append(self.value(depth + 1))
                self.skip()
                if text.startswith(",", self.at):
                    self.at += 1
                elif self.at == before or not text.startswith("]", self.at):
                    raise self.fail("a list item must be followed by , or ]")
        if text.startswith("{", start):
            self.at += 1
            entries: dict[str, Value] = {}
            while True:
                self.skip()
                if text.startswith("}", self.at):
                    self.at += 1
                    return Value(entries, self.index.span(start, self.at))
                key_start = self.at
                key = str(self.string().value) if text.startswith('"', self.at) else self.identifier()
                key_span = self.index.span(key_start, self.at)
                if not key:
                    raise self.fail("a map key was expected")
                self.skip(newlines=False)
                if not text.startswith(("=", ":"), self.at):
                    raise self.fail(f"{key}: expected = in a map")
                self.at += 1
                item = self.value(depth + 1)
                entries[key] = item._replace(key_span=key_span)
                self.skip(newlines=False)
                if text.startswith(",", self.at):
                    self.at += 1
                elif not text.startswith(("\n", "}", "#", "//", "/*"), self.at) and self.at < len(text):
                    raise self.fail(f"{key}: a map entry must end at , or a new line")
        # a number, a boolean, or an expression: up to the end of the line, a comma or a closer
        end = start
        nesting = 0
        while end < len(text) and (nesting or text[end] not in "\n,}]#"):
            nesting += text[end] in "([{"
            nesting -= text[end] in ")]}" and nesting > 0
            end += 1
        self.at = end
        word = text[start:end].strip()
        if word in ("true", "false"):
            return Value(word == "true", self.index.span(start, start + len(word)))
        literal = word.replace(".", "", 1).lstrip("-").isdigit()
        return Value(word, self.index.span(start, start + len(word)), expression=not literal)


def read_hcl(text: str, path: str) -> list[Block]:
    """The file's top-level blocks; a syntax it cannot follow is a LoadError at its line."""
    _, blocks = _Parser(text, path).body(0, None)
    return blocks


def read_value_at(text: str, path: str, offset: int) -> Value:
    """The value written at `offset` (the object a `yamlencode({...})` call is given, say), with
    spans in the whole text; a syntax it cannot follow is a LoadError at its line."""
    parser = _Parser(text, path)
    parser.at = offset
    return parser.value(1)
