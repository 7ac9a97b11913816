"""The `.properties` writer: the inverse of sources/properties.py. A Change on a config set read
from a `.properties` file becomes Edits of its text that java.util.Properties reads back as the
changed value, and that touch nothing else (comments, order, other keys' spelling stay).

set a written key     its value span is replaced (continuations included) by the escaped value
set an absent key     `key=value` is appended as a new line at the end of the file, in the file's
                      line endings, a missing final newline still missing
remove a written key  its whole logical line goes, with its line break
"""

from __future__ import annotations

from advisor.model.changes import Change, Edit
from advisor.model.document import ConfigSet

_SPECIAL = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\f": "\\f"}


def escape_value(value: str) -> str:
    """What Properties.load reads back as `value`: backslashes and control characters escaped,
    a leading space kept by escaping it."""
    text = "".join(_SPECIAL.get(char, char) for char in value)
    return "\\" + text if text.startswith(" ") else text


def escape_key(key: str) -> str:
    """A key Properties.load reads back whole: separators and spaces escaped, and a leading
    comment character."""
    text = "".join(_SPECIAL.get(char, "\\" + char if char in " =:" else char) for char in key)
    return "\\" + text if text.startswith(("#", "!")) else text


def edits(change: Change, config_set: ConfigSet, text: str) -> list[Edit]:
    """The Edits of one Change; none when the file does not say where (no spans)."""
    setting = config_set.settings.get(change.key)
    if change.action == "remove":
        if setting is None or setting.location.offset is None:
            return []
        start = text.rfind("\n", 0, setting.location.offset) + 1
        span = setting.value_location
        end = span.end_offset if span is not None and span.end_offset is not None else setting.location.end_offset
        end = end if end is not None else start
        newline = text.find("\n", end)
        return [Edit(change.path, start, len(text) if newline == -1 else newline + 1, "")]
    value = escape_value(change.value or "")
    if setting is not None:
        span = setting.value_location
        if span is None or span.offset is None or span.end_offset is None:
            return []
        return [Edit(change.path, span.offset, span.end_offset, value)]
    ending = "\r\n" if "\r\n" in text else "\r" if "\r" in text and "\n" not in text else "\n"  # the file's own
    entry = f"{escape_key(change.key)}={value}"
    if not text or text.endswith(("\n", "\r")):
        return [Edit(change.path, len(text), len(text), f"{entry}{ending}")]
    return [Edit(change.path, len(text), len(text), f"{ending}{entry}")]  # a file without a final newline stays so
