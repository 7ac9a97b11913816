"""`lint --fix`: the planned fixes written into the files, then the files linted again and fixed
again until nothing changes; a file whose fixes do not settle within a few passes is put back as it
was and said. The report is what is left after fixing; stderr says how many fixes were written, per
file, and how many more `--unsafe-fixes` would write (docs/fix.md)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from advisor.model.document import Problem
from advisor.output import inert

PASSES = 4  # a fix enabling another (a key set, then its neighbour judged again) settles in two or three


def fixed(request: Any, given: list[Path], unsafe: bool) -> Any:
    """Fix, re-lint, repeat; the final Report (its problems: the files that could not be written)."""
    from advisor import fix
    from advisor.fix import writing
    from advisor.report import session

    applied: dict[str, int] = {}
    first: dict[str, writing.Outcome] = {}  # each file's first write: what it held before any fix
    refused: list[Problem] = []
    passes = 0
    while True:
        report, document = session.run_with_document(request)
        texts = {source.path: source.text for source in document.files}
        barred = {problem.path for problem in refused}
        plans = [plan for plan in report.fixes if plan.edits and plan.path not in barred]
        if not plans:
            break
        if passes == PASSES:  # still changing: undone, and said
            for plan in plans:
                failed = writing.restore(first[plan.path]) if plan.path in first else None
                applied.pop(plan.path, None)
                why = f"could not be undone: {failed}" if failed else "undone: the file is as it was"
                refused.append(Problem(plan.path, None, f"its fixes do not settle after {PASSES} passes; {why}", "fix"))
            continue
        passes += 1
        for plan in plans:
            outcome = writing.write(plan, texts[plan.path], given)
            if outcome.refused:
                refused.append(Problem(plan.path, None, f"fixes not written: {outcome.refused}", "fix"))
                continue
            applied[plan.path] = applied.get(plan.path, 0) + outcome.edits
            first.setdefault(plan.path, outcome)
    # the last run found nothing more to write: it is the report of what is left
    barred = {problem.path for problem in refused}
    more = 0 if unsafe else sum(len(p.edits) for p in fix.plan(report.findings, document, ("unsafe",))
                                if p.path not in barred)  # fmt: skip
    _say(applied, more)
    return report._replace(problems=[*report.problems, *refused], fixes=[], diff="")


def _say(applied: dict[str, int], more: int) -> None:
    total = sum(applied.values())
    if total:
        files = ", ".join(f"{inert(path)} ({count})" for path, count in sorted(applied.items()))
        print(f"kafka-advisor: fixed {total} finding(s) in {len(applied)} file(s): {files}", file=sys.stderr)
    else:
        print("kafka-advisor: no fix written", file=sys.stderr)
    if more:
        print(f"kafka-advisor: {more} more fix(es) with --unsafe-fixes (they change behaviour: review them)",
              file=sys.stderr)  # fmt: skip
