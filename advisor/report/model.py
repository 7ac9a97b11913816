"""The Report: everything one run found, as data. Every formatter renders a Report and nothing
else (output/__init__.py `render(report, format, options)`), so a new format — HTML, an
interactive view — needs no access to loaders, rules or files.

A Report is versioned and JSON-serialisable (`to_dict`). Source lines a finding points at
are carried already redacted (`lines`), so no formatter ever reads an input file.
"""

from __future__ import annotations

from advisor import TYPE_CHECKING
from advisor.model.document import Problem
from advisor.model.findings import Finding
from advisor.model.record import Record
from advisor.model.vocabulary import SEVERITY_RANK
from advisor.named_tuple import NamedTuple
from advisor.rules.spec import Definition

if TYPE_CHECKING:
    from typing import Any

    from advisor.fix import FilePlan

VERSION = 2

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class FileSummary(NamedTuple):
    path: str
    format: str
    config_sets: int
    series: int | None = None  # a metrics input's: the series the rules read in it
    recognised: tuple[str, ...] = ()  # a metrics input's naming dialects or client library
    read: str = ""  # a metrics input's shape and what it gave, in words

    def to_dict(self) -> dict[str, Any]:
        record: dict[str, Any] = {"path": self.path, "format": self.format, "config_sets": self.config_sets}
        if self.series is not None:
            record |= {"series": self.series, "recognised": list(self.recognised)}
        return record


class Report(Record):
    KIND = "lint"  # lint's and analyze's report (output/__init__.py RENDERERS)
    __slots__ = ("diff", "exit_zero", "fail_on", "files", "findings", "fixes", "flow", "lines", "problems", "rules",
                 "skipped", "tool_version")  # fmt: skip

    def __init__(
        self,
        tool_version: str,
        files: list[FileSummary],
        findings: list[Finding],
        problems: list[Problem],
        rules: list[Definition],  # the rules this run applied (selection done)
        lines: dict[str, dict[int, str]] | None = None,  # path → line → redacted text
        fail_on: str = "warning",
        exit_zero: bool = False,
        fixes: list[FilePlan] | None = None,  # planned edits, when the run was asked for them
        diff: str = "",  # those edits as a unified diff, every line redacted
        skipped: list[Problem] | None = None,  # files of a folder walk that look like Kafka but were not read
        flow: dict[str, Any] | None = None,  # analyze: the flow-control view (advisor/analysis/flow.py to_dict)
    ) -> None:
        self.tool_version = tool_version
        self.files = files
        self.findings = findings
        self.problems = problems
        self.rules = rules
        self.lines: dict[str, dict[int, str]] = {} if lines is None else lines
        self.fail_on = fail_on
        self.exit_zero = exit_zero
        self.fixes: list[FilePlan] = [] if fixes is None else fixes
        self.diff = diff
        self.skipped: list[Problem] = [] if skipped is None else skipped
        self.flow = flow

    @property
    def shown(self) -> list[Finding]:
        return [f for f in self.findings if not f.suppressed]

    def line_text(self, path: str, line: int) -> str | None:
        return self.lines.get(path, {}).get(line)

    def failing(self) -> list[Finding]:
        threshold = SEVERITY_RANK[self.fail_on]
        return [f for f in self.shown if SEVERITY_RANK[f.severity] >= threshold]

    @property
    def exit_code(self) -> int:
        """2 when an input could not be used, 1 for findings at or above fail-on, else 0."""
        if self.problems:
            return EXIT_ERROR
        return EXIT_FINDINGS if self.failing() and not self.exit_zero else EXIT_OK

    def counts(self) -> dict[str, int]:
        shown = self.shown
        return {
            "files": len(self.files),
            "findings": len(shown),
            "suppressed": len(self.findings) - len(shown),
            "errors": len(self.problems),
            "skipped": sum(1 for p in self.skipped if p.kind == "skipped"),
            "notes": sum(1 for p in self.skipped if p.kind != "skipped"),
            **{severity: sum(1 for f in shown if f.severity == severity) for severity in SEVERITY_RANK},
        }

    def to_dict(self, findings_as_records: bool = True) -> dict[str, Any]:
        """`findings_as_records`: False leaves the findings as Findings, each made a dict by the
        one who writes it (JSON output: one at a time, not thousands held at once)."""
        document = self._record(findings_as_records)
        if self.flow is not None:  # analyze with offsets or disk space: the flow view
            document["flow"] = self.flow
        return document

    def _record(self, findings_as_records: bool = True) -> dict[str, Any]:
        return {
            "schema_version": VERSION,
            "tool": {"name": "kafka-advisor", "version": self.tool_version},
            "summary": self.counts(),
            "fail_on": self.fail_on,
            "exit_code": self.exit_code,
            "files": [f.to_dict() for f in self.files],
            "findings": [f.to_dict() for f in self.findings] if findings_as_records else list(self.findings),
            "errors": [p.to_dict() for p in self.problems],
            "skipped": [p.to_dict() for p in self.skipped],
            "rules": [d.id for d in self.rules],
            "fixes": [_plan_record(plan) for plan in self.fixes],
            "lines": {path: {str(n): text for n, text in lines.items()} for path, lines in self.lines.items()},
        }


def _plan_record(plan: FilePlan) -> dict[str, Any]:
    return {
        "path": plan.path,
        "edits": [{"start": edit.start, "end": edit.end, "text": edit.text} for edit in plan.edits],
        "skipped": [change.to_dict() for change in plan.skipped],
    }
