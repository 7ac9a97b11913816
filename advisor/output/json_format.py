"""Machine-readable findings; the schema is documented in docs/output.md."""

from __future__ import annotations

import json
from collections.abc import Sequence

from advisor import __version__
from advisor.model.findings import Finding

SCHEMA_VERSION = 1


def finding_record(finding: Finding) -> dict:
    return {
        "rule": finding.rule,
        "name": finding.name,
        "severity": finding.severity,
        "category": finding.category,
        "message": finding.message,
        "path": finding.path,
        "line": finding.line,
        "column": finding.column,
        "keys": list(finding.keys),
        "component": finding.component,
        "client": finding.client,
        "subject": finding.subject,
        "recommended": finding.recommended,
        "fix": None if finding.fix is None else finding.fix.to_dict(),
        "suppressed": finding.suppressed,
        "justification": finding.justification or None,
    }


def render(findings: Sequence[Finding], errors: Sequence[str], files: int) -> str:
    document = {
        "schema_version": SCHEMA_VERSION,
        "tool": {"name": "kafka-advisor", "version": __version__},
        "summary": {
            "files": files,
            "findings": sum(1 for f in findings if not f.suppressed),
            "suppressed": sum(1 for f in findings if f.suppressed),
            "errors": len(errors),
        },
        "findings": [finding_record(f) for f in findings],
        "errors": list(errors),
    }
    return json.dumps(document, indent=2) + "\n"
