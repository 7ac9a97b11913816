"""`diff` as text: the configuration changes (written and effective), then the findings the change
introduces (as lint shows them) and the ones it resolves; in a CI format, the introduced findings."""

from __future__ import annotations

from collections.abc import Callable

from advisor.diff.compare import Change
from advisor.model.findings import Finding
from advisor.output import RenderOptions, inert
from advisor.output import render as lint_render
from advisor.report.diff_report import DiffReport

_VERBS = {"changed": "changed  ", "added": "added    ", "removed": "removed  ", "effective": "effective"}


def _value(value: str | None) -> str:
    return "(absent)" if value is None else "(no default)" if value == "" else inert(value)


def changes_text(changes: list[Change]) -> str:
    if not changes:
        return "No configuration change.\n"
    lines = ["Configuration changes:"]
    current = None
    for change in changes:
        heading = f"  {inert(change.path)} [{change.component} {inert(change.subject)}]"
        if heading != current:
            lines.append(heading)
            current = heading
        if change.kind == "added":
            detail = f"{inert(change.key)} = {_value(change.new)}"
        elif change.kind == "removed":
            detail = f"{inert(change.key)} (was {_value(change.old)})"
        else:
            detail = f"{inert(change.key)}: {_value(change.old)} → {_value(change.new)}"
        lines.append(f"    {_VERBS[change.kind]} {detail}" + (f"  ({change.why})" if change.why else ""))
    return "\n".join(lines) + "\n"


def resolved_text(resolved: list[Finding]) -> str:
    if not resolved:
        return ""
    lines = [f"Resolved by the change: {len(resolved)} finding(s)"]
    lines += [f"  {f.rule} {inert(f.message)}" for f in resolved]
    return "\n".join(lines) + "\n"


def render(diff: DiffReport, options: RenderOptions) -> str:
    introduced = diff.introduced.findings
    out = [changes_text(diff.changes), f"\nIntroduced by the change: {len(introduced)} finding(s)\n"]
    if introduced:
        out.append(lint_render(diff.introduced, "text", options))
    return "".join([*out, resolved_text(diff.resolved)])


def _introduced(fmt: str) -> Callable[[DiffReport, RenderOptions], str]:
    """A CI format's diff: the findings the change introduces, as lint writes them."""
    return lambda diff, options: lint_render(diff.introduced, fmt, options)


sarif, junit, github = _introduced("sarif"), _introduced("junit"), _introduced("github")
html = _introduced("html")  # the findings the change introduces, as lint's page
