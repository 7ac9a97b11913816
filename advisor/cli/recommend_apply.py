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


def say_unwritten(plan: Any) -> None:
    """Each change of a file's plan that no edit makes, with why (stderr): never dropped quietly."""
    for change, line, why in plan.held:
        print(f"kafka-advisor: {inert(plan.path)}:{line}: {change.key}: not written: {why}", file=sys.stderr)
    for change in plan.skipped:
        print(f"kafka-advisor: {inert(plan.path)}: {change.key}: no edit of this file could be proven to make it; "
              "change it by hand", file=sys.stderr)  # fmt: skip


def write_plans(plans: list[Any], changes: list[Any], document: Any, configs: list[Path]) -> bool:
    """Each file's edits written (never over a file that is not one of `configs`' or changed since
    read), what each made said on stdout and what it could not on stderr; True when one was refused."""
    from advisor.fix import writing

    texts = {source.path: source.text for source in document.files}
    failed = False
    for plan in plans:
        say_unwritten(plan)
        if not plan.edits:
            continue
        outcome = writing.write(plan, texts[plan.path], configs)
        if outcome.refused:
            print(f"kafka-advisor: {inert(plan.path)}: not written: {outcome.refused}", file=sys.stderr)
            failed = True
            continue
        unmade = set(plan.skipped) | {held for held, _, _ in plan.held}
        shown = ", ".join(dict.fromkeys(f"{c.key}={c.value}" if c.action == "set" else f"{c.key} removed"
                                        for c in changes if c.path == plan.path and c not in unmade))  # fmt: skip
        print(f"applied {shown} to {inert(plan.path)}")
    return failed


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
    from advisor.fix import plan_changes

    groups, _ = order(result, configured=True)
    chosen = chosen_steps(groups, only, every)
    if isinstance(chosen, str):
        print(f"kafka-advisor recommend: error: {inert(chosen)}", file=sys.stderr)
        return 2
    changes = [a.change for a in result.against if a.change is not None and a.recommendation in chosen]
    if not changes:
        print("kafka-advisor: nothing to apply: the files given already run with the plan's values")
        return 0
    failed = write_plans(plan_changes(changes, document, ("unsafe", "safe"), join_inserts=True), changes, document,
                         configs)  # fmt: skip
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


def apply_camunda(result: Any, document: Any, configs: list[Path], only: str | None, write: bool) -> int:
    """`recommend --camunda --diff|--apply`: the plan's broker values made in the configurations
    given (a key of another generation spelling the same setting removed beside), shown as a diff
    or written whole (`--only` names keys); what no edit makes is said, never dropped."""
    from advisor.fix import plan_changes, unified_diff
    from advisor.recommend.camunda import changes

    keys = {key.strip() for key in only.split(",") if key.strip()} if only else None
    planned = {r.key for r in result.broker}
    unknown = sorted((keys or set()) - planned)
    if unknown:
        print(f"kafka-advisor recommend: error: --only {inert(', '.join(unknown))}: not a value of this plan "
              f"(its values: {', '.join(sorted(planned)) or 'none'})", file=sys.stderr)  # fmt: skip
        return 2
    made = changes(result, keys)
    if not made:
        print("kafka-advisor: nothing to change: the files given already run with the plan's values")
        return 0
    plans = plan_changes(made, document, ("unsafe", "safe"), join_inserts=True)
    if not write:
        for plan in plans:
            say_unwritten(plan)
        patch = unified_diff(plans, document)
        sys.stdout.write(patch)
        return 1 if patch else 0
    failed = write_plans(plans, made, document, configs)
    proofs = dict.fromkeys(r.proof for r in result.broker if keys is None or r.key in keys)
    print("then, once it runs, watch: " + "; ".join(proofs))
    return 2 if failed else 0
