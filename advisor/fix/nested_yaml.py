"""A key a Spring YAML tree does not write yet, inserted where Spring will read it: Spring flattens
a YAML tree to dotted keys, so `write.limit: 6700` under `flow-control:` is the same setting as the
nested form. The new entry goes just before the line of the existing entry that shares the most
of its path, at that line's indentation, named by the rest of its path. Only a plan: readback.py
keeps it when the file, read again, gives the value and changes nothing else.

Used for the Camunda pack's Spring trees (application.yaml), whose reader reads dotted and nested
keys alike; a Helm or Strimzi file, where a dotted key is a key of its own, never gets this edit.
"""

from __future__ import annotations

from collections.abc import Iterator

from advisor import lazy_re
from advisor.catalog import camunda as catalog
from advisor.model.changes import Change, Edit
from advisor.model.document import ConfigSet, SourceFile

_KEY_LINE = lazy_re.compile(r"^(?P<indent>[ ]*)(?:-[ ]+)?(?P<key>[^\s#:'\"][^:#]*?|'[^']*'|\"[^\"]*\"):(?:\s|$)")
MAX_CLIMB = 64  # lines looked at above an entry for the ones enclosing it


def _segments(key: str) -> list[str]:
    return [catalog.uniform(part) for part in key.split(".")]


def _lines(text: str) -> tuple[list[str], list[int]]:
    lines = text.splitlines(keepends=True)
    starts, at = [], 0
    for line in lines:
        starts.append(at)
        at += len(line)
    return lines, starts


def _key_of(line: str) -> tuple[int, str] | None:
    match = _KEY_LINE.match(line)
    return (len(match["indent"]), match["key"].strip("'\"")) if match else None


def nested_entry(change: Change, config_set: ConfigSet, source: SourceFile, value: str) -> Iterator[list[Edit]]:
    """Candidate inserts of `change.key: value`, the siblings sharing most of its path first."""
    wanted = _segments(change.key)
    lines, starts = _lines(source.text)
    ranked = []
    for setting in config_set.settings.values():
        where = setting.location
        if where.path != source.path or not where.line or where.line > len(lines) or setting.secret:
            continue
        have = _segments(setting.key)
        pairs = enumerate(zip(have, wanted, strict=False))
        shared = next((i for i, (a, b) in pairs if a != b), min(len(have), len(wanted)))
        if shared < len(wanted):
            ranked.append((-shared, where.line, len(have), shared))
    tried: set[int] = set()
    for _, line_number, depth, shared in sorted(ranked):
        anchor = _enclosing(lines, line_number - 1, depth, shared)
        if anchor is None or anchor[0] in tried:
            continue
        index, indent, first = anchor
        tried.add(index)
        newline = "\r\n" if lines[index].endswith("\r\n") else "\n"
        name = ".".join(change.key.split(".")[first:])
        yield [Edit(source.path, starts[index], starts[index], f"{' ' * indent}{name}: {value}{newline}")]


def _enclosing(lines: list[str], index: int, depth: int, shared: int) -> tuple[int, int, int] | None:
    """(line index, indentation, index of its first path segment) of the entry at or above `index`
    whose key begins at or before path segment `shared`: the new entry goes in the same mapping."""
    found = _key_of(lines[index])
    if found is None:
        return None
    indent, key = found
    first = depth - len(key.split("."))
    for _ in range(MAX_CLIMB):
        if first <= shared:
            return index, indent, max(first, 0)
        while True:  # the nearest line above that is less indented: the mapping this entry is in
            index -= 1
            if index < 0:
                return None
            above = _key_of(lines[index])
            if above is not None and above[0] < indent:
                break
        indent, key = above
        first -= len(key.split("."))
    return None
