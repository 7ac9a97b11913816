"""GitHub Actions workflow commands: annotations on the pull request's changed lines."""

from __future__ import annotations

from collections.abc import Sequence

from advisor.model.findings import Finding

COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def render(findings: Sequence[Finding], errors: Sequence[str]) -> str:
    lines = []
    for finding in findings:
        if finding.suppressed:
            continue
        title = _property(f"{finding.rule} {finding.name}")
        message = finding.message + (f" (recommended: {finding.recommended})" if finding.recommended else "")
        lines.append(
            f"::{COMMANDS[finding.severity]} file={_property(finding.path)},line={finding.line},"
            f"col={finding.column},title={title}::{_data(message)}"
        )
    for error in errors:
        path, _, rest = error.partition(":")
        line, _, message = rest.partition(":")
        location = f"file={_property(path)},line={line}," if line.isdigit() else ""
        lines.append(f"::error {location}title=kafka-advisor::{_data(message.strip() if line.isdigit() else error)}")
    return "\n".join(lines) + ("\n" if lines else "")
