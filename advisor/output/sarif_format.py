"""SARIF 2.1.0 (valid against the official schema; tested), for code-scanning dashboards."""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from pathlib import Path
from typing import Any
from urllib.parse import quote

from advisor import resources
from advisor.model.findings import Finding
from advisor.model.provenance import Location, Provenance
from advisor.output import RenderOptions
from advisor.report.model import Report
from advisor.rules import docs
from advisor.rules.spec import Definition

LEVELS = {"error": "error", "warning": "warning", "info": "note"}
SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


def help_uri(rule_id: str, docs_url: str | None) -> str:
    if docs_url:
        return f"{docs_url.rstrip('/')}/{rule_id}.md"
    return (resources.rule_docs_dir() / f"{rule_id}.md").resolve().as_uri()


def _artifact_uri(path: str) -> str:
    """An absolute path as a file: URI, a relative one as a relative reference; both
    percent-encoded (a space, `#`, `%` or `?` in a file name would otherwise change the URI)."""
    candidate = Path(path)
    return candidate.resolve().as_uri() if candidate.is_absolute() else quote(candidate.as_posix())


_DESCRIPTORS: dict[tuple[str, str | None], tuple[Definition, str]] = {}


def _rule_descriptor_json(d: Definition, docs_url: str | None) -> str:
    """A rule's descriptor, encoded once per process (its help page is the costly part)."""
    cached = _DESCRIPTORS.get((d.id, docs_url))
    if cached is None or cached[0] is not d:
        cached = _DESCRIPTORS[(d.id, docs_url)] = (d, json.dumps(_rule_descriptor(d, docs_url)))
    return cached[1]


def _rule_descriptor(d: Definition, docs_url: str | None) -> dict:
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


def _location(location: Provenance, message: str | None = None) -> dict[str, Any]:
    """A file span as a physical location; a live config or a metric sample (no file to
    point at) as a logical location named by its path."""
    if location.kind == "file":
        region: dict[str, Any] = {"startLine": location.line, "startColumn": location.column}
        if getattr(location, "end_line", None) is not None:
            region |= {"endLine": location.end_line, "endColumn": location.end_column}
        result: dict[str, Any] = {
            "physicalLocation": {"artifactLocation": {"uri": _artifact_uri(location.path)}, "region": region}
        }
    else:
        result = {"logicalLocations": [{"fullyQualifiedName": location.path, "kind": "resource"}]}
    if message:
        result["message"] = {"text": message}
    return result


def render(report: Report, options: RenderOptions) -> str:
    index = {definition.id: position for position, definition in enumerate(report.rules)}
    seen: dict[tuple[str, str], int] = defaultdict(int)
    results = []
    for finding in report.findings:
        if finding.rule not in index:
            continue
        line_text = report.line_text(finding.path, finding.line) or ""
        seen[(finding.rule, line_text)] += 1
        result = {
            "ruleId": finding.rule,
            "ruleIndex": index[finding.rule],
            "level": LEVELS[finding.severity],
            "message": {"text": finding.message},
            "locations": [_location(finding.location)],
            "partialFingerprints": {
                "primaryLocationLineHash": _fingerprint(finding, line_text, seen[(finding.rule, line_text)])
            },
            "properties": {
                "keys": list(finding.keys),
                "component": finding.component,
                "client": finding.client,
                "subject": finding.subject,
                "recommended": finding.recommended,
            },
        }
        if finding.related:
            result["relatedLocations"] = [
                {"id": number, **_location(related, "the same cause")}
                for number, related in enumerate(finding.related, start=1)
            ]
        if finding.assumptions:
            result["properties"]["assumptions"] = list(finding.assumptions)
        if finding.kafka_version:
            result["properties"]["kafkaVersion"] = finding.kafka_version
            result["properties"]["kafkaVersionFrom"] = finding.kafka_version_from
        if finding.product != "kafka":  # a product pack's finding: its product and the release judged with
            judged = {"product": finding.product}
            if finding.release:
                judged.update(release=finding.release, releaseFrom=finding.release_from or "")
            result["properties"].update(judged)  # type: ignore[attr-defined]
        if finding.suppressed:
            result["suppressions"] = [{"kind": "inSource", "justification": finding.justification or "no reason given"}]
        results.append(result)
    notifications = []
    for problem in [*report.problems, *report.skipped]:
        level = "note" if problem in report.skipped else "error"
        notification: dict[str, Any] = {"level": level, "message": {"text": str(problem)}}
        if problem.line:
            notification["locations"] = [_location(Location(problem.path, problem.line))]
        notifications.append(notification)
    driver = {"name": "kafka-advisor", "version": report.tool_version, "semanticVersion": report.tool_version}
    invocation = {"executionSuccessful": not report.problems}
    rules = [_rule_descriptor_json(d, options.docs_url) for d in report.rules]
    return _layout(driver, rules, invocation, notifications, results)


def _lines(encoded: list[str], indent: str) -> str:
    return "[]" if not encoded else "[\n" + ",\n".join(indent + item for item in encoded) + "\n" + indent[:-2] + "]"


def _layout(driver: dict, rules: list[str], invocation: dict, notifications: list, results: list) -> str:
    """The SARIF log with each rule, result and notification on a line of its own, encoded by
    json's C encoder: `indent` would send it all through the pure-Python encoder (the rules'
    help pages alone took ~20 ms a run)."""
    head = json.dumps(driver)[:-1]  # the driver's fields, the rules to follow
    encoded_invocation = json.dumps(invocation)[:-1]
    notes = _lines([json.dumps(n) for n in notifications], " " * 10)
    found = _lines([json.dumps(r) for r in results], " " * 8)
    return (
        "{\n"
        f'  "$schema": {json.dumps(SCHEMA_URI)},\n'
        '  "version": "2.1.0",\n'
        '  "runs": [\n'
        "    {\n"
        f'      "tool": {{"driver": {head}, "rules": {_lines(rules, " " * 8)}}}}},\n'
        f'      "invocations": [{encoded_invocation}, "toolExecutionNotifications": {notes}}}],\n'
        '      "columnKind": "unicodeCodePoints",\n'  # every reader counts columns in characters
        f'      "results": {found}\n'
        "    }\n"
        "  ]\n"
        "}\n"
    )
