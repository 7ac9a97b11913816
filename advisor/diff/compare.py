"""Pairing two versions' config sets and comparing them: written keys changed, added, removed, and
effective values that change with the release or the client though nothing was written."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from advisor.analysis.effective import defaults, written
from advisor.analysis.release import resolve_release
from advisor.model.document import ConfigSet, Document
from advisor.model.findings import Finding
from advisor.model.vocabulary import product_of
from advisor.named_tuple import NamedTuple


class Change(NamedTuple):
    path: str  # the file, relative to what was compared
    subject: str  # the config set: broker, topic, client
    component: str
    kind: str  # changed, added, removed, effective
    key: str
    old: str | None
    new: str | None
    why: str = ""  # effective changes: what moved the value

    def to_dict(self) -> dict[str, Any]:
        return self._asdict()


class Side(NamedTuple):
    """One version compared: its root, and the name its files go by when a file is compared with a
    file (both sides then go by the new file's name, whatever the old one is called)."""

    root: Path
    alias: str | None = None


def sides(old_root: Path, new_root: Path) -> tuple[Side, Side]:
    if old_root.is_file() and new_root.is_file():
        return Side(old_root, new_root.name), Side(new_root, new_root.name)
    return Side(old_root), Side(new_root)


def relative(path: str, side: Side) -> str:
    """A file's name relative to its side's root."""
    if side.alias is not None:
        return side.alias
    if side.root.is_file() or not side.root.exists():
        return Path(path).name
    return Path(os.path.relpath(Path(path).resolve(), side.root.resolve())).as_posix()


def _sets(document: Document, side: Side) -> dict[tuple[str, str, str], ConfigSet]:
    return {(relative(c.path, side), c.component, c.name): c for c in document.config_sets}


def _pairs(old: dict[tuple[str, str, str], ConfigSet], new: dict[tuple[str, str, str], ConfigSet]):  # type: ignore[no-untyped-def]
    """(old set or None, new set or None) by file, component and name; within a file, the one set
    of a component pairs with the other side's one even when its name changed (a file's name)."""
    paired = []
    rest_old, rest_new = dict(old), dict(new)
    for key in sorted(set(old) & set(new)):
        paired.append((rest_old.pop(key), rest_new.pop(key)))
    for key in sorted(rest_new):
        path, component, _ = key
        same = [k for k in rest_old if k[:2] == (path, component)]
        others = [k for k in rest_new if k[:2] == (path, component)]
        if len(same) == 1 and len(others) == 1:
            paired.append((rest_old.pop(same[0]), rest_new.pop(key)))
    paired += [(c, None) for c in rest_old.values()] + [(None, c) for c in rest_new.values()]
    return paired


def changes(
    old_document: Document, new_document: Document, old: Side, new: Side, kafka_version: str | None
) -> list[Change]:
    found: list[Change] = []
    for before, after in _pairs(_sets(old_document, old), _sets(new_document, new)):
        anchor = after or before
        assert anchor is not None
        path = relative(anchor.path, new if after else old)
        subject = anchor.name
        old_written = written(before) if before else {}
        new_written = written(after) if after else {}
        for key in sorted(set(old_written) | set(new_written)):
            was, now = old_written.get(key), new_written.get(key)
            if was == now:
                continue
            kind = "added" if was is None else "removed" if now is None else "changed"
            found.append(Change(path, subject, anchor.component, kind, key, was, now))
        if before and after:
            found += _effective(before, after, path, kafka_version)
    return found


def _effective(before: ConfigSet, after: ConfigSet, path: str, kafka_version: str | None) -> list[Change]:
    """Keys written alike (or not at all) on both sides whose effective value still moves: the
    release (or client) that judges the set changed its default."""
    old_release, new_release = resolve_release(before, kafka_version), resolve_release(after, kafka_version)
    if (old_release, before.client) == (new_release, after.client):
        return []
    old_defaults = defaults(before.component, before.client, old_release)
    new_defaults = defaults(after.component, after.client, new_release)
    written_before, written_after = written(before), written(after)
    product = product_of(after.component).capitalize()
    why = f"{product} {old_release} → {new_release}" if old_release != new_release else ""
    if before.client != after.client:
        why = ", ".join(part for part in (why, f"{before.client} → {after.client}") if part)
    found = []
    for key in sorted(set(old_defaults) & set(new_defaults)):  # a key new or gone in a release: lint says so
        if key in written_before or key in written_after:
            continue  # written: the text says what it is
        was, now = old_defaults[key], new_defaults[key]
        if was != now:
            found.append(Change(path, after.name, after.component, "effective", key, was, now, f"the default: {why}"))
    return found


def fingerprint(finding: Finding, side: Side) -> tuple[str, str, str, tuple[str, ...]]:
    """A finding by file (relative to its side's root), rule, config set and keys — never by line."""
    path = relative(finding.path, side) if finding.location.kind == "file" else finding.path
    subject = side.alias if side.alias is not None and finding.subject == Path(finding.path).name else finding.subject
    return (path, finding.rule, subject, tuple(sorted(finding.keys)))


def introduced_and_resolved(
    old_findings: Sequence[Finding], new_findings: Sequence[Finding], old: Side, new: Side
) -> tuple[list[Finding], list[Finding]]:
    before = {fingerprint(f, old) for f in old_findings if not f.suppressed}
    after = {fingerprint(f, new) for f in new_findings if not f.suppressed}
    introduced = [f for f in new_findings if not f.suppressed and fingerprint(f, new) not in before]
    resolved = [f for f in old_findings if not f.suppressed and fingerprint(f, old) not in after]
    return introduced, resolved
