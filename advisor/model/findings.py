"""A finding: one rule's verdict on one place in one file."""

from __future__ import annotations

from dataclasses import dataclass, field

from advisor.rules.spec import Fix


@dataclass(frozen=True)
class Finding:
    rule: str
    name: str
    severity: str
    category: str
    message: str
    path: str
    line: int
    column: int
    keys: tuple[str, ...]
    component: str
    client: str
    subject: str  # the config set's name (file, service, topic)
    recommended: str | None = None
    fix: Fix | None = None
    suppressed: bool = False
    justification: str = ""
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.column, self.rule)
