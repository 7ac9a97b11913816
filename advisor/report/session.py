"""The lint pipeline shared by the CLI and the tests: load → evaluate → suppress."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from advisor.model.document import Document
from advisor.model.findings import Finding
from advisor.report.suppress import UNUSED_RULE, apply
from advisor.rules import runner as evaluate
from advisor.rules.registry import Rule, load_rules
from advisor.sources import Candidate, LoadOptions, load


@dataclass
class LintResult:
    document: Document
    findings: list[Finding]


def lint(
    files: Sequence[Candidate | Path],
    options: LoadOptions | None = None,
    *,
    rules: Sequence[Rule] | None = None,
    kafka_version: str | None = None,
    profile: str = "prod",
    stats: evaluate.RunStats | None = None,
) -> LintResult:
    document = load(files, options or LoadOptions())
    active = list(load_rules() if rules is None else rules)
    findings = evaluate.run(document, active, kafka_version=kafka_version, profile=profile, stats=stats)
    unused = next((r for r in active if r.definition.id == UNUSED_RULE), None)
    return LintResult(document, apply(findings, document.files, unused))
