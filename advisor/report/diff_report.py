"""A diff run as one record: the configuration changes, the lint Report of the findings the
change introduces (the CI formats write it as lint does), and the findings it resolves."""

from __future__ import annotations

from typing import Any

from advisor.diff.compare import Change
from advisor.model.findings import Finding
from advisor.named_tuple import NamedTuple
from advisor.report.model import Report


class DiffReport(NamedTuple):
    changes: list[Change]
    introduced: Report  # the new side's report, its findings those the change introduces
    resolved: list[Finding]

    @property
    def KIND(self) -> str:  # its renderers: output/__init__.py RENDERERS
        return "diff"

    @property
    def exit_code(self) -> int:
        return self.introduced.exit_code

    def to_dict(self) -> dict[str, Any]:
        introduced = self.introduced.findings
        return {
            "changes": [c.to_dict() for c in self.changes],
            "introduced": [f.to_dict() for f in introduced],
            "resolved": [f.to_dict() for f in self.resolved],
            "summary": {
                "changes": len(self.changes),
                "introduced": len(introduced),
                "resolved": len(self.resolved),
                "exit_code": self.exit_code,
            },
        }
