"""Which rules a run applies: `--select`/`--ignore` (codes, code prefixes or names) and
per-file ignores from the project config. One matcher for the CLI, the project config,
suppression directives and the run session; selectors are case-insensitive (`kp101`, `KP101`),
and one that names no rule is an error where it was written (`unknown`), never a silent no-op."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from advisor.model.document import Problem
from advisor.named_tuple import NamedTuple


def matches(rule_id: str, name: str, selectors: Sequence[str]) -> bool:
    """A selector is a rule code (KP101), a code prefix (KP, K) or a rule name, in any case."""
    return any(rule_id.startswith(s.upper()) or name == s.lower() for s in selectors)


class Stated(NamedTuple):
    """A selector as written: where (`--select`, `--ignore`, a file) and on which line."""

    selector: str
    where: str
    line: int | None = None


def nearest(selector: str, rules: Sequence[tuple[str, str]]) -> str | None:
    """The rule code or name closest to a selector that names none (a typo's suggestion)."""
    import difflib  # a typo's concern only: a lint imports no suggester

    ids = [rule_id for rule_id, _ in rules]
    names = [name for _, name in rules]
    near = difflib.get_close_matches(selector.upper(), ids, n=1) or difflib.get_close_matches(
        selector.lower(), names, n=1
    )
    return near[0] if near else None


def unknown(stated: Iterable[Stated], rules: Sequence[tuple[str, str]]) -> list[Problem]:
    """A problem for each selector that names no rule of `rules` ((id, name) pairs), with the
    nearest code or name when one is close (a typo runs no rule at all: never a silent green)."""
    problems = []
    for written in stated:
        code, word = written.selector.upper(), written.selector.lower()
        if any(rule_id.startswith(code) or name == word for rule_id, name in rules):
            continue
        near = nearest(written.selector, rules)
        hint = f" (did you mean {near}?)" if near else " (`kafka-advisor rules` lists them)"
        message = f"{written.selector!r} names no rule: not a rule code, code prefix or rule name{hint}"
        problems.append(Problem(written.where, written.line, message, "config"))
    return problems


def parse(text: str | None) -> list[str]:
    """'KP101, KB' → ['KP101', 'KB']."""
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def _nothing_ignored(path: str) -> list[str]:
    return []


class Selection(NamedTuple):
    select: tuple[str, ...] = ()  # empty: every rule
    ignore: tuple[str, ...] = ()
    ignored_for: Callable[[str], list[str]] = _nothing_ignored  # per-file ignores
    stated: tuple[Stated, ...] = ()  # every selector above as written, checked against the rules once

    def selects(self, rule_id: str, name: str) -> bool:
        """Whether the run applies the rule at all."""
        return (not self.select or matches(rule_id, name, self.select)) and not matches(rule_id, name, self.ignore)

    def active(self, path: str, rule_id: str, name: str) -> bool:
        """Whether a finding of the rule in this file can be reported."""
        return self.selects(rule_id, name) and not matches(rule_id, name, self.ignored_for(path))
