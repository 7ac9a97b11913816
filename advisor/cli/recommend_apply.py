"""`recommend --apply`: the plan's changes to the user's own files written by the same writers as
`lint --fix` — one step by default (the first of the plan's order, or the keys `--only` names), then
the command that proves that step; `--all` writes every step at once, and says why one at a time is
the method."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from advisor.output import inert

ONE_AT_A_TIME = ("every step at once: the proving numbers cannot tell which change moved them; one step at "
                 "a time, each checked before the next, is the method (docs/recommend.md)")  # fmt: skip


def chosen_steps(groups: list[list[Any]], only: str | None, every: bool) -> list[Any] | str:
    """The recommendations to apply, or why the keys named cannot be."""
    if only:
        keys = {key.strip() for key in only.split(",") if key.strip()}
        pending = {r.key for group in groups for r in group}
        unknown = sorted(keys - pending)
        if unknown:
            listed = ", ".join(sorted(pending)) or "none"
            return (
                f"--only {', '.join(unknown)}: not a change this plan makes to the files given (its changes: {listed})"
            )
        return [r for group in groups for r in group if r.key in keys]
    if every:
        return [r for group in groups for r in group]
    return list(groups[0]) if groups else []


def apply(result: Any, document: Any, configs: list[Path], only: str | None, every: bool) -> int:
    """Write the chosen step's changes; 0 when written (or nothing to write), 2 when refused."""
    from advisor.advise.steps import check_command, order
    from advisor.fix import plan_changes, writing

    groups, _ = order(result, configured=True)
    chosen = chosen_steps(groups, only, every)
    if isinstance(chosen, str):
        print(f"kafka-advisor recommend: error: {inert(chosen)}", file=sys.stderr)
        return 2
    changes = [a.change for a in result.against if a.change is not None and a.recommendation in chosen]
    if not changes:
        print("kafka-advisor: nothing to apply: the files given already run with the plan's values")
        return 0
    texts = {source.path: source.text for source in document.files}
    failed = False
    for plan in plan_changes(changes, document, ("unsafe", "safe"), join_inserts=True):
        for change, line, why in plan.held:
            print(f"kafka-advisor: {inert(plan.path)}:{line}: {change.key}: not written: {why}", file=sys.stderr)
        for change in plan.skipped:
            print(f"kafka-advisor: {inert(plan.path)}: {change.key}: no edit of this file could be proven to make it; "
                  "change it by hand", file=sys.stderr)  # fmt: skip
        if not plan.edits:
            continue
        outcome = writing.write(plan, texts[plan.path], configs)
        if outcome.refused:
            print(f"kafka-advisor: {inert(plan.path)}: not written: {outcome.refused}", file=sys.stderr)
            failed = True
            continue
        made = [c for c in changes if c.path == plan.path and c not in plan.skipped and
                c not in {held for held, _, _ in plan.held}]  # fmt: skip
        shown = ", ".join(dict.fromkeys(f"{c.key}={c.value}" for c in made))
        print(f"applied {shown} to {inert(plan.path)}")
    producers = [cs.path for cs in document.config_sets if cs.component == "producer"]
    producer = producers[0] if producers else None
    command, shows = check_command(chosen, [], producer)
    if command.startswith("kafka-advisor bench") and producer:  # the file is the "after" now
        command = command.replace(f"--before {producer} --after producer-after.properties",
                                  f"--before producer-before.properties --after {producer}")  # fmt: skip
        shows += f"; producer-before.properties: {producer} as it was (git show HEAD:{producer})"
    print(f"then, once it runs: {command}\n  ({shows})")
    if every and len(groups) > 1:
        print(f"kafka-advisor: applied {ONE_AT_A_TIME}", file=sys.stderr)
    return 2 if failed else 0
