"""The shell writer: a Change of a command-line flag's value (`--throttle` of a
kafka-reassign-partitions call) becomes the Edit of that value where the script writes it — a
literal after the flag, on the line the reader found it (`--throttle 40000000` or
`--throttle=40000000`). A value built from a variable, quoted or continued elsewhere gets no edit:
the report says the fix is not written (fix/__init__.py `unwritten`)."""

from __future__ import annotations

import re

from advisor import lazy_re
from advisor.model.changes import Change, Edit
from advisor.model.document import ConfigSet

_PLAIN = lazy_re.compile(r"^[\w.:/+-]+$")  # a literal word: no variable, quote, glob or escape


def edits(change: Change, config_set: ConfigSet, text: str) -> list[Edit]:
    """The Edit of one flag's value; none when the change is no flag's, or the value is not a literal."""
    command = config_set.facts.get("command") or {}
    line = (command.get("flag_lines") or {}).get(change.key)
    if (
        change.action != "set"
        or not change.key.startswith("--")
        or line is None
        or not _PLAIN.match(change.value or "")
    ):
        return []
    lines = text.splitlines(keepends=True)
    if not 1 <= line <= len(lines):
        return []
    start = sum(len(earlier) for earlier in lines[: line - 1])
    pattern = re.compile(rf"(?<![\w-]){re.escape(change.key)}(?:[ \t]+|=)(\S+)")  # only when a fix is planned
    found = list(pattern.finditer(lines[line - 1]))
    if len(found) != 1 or not _PLAIN.match(found[0].group(1)):
        return []
    return [Edit(change.path, start + found[0].start(1), start + found[0].end(1), change.value or "")]
