"""Fixes as edits: a finding's Change becomes Edits of its file through the writer of the
file's format (the inverse of its loader), applied without overlap, and kept only when the
edited text read back by that loader gives the changed value and changes nothing else
(fix/readback.py). Only a plan here: `lint --diff` and `recommend --diff` show it; nothing is
written to any input.

Writers: `.properties` (fix/properties_writer.py, proven against java.util.Properties) and every
other format the loaders read with spans (fix/structured_writer.py: YAML, JSON, TOML, `.env`).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from typing import Any

from advisor.fix import properties_writer, readback, shell_writer, structured_writer
from advisor.model.changes import Change, Edit
from advisor.model.document import ConfigSet, Document, Setting, SourceFile
from advisor.model.findings import Finding
from advisor.model.provenance import Location
from advisor.named_tuple import NamedTuple
from advisor.secrets import is_secret_key, redact_line
from advisor.sources import readers


def _writer(source: SourceFile) -> str | None:
    """The writer its reader declares (sources/readers.py); None: no writer makes its Changes
    (a reassignment plan, JVM options, shell command lines built from variables are not key/value text)."""
    reader = readers.BY_FORMAT.get(source.format)
    return reader.writer if reader is not None else None


class FilePlan(NamedTuple):
    path: str
    edits: tuple[Edit, ...]
    skipped: tuple[Change, ...]  # Changes that overlapped an earlier one, or no edit could be proven
    held: tuple[tuple[Change, int, str], ...] = ()  # never made by a fix: (change, its line, why)


def held_back(setting: Setting | None, sharing: int) -> str | None:
    """Why a value is never written by a fix, or None: a secret (never shown, never rewritten), a
    template (the expression would be lost to a literal), or one value several config sets share
    through a YAML anchor, alias or merge key (`sharing`: how many settings read that one span)."""
    if setting is None:
        return None
    written = setting.raw if setting.raw is not None else setting.value
    if setting.secret:
        return "its value is a secret"
    if "${" in written or "{{" in written:
        return "its value is a template: a fix would replace the expression with a literal"
    if sharing > 1:
        return f"its value is shared by {sharing} settings through a YAML anchor, alias or merge key"
    return None


def unwritten(file_plan: FilePlan, document: Document) -> list[tuple[Change, int | None, str]]:
    """Every Change of the plan no edit makes, with the line of its setting and why: held back, or
    no edit of the file could be proven to make it (a value read through another file, an entry no
    writer reaches) — said, never a silent pass."""
    sets = {(cs.path, cs.name): cs for cs in document.config_sets}
    found: list[tuple[Change, int | None, str]] = [(change, line, why) for change, line, why in file_plan.held]
    for change in file_plan.skipped:
        config_set = sets.get((change.path, change.subject))
        written = config_set.settings.get(change.key) if config_set is not None else None
        elsewhere = written is not None and written.location.path != change.path
        line = written.location.line if written is not None and not elsewhere else None
        where = f" (it is written in {written.location.path}:{written.location.line})" if elsewhere and written else ""
        found.append((change, line, f"no edit of this file could be proven to make it{where}; change it by hand"))
    return found


def plan(findings: Iterable[Finding], document: Document, applicability: tuple[str, ...] = ("safe",)) -> list[FilePlan]:
    """The edits of every unsuppressed finding's Changes of the given applicability."""
    return plan_changes((c for f in findings if not f.suppressed for c in f.changes), document, applicability)


def _candidates(change: Change, config_set: ConfigSet, source: SourceFile) -> Iterator[list[Edit]]:
    writer = _writer(source)
    if writer in ("properties_writer", "shell_writer"):
        module = properties_writer if writer == "properties_writer" else shell_writer
        edits = module.edits(change, config_set, source.text)
        if edits:
            yield edits
        return
    yield from structured_writer.candidates(change, config_set, source)


def plan_changes(
    changes: Iterable[Change],
    document: Document,
    applicability: tuple[str, ...] = ("safe",),
    join_inserts: bool = False,
    options: Any = None,
) -> list[FilePlan]:
    """The edits of Changes of the given applicability, per file, in file order. A Change is made
    by the first of its writer's candidates that does not overlap an edit already taken and that
    reading the edited file back proves (`options`: what the file was loaded with); one edit that
    makes several pending Changes at once (a value a YAML anchor shares) makes them all. Otherwise
    it is skipped (the next run proposes it again against the changed text). With `join_inserts`,
    inserts at one place are joined in the Changes' order instead of overlapping (a caller whose
    order is meaningful: recommend)."""
    from advisor.sources import LoadOptions

    options = options or document.options or LoadOptions()
    sets: dict[tuple[str, str], ConfigSet] = {(cs.path, cs.name): cs for cs in document.config_sets}
    sources = {source.path: source for source in document.files}
    per_file: dict[str, list[Change]] = {}
    no_writer: dict[str, list[Change]] = {}
    for change in changes:
        source = sources.get(change.path)
        if change.applicability not in applicability or (change.path, change.subject) not in sets:
            continue
        if source is None:
            continue
        (per_file if _writer(source) is not None else no_writer).setdefault(change.path, []).append(change)
    ordered = sorted(per_file.items())
    plans = [_plan_file(sources[path], proposed, sets, join_inserts, options) for path, proposed in ordered]
    for path, proposed in sorted(no_writer.items()):  # said, never a silent pass: no edit of this format is made
        why = f"no fix is written into a {sources[path].format} file; change it by hand"
        held = tuple((c, _line(sets[(c.path, c.subject)], c.key), why) for c in proposed)
        plans.append(FilePlan(path, (), (), held))
    return sorted(plans, key=lambda p: p.path)


def _line(config_set: ConfigSet, key: str) -> int:
    written = config_set.settings.get(key)
    if written is not None and written.location.path == config_set.path and written.location.line:
        return written.location.line
    return config_set.anchor.line or 1


def _plan_file(source: SourceFile, proposed: list[Change], sets: dict[tuple[str, str], ConfigSet],
               join_inserts: bool, options: Any) -> FilePlan:  # fmt: skip
    now = _as_read(source, options)
    if now is None:
        return FilePlan(source.path, (), tuple(proposed))
    taken: list[Edit] = []
    skipped: list[Change] = []
    done: list[Change] = []
    held: list[tuple[Change, int, str]] = []
    spans: dict[Location, int] = {}  # a value's span → how many settings of this file read it
    for config_set in {id(cs): cs for cs in sets.values() if cs.path == source.path}.values():
        for setting in config_set.settings.values():
            if setting.value_location is not None:
                spans[setting.value_location] = spans.get(setting.value_location, 0) + 1
    for index, change in enumerate(proposed):
        if change in done:
            continue
        written = sets[(change.path, change.subject)].settings.get(change.key)
        why = held_back(written, spans.get(written.value_location, 0) if written and written.value_location else 0)
        if why is not None and written is not None:
            held.append((change, written.location.line, why))
            continue
        pending = [c for c in proposed[index:] if c not in done]
        try:
            for edits in _candidates(change, sets[(change.path, change.subject)], source):
                merged = _merged(taken, edits, join_inserts)
                text = apply(source.text, merged) if merged is not None else None
                after = readback.state(source, text, options, now) if text is not None else None
                made = readback.explained(now, after, pending) if after is not None else None
                if made:
                    taken, now = merged, after  # type: ignore[assignment]
                    done += made
                    break
            else:
                skipped.append(change)
        except Exception as error:  # noqa: BLE001 - a writer's bug costs this change's edit, not the run
            writer_failed(change, error)
            skipped.append(change)
    return FilePlan(source.path, tuple(sorted(taken, key=_order)), tuple(skipped), tuple(held))


_READ: dict[int, tuple[SourceFile, Any, Any]] = {}  # id(source) → (source, options, its state as read)


def _as_read(source: SourceFile, options: Any) -> Any:
    """The file's state as its text reads (readback.state), once per file and options: advise plans
    the same file's edits step by step, each against the file as it is."""
    found = _READ.get(id(source))
    if found is None or found[0] is not source or found[1] is not options:
        found = (source, options, readback.state(source, source.text, options))
        _READ[id(source)] = found
    return found[2]


def writer_failed(change: Change, error: Exception) -> None:
    """A writer raised on this change (a bug: it should propose nothing instead). The change is
    skipped; tools/fuzz.py replaces this to record it."""


def _merged(taken: list[Edit], edits: list[Edit], join_inserts: bool) -> list[Edit] | None:
    """The taken edits with these added; None when one overlaps."""
    merged = list(taken)
    for edit in edits:
        if join_inserts and edit.start == edit.end and _join(edit, merged):
            continue
        if any(_overlap(edit, other) for other in merged):
            return None
        merged.append(edit)
    return merged


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
        copy = config_set._replace(settings=dict(config_set.settings), facts=dict(config_set.facts))
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
    clusters = {cid: c._replace(members=members.get(cid, [])) for cid, c in document.clusters.items()}
    after = document._replace(config_sets=sets, clusters=clusters)
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


def unified_diff(plans: Iterable[FilePlan], document: Document, context: int = 3) -> str:
    """A unified diff of the plans, every line redacted: a diff shows context lines, and a
    secret is never shown, so it is for reading, not for `patch`. `context`: lines around each change."""
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
        out += difflib.unified_diff(old, new, before_name, after_name, n=context)
    return "".join(out)
