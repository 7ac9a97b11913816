"""Which rules a run applies: `--select`/`--ignore` (codes, code prefixes or names) and
per-file ignores from the project config. One matcher for the CLI, the project config,
suppression directives and the run session."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from advisor.named_tuple import NamedTuple


def matches(rule_id: str, name: str, selectors: Sequence[str]) -> bool:
    """A selector is a rule code (KP101), a code prefix (KP, K) or a rule name."""
    return any(rule_id.startswith(s) or name == s for s in selectors)


def parse(text: str | None) -> list[str]:
    """'KP101, KB' → ['KP101', 'KB']."""
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def _nothing_ignored(path: str) -> list[str]:
    return []


class Selection(NamedTuple):
    select: tuple[str, ...] = ()  # empty: every rule
    ignore: tuple[str, ...] = ()
    ignored_for: Callable[[str], list[str]] = _nothing_ignored  # per-file ignores

    def selects(self, rule_id: str, name: str) -> bool:
        """Whether the run applies the rule at all."""
        return (not self.select or matches(rule_id, name, self.select)) and not matches(rule_id, name, self.ignore)

    def active(self, path: str, rule_id: str, name: str) -> bool:
        """Whether a finding of the rule in this file can be reported."""
        return self.selects(rule_id, name) and not matches(rule_id, name, self.ignored_for(path))
