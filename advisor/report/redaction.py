"""The one redaction layer: every string a Report carries to a formatter, the terminal, a
baseline or an `-o` file has the run's secret values hidden.

Secret values are gathered once per run from what was read: every setting a loader marked
secret (its value and its text as written), and every value that is secret by key, shape or
context in each input file's text (advisor/secrets.secret_values: flow-style maps, env
`name:`/`value:` pairs, URL user info, JAAS, flags, PEM blocks) — including files that failed
to load, whose error messages must not quote them either. Readers and rules redact at the
source too; this layer is what makes a miss there harmless.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from functools import cache

from advisor import TYPE_CHECKING
from advisor.model.document import Document, Problem
from advisor.model.findings import Finding, Fix
from advisor.report.model import Report
from advisor.secrets import Redactor, Scanned, is_word, scan

if TYPE_CHECKING:
    from typing import Any


def run_secrets(document: Document, texts: Iterable[str], scanned: Mapping[str, Scanned] | None = None) -> Redactor:
    """The run's Redactor. `scanned`: texts already scanned (by the processes that read a large
    walk), each found there as here."""
    values: set[str] = set()
    urls = False
    for config_set in document.config_sets:
        for setting in config_set.settings.values():
            if setting.secret:
                values.add(setting.value)
                if setting.raw:
                    values.add(setting.raw)
    consulted = [text for source in document.files for text in source.consulted.values()]
    unique = {id(text): text for text in [*texts, *(source.text for source in document.files), *consulted]}  # read once
    known = scanned or {}
    for text in unique.values():
        found = known.get(text) or scan(text)
        values |= found.values
        urls = urls or found.urls
    words = {value for value in values if is_word(value)}
    return Redactor(values, urls, _tool_words() & frozenset(words) if words else frozenset())


@cache
def _tool_words() -> frozenset[str]:
    """Every lower-case word of the rules' own texts (summaries, messages, recommendations,
    rationales): what a report prints whatever the inputs say."""
    from advisor.rules.registry import load_rules

    found: set[str] = set()
    for rule in load_rules():
        definition = rule.definition
        for text in (definition.summary, definition.message, definition.recommended, definition.rationale):
            found.update(re.findall(r"[a-z]+(?:-[a-z]+)*", text or ""))
    return frozenset(found)


def _finding(finding: Finding, hide: Callable[[str], str]) -> Finding:
    fix = finding.fix
    shown = {
        "message": hide(finding.message),
        "subject": hide(finding.subject),
        "recommended": hide(finding.recommended) if finding.recommended else finding.recommended,
        "justification": hide(finding.justification),
        "fix": Fix(hide(fix.value), fix.applicability) if fix is not None else None,
        "changes": tuple(_hidden_change(c, hide) for c in finding.changes),
        "assumptions": tuple(hide(a) for a in finding.assumptions),
        "keys": tuple(hide(key) for key in finding.keys),  # a metric finding's: the series, labels and all
        "location": _hidden_place(finding.location, hide),
        "related": tuple(_hidden_place(place, hide) for place in finding.related),
    }
    if all(value == getattr(finding, name) for name, value in shown.items()):
        return finding  # nothing secret in it: most findings of a large run, kept without a copy
    return finding._replace(**shown)


def _hidden_place(place, hide: Callable[[str], str]):  # type: ignore[no-untyped-def]
    """A metric sample's series as written (its labels may quote anything); other places keep paths only."""
    if place.kind != "metric":
        return place
    series = hide(place.series)
    return place if series == place.series else place._replace(series=series)


def _hidden_change(change, hide: Callable[[str], str]):  # type: ignore[no-untyped-def]
    if not change.value:
        return change
    value = hide(change.value)
    return change if value == change.value else change._replace(value=value)


def _problem(problem: Problem, hide: Redactor) -> Problem:
    return problem._replace(message=hide(problem.message))


def _shown(finding: Finding) -> list[str]:
    """Every string of a finding that _finding passes through `hide`."""
    texts = [finding.message, finding.subject, finding.recommended or "", finding.justification or ""]
    if finding.fix is not None:
        texts.append(finding.fix.value)
    if finding.changes:
        texts += [change.value for change in finding.changes if change.value]
    if finding.assumptions:
        texts += finding.assumptions
    texts += finding.keys
    texts += [place.series for place in finding.locations if place.kind == "metric"]
    return texts


def tree(value: Any, hide: Callable[[str], str]) -> Any:
    """A JSON-shaped record with every string passed through `hide` (advise's plan and steps)."""
    return _hidden_tree(value, hide)


def _hidden_tree(value: Any, hide: Callable[[str], str]) -> Any:
    """A JSON-shaped record (the flow view) with every string passed through `hide`."""
    if isinstance(value, str):
        return hide(value)
    if isinstance(value, dict):
        return {hide(k) if isinstance(k, str) else k: _hidden_tree(v, hide) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_hidden_tree(item, hide) for item in value]
    return value


def redact(report: Report, hide: Redactor) -> Report:
    """The report with every shown string passed through `hide`."""
    if hide.empty:
        return report
    shown = [_shown(finding) for finding in report.findings]
    lines = [text for numbered in report.lines.values() for text in numbered.values()]
    changed = hide.many([text for texts in shown for text in texts] + lines)

    def hide_known(text: str) -> str:  # hide's answer for the findings' strings and lines, looked up
        return changed.get(text, text)

    findings = report.findings
    if changed:
        findings = [
            f if changed.keys().isdisjoint(texts) else _finding(f, hide_known)
            for f, texts in zip(findings, shown, strict=True)
        ]
    return report._replace(
        findings=findings,
        problems=[_problem(p, hide) for p in report.problems],
        skipped=[_problem(p, hide) for p in report.skipped],
        lines={path: {n: hide_known(text) for n, text in numbered.items()} for path, numbered in report.lines.items()},
        diff=hide(report.diff),
        flow=_hidden_tree(report.flow, hide) if report.flow is not None else None,
        fixes=[
            plan._replace(
                edits=tuple(edit._replace(text=hide(edit.text)) for edit in plan.edits),
                skipped=tuple(c._replace(value=hide(c.value)) if c.value else c for c in plan.skipped),
            )
            for plan in report.fixes
        ],
    )
