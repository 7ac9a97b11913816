"""Fixes as edits: a finding's Change becomes Edits of its file through the writer of the
file's format (the inverse of its loader), applied without overlap. Only a plan here: `lint
--diff` shows it; nothing is written to any input.

Writers so far: `.properties` (fix/properties_writer.py). Other formats' Changes are kept
in the report but give no edit yet.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import replace as dc_replace
from typing import NamedTuple

from advisor.fix import properties_writer
from advisor.model.changes import Change, Edit
from advisor.model.document import ConfigSet, Document, Setting
from advisor.model.findings import Finding
from advisor.secrets import is_secret_key, redact_line

WRITERS = {"properties": properties_writer.edits}


class FilePlan(NamedTuple):
    path: str
    edits: tuple[Edit, ...]
    skipped: tuple[Change, ...]  # Changes that overlapped an earlier one


def plan(findings: Iterable[Finding], document: Document, applicability: tuple[str, ...] = ("safe",)) -> list[FilePlan]:
    """The edits of every unsuppressed finding's Changes of the given applicability."""
    return plan_changes((c for f in findings if not f.suppressed for c in f.changes), document, applicability)


def plan_changes(
    changes: Iterable[Change],
    document: Document,
    applicability: tuple[str, ...] = ("safe",),
    join_inserts: bool = False,
) -> list[FilePlan]:
    """The edits of Changes of the given applicability, per file, in file order; a Change whose
    edits overlap an earlier one's is skipped (the next run will propose it again against the
    changed text). With `join_inserts`, inserts at one place are joined in the Changes' order
    instead (a caller whose order is meaningful: recommend). Changes to formats without a writer
    give no edit."""
    sets: dict[tuple[str, str], ConfigSet] = {(cs.path, cs.name): cs for cs in document.config_sets}
    sources = {source.path: source for source in document.files}
    per_file: dict[str, list[tuple[Change, list[Edit]]]] = {}
    for change in changes:
        source = sources.get(change.path)
        writer = WRITERS.get(source.format) if source is not None else None
        config_set = sets.get((change.path, change.subject))
        if change.applicability not in applicability or writer is None or config_set is None:
            continue
        per_file.setdefault(change.path, []).append((change, writer(change, config_set, sources[change.path].text)))
    plans = []
    for path, proposed in sorted(per_file.items()):
        taken: list[Edit] = []
        skipped: list[Change] = []
        for change, edits in proposed:
            if join_inserts and edits and all(e.start == e.end for e in edits):
                edits = [e for e in edits if not _join(e, taken)]
                if not edits:
                    continue
            if not edits or any(_overlap(edit, other) for edit in edits for other in taken):
                skipped.append(change)
                continue
            taken += edits
        plans.append(FilePlan(path, tuple(sorted(taken, key=_order)), tuple(skipped)))
    return plans


def applied(document: Document, changes: Iterable[Change]) -> Document:
    """A copy of the document with the Changes made to its config sets, in Kafka's terms (the
    value as Kafka receives it): the "after" of a before/after check, for re-running the same
    rules. Files are not touched; config sets without a change are shared, not copied."""
    by_set: dict[tuple[str, str], list[Change]] = {}
    for change in changes:
        by_set.setdefault((change.path, change.subject), []).append(change)
    sets = []
    for config_set in document.config_sets:
        own = by_set.get((config_set.path, config_set.name))
        if not own:
            sets.append(config_set)
            continue
        copy = dc_replace(config_set, settings=dict(config_set.settings), facts=dict(config_set.facts))
        for change in own:
            if change.action == "remove":
                copy.settings.pop(change.key, None)
                continue
            written = copy.settings.get(change.key)
            location = written.location if written is not None else config_set.anchor
            spelling = written.spelling if written is not None else change.key
            copy.settings[change.key] = Setting(
                change.key, change.value or "", spelling, location, is_secret_key(change.key)
            )
        sets.append(copy)
    members: dict[str | None, list[ConfigSet]] = {}
    for config_set in sets:
        members.setdefault(config_set.cluster, []).append(config_set)
    clusters = {cid: dc_replace(c, members=members.get(cid, [])) for cid, c in document.clusters.items()}
    after = dc_replace(document, config_sets=sets, clusters=clusters)
    after.reindex()
    return after


def _order(edit: Edit) -> tuple[int, int, str]:
    return (edit.start, edit.end, edit.text)


def _join(insert: Edit, taken: list[Edit]) -> bool:
    """Append an insert to a taken insert at the same place; False when there is none."""
    for index, other in enumerate(taken):
        if other.start == other.end == insert.start:
            taken[index] = other._replace(text=other.text + insert.text)
            return True
    return False


def _overlap(a: Edit, b: Edit) -> bool:
    if a.start == a.end == b.start == b.end:
        return True  # two inserts at one place: their order would be a guess
    return a.start < b.end and b.start < a.end


def apply(text: str, edits: Iterable[Edit]) -> str:
    """The text with non-overlapping edits applied (from the end, so offsets stay valid)."""
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        text = text[: edit.start] + edit.text + text[edit.end :]
    return text


def unified_diff(plans: Iterable[FilePlan], document: Document) -> str:
    """A unified diff of the plans, every line redacted: a diff shows context lines, and a
    secret is never shown, so it is for reading, not for `patch`."""
    texts = {source.path: source.text for source in document.files}
    out: list[str] = []
    for file_plan in plans:
        if not file_plan.edits:
            continue
        before = texts[file_plan.path]
        after = apply(before, file_plan.edits)
        old = [redact_line(line) + "\n" for line in before.splitlines()]
        new = [redact_line(line) + "\n" for line in after.splitlines()]
        absolute = file_plan.path.startswith("/")
        before_name, after_name = (file_plan.path,) * 2 if absolute else (f"a/{file_plan.path}", f"b/{file_plan.path}")
        out += difflib.unified_diff(old, new, before_name, after_name)
    return "".join(out)
