"""Proof that an edit does what it claims: the edited text read back by the same loader that read
the file gives the changed values and nothing else changes — no other key, no other config set,
no new error. A writer's candidate that fails is dropped (the change stays a snippet)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from advisor.model.changes import Change
from advisor.model.document import SourceFile

State = dict[str, dict[str, str]]  # config set name → key → value


def state(source: SourceFile, text: str, options: Any, names: Iterable[str] = ()) -> State | None:
    """What the file's loader reads from `text`: every config set's values; None when it cannot
    read it (or reads it as something else). A text left with nothing but comments holds the sets
    `names` with no settings (a loader does not claim an empty file)."""
    from advisor.model.document import LoadError
    from advisor.sources import reread

    if names and all(not line.strip() or line.lstrip().startswith(("#", "!")) for line in text.splitlines()):
        return {name: {} for name in names}
    try:
        read, config_sets = reread(source, text, options)
    except LoadError:  # the candidate is no longer read as this file: disproved (a loader's bug is plan()'s to say)
        return None
    if read.format != source.format:
        return None
    found: State = {}
    for config_set in config_sets:
        if config_set.name in found:
            return None  # two sets of one name: which changed could not be told
        found[config_set.name] = {key: setting.value for key, setting in config_set.settings.items()}
        flags = (config_set.facts.get("command") or {}).get("flags") or {}
        found[config_set.name] |= {flag: value for flag, value in flags.items() if isinstance(value, str)}
    return found


def same_value(a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return a is b
    if a.strip() == b.strip():
        return True
    try:
        return float(a) == float(b)
    except ValueError:
        return a.strip().lower() == b.strip().lower() and a.strip().lower() in ("true", "false")


def explained(before: State, after: State, pending: list[Change]) -> list[Change] | None:
    """The pending Changes the difference between two states makes (the first of them always among
    them); None when anything else differs or the first is not made."""
    if before.keys() != after.keys():
        return None
    made: list[Change] = []
    for name, old in before.items():
        new = after[name]
        for key in old.keys() | new.keys():
            if same_value(old.get(key), new.get(key)) and (key in old) == (key in new):
                continue
            match = next((c for c in pending if c.subject == name and c.key == key and _made(c, new)), None)
            if match is None:
                return None
            made.append(match)
    return made if pending and pending[0] in made else None


def _made(change: Change, values: dict[str, str]) -> bool:
    if change.action == "remove":
        return change.key not in values
    return change.key in values and same_value(values[change.key], change.value or "")
