"""SARIF 2.1.0 (valid against the official schema; tested), for code-scanning dashboards."""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from advisor import __version__, resources
from advisor.model.document import SourceFile
from advisor.model.findings import Finding
from advisor.rules import docs
from advisor.rules.registry import Rule
from advisor.secrets import redact_line

LEVELS = {"error": "error", "warning": "warning", "info": "note"}
SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


def help_uri(rule_id: str, docs_url: str | None) -> str:
    if docs_url:
        return f"{docs_url.rstrip('/')}/{rule_id}.md"
    return (resources.rule_docs_dir() / f"{rule_id}.md").resolve().as_uri()


def _artifact_uri(path: str) -> str:
    candidate = Path(path)
    return candidate.resolve().as_uri() if candidate.is_absolute() else candidate.as_posix()


def _rule_descriptor(rule: Rule, docs_url: str | None) -> dict:
    d = rule.definition
    return {
        "id": d.id,
        "name": d.name,
        "shortDescription": {"text": d.summary},
        "fullDescription": {"text": d.rationale},
        "help": {"text": f"{d.rationale} Recommended: {d.recommended}", "markdown": docs.rule_page(d)},
        "helpUri": help_uri(d.id, docs_url),
        "defaultConfiguration": {"level": LEVELS[d.severity]},
        "properties": {"category": d.category, "tags": [d.category, *d.applies_to.components]},
    }


def _fingerprint(finding: Finding, line_text: str, occurrence: int) -> str:
    """Stable across line moves: the rule, the file and the (redacted) text of the line."""
    digest = hashlib.sha256(f"{finding.rule}\0{finding.path}\0{line_text.strip()}".encode()).hexdigest()[:16]
    return f"{digest}:{occurrence}"


def render(
    findings: Sequence[Finding],
    rules: Sequence[Rule],
    files: Sequence[SourceFile],
    errors: Sequence[str],
    docs_url: str | None = None,
) -> str:
    index = {rule.definition.id: position for position, rule in enumerate(rules)}
    sources = {source.path: source for source in files}
    seen: dict[tuple[str, str], int] = defaultdict(int)
    results = []
    for finding in findings:
        if finding.rule not in index:
            continue
        source = sources.get(finding.path)
        line_text = ""
        if source is not None and 0 < finding.line <= len(source.lines):
            line_text = redact_line(source.lines[finding.line - 1])
        seen[(finding.rule, line_text)] += 1
        result = {
            "ruleId": finding.rule,
            "ruleIndex": index[finding.rule],
            "level": LEVELS[finding.severity],
            "message": {"text": finding.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": _artifact_uri(finding.path)},
                        "region": {"startLine": finding.line, "startColumn": finding.column},
                    }
                }
            ],
            "partialFingerprints": {
                "primaryLocationLineHash": _fingerprint(finding, line_text, seen[(finding.rule, line_text)])
            },
            "properties": {
                "keys": list(finding.keys),
                "component": finding.component,
                "client": finding.client,
                "recommended": finding.recommended,
            },
        }
        if finding.suppressed:
            result["suppressions"] = [{"kind": "inSource", "justification": finding.justification or "no reason given"}]
        results.append(result)
    notifications = [{"level": "error", "message": {"text": error}} for error in errors]
    run = {
        "tool": {
            "driver": {
                "name": "kafka-advisor",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": [_rule_descriptor(rule, docs_url) for rule in rules],
            }
        },
        "invocations": [{"executionSuccessful": not errors, "toolExecutionNotifications": notifications}],
        "results": results,
    }
    return json.dumps({"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}, indent=2) + "\n"
