"""`diff` as text and JSON: the configuration changes (written and effective), then the findings
the change introduces (as lint shows them) and the ones it resolves."""

from __future__ import annotations

import json
from typing import Any

from advisor.diff.compare import Change
from advisor.model.findings import Finding
from advisor.output import inert

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


def to_json(changes: list[Change], introduced: list[Finding], resolved: list[Finding], exit_code: int) -> str:
    document: dict[str, Any] = {
        "changes": [c.to_dict() for c in changes],
        "introduced": [f.to_dict() for f in introduced],
        "resolved": [f.to_dict() for f in resolved],
        "summary": {
            "changes": len(changes),
            "introduced": len(introduced),
            "resolved": len(resolved),
            "exit_code": exit_code,
        },
    }
    return json.dumps(document, indent=2) + "\n"
