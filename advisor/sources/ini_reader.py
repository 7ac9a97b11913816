"""librdkafka properties kept as kcat and C programs keep them (`kcat.conf`, `librdkafka.config`:
`key=value` lines) and as Python programs do with configparser (`[default]`, `[producer]`,
`[consumer]` sections): a Located mapping with exact spans, for the client-dict reader.

Keys before any section are the file's own (kcat's form). A `[default]` section (configparser's
DEFAULT as confluent-kafka's examples use it) is merged below each role section, as the
programs merge it; with no role section it is the file's mapping. Lines that are neither a
comment, a section nor `key = value` / `key: value` are kept in `unparsed` for the loader to
report: such a file is not silently half-read.
"""

from __future__ import annotations

from advisor import lazy_re
from advisor.sources.spans import LineIndex, Located

_SECTION = lazy_re.compile(r"^\s*\[(?P<name>[^\]]+)\]\s*$")
_PAIR = lazy_re.compile(r"^(?P<indent>\s*)(?P<key>[^=:\s][^=:]*?)\s*[=:]\s*(?P<value>.*?)\s*$")
_DEFAULT_SECTIONS = ("default", "DEFAULT", "global")


class IniDocument(Located):
    """The mapping, plus the lines that did not parse (line numbers)."""

    def __init__(self) -> None:
        super().__init__()
        self.unparsed: list[int] = []
        self.sectioned = False


def _add(mapping: Located, key: str, value: str, key_span, value_span) -> None:  # type: ignore[no-untyped-def]
    if key in mapping:
        mapping.duplicates.append((key, mapping.key_spans[key]))
    mapping[key] = value
    mapping.key_spans[key] = key_span
    mapping.value_spans[key] = value_span


def read_ini(text: str, path: str) -> IniDocument:
    index = LineIndex(text)
    document = IniDocument()
    sections: dict[str, Located] = {}
    current: Located = document
    offset = 0
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        start, offset = offset, offset + len(line)
        body = line.rstrip("\r\n")
        stripped = body.strip()
        if not stripped or stripped[0] in "#;":
            continue
        section = _SECTION.match(body)
        if section:
            name = section["name"].strip()
            current = sections.setdefault(name, Located())
            current.line = number
            document.sectioned = True
            continue
        pair = _PAIR.match(body)
        if pair is None:
            document.unparsed.append(number)
            continue
        key_at, value_at = start + pair.start("key"), start + pair.start("value")
        key_span = index.span(key_at, key_at + len(pair["key"]))
        value_span = index.span(value_at, value_at + len(pair["value"]))
        _add(current, pair["key"], pair["value"], key_span, value_span)
    defaults = next((sections.pop(name) for name in _DEFAULT_SECTIONS if name in sections), None)
    if defaults is not None and not sections:
        for key in defaults:
            _add(document, key, defaults[key], defaults.key_spans[key], defaults.value_spans[key])
    for name, mapping in sections.items():
        merged = Located()
        merged.line = mapping.line
        for source in (defaults, mapping):
            if source is None:
                continue
            for key in source:
                _add(merged, key, source[key], source.key_spans[key], source.value_spans[key])
        document[name] = merged
        document.key_spans[name] = index.span(index.starts[mapping.line - 1], index.starts[mapping.line - 1])
    return document
