#!/usr/bin/env python3
"""Precision and recall on fixtures/realworld/: configuration written in the shapes public
repositories use (fixtures/realworld/SOURCES.md), each project folder linted as a user lints a
repository (a folder walk), against what a Kafka reviewer would raise.

Annotations (comment lines, or a JSON file's `<file>.annotations` sidecar `LINE KIND CODES`)
apply to the next other line:
  expect: ID   the reviewer raises it and the tool finds it          (a true positive)
  missed: ID   the reviewer raises it and the tool does not, yet      (a false negative)
  wrong:  ID   the tool finds it and the reviewer says it is wrong    (a false positive)
  ok:     ID   neither raises it here
A reviewer's point that no rule covers yet is `missed: NEW`.
tests/test_realworld.py holds the tool to exactly these; this script prints the figures.

.venv/bin/python tools/realworld_score.py [--verbose]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

CORPUS = REPO_ROOT / "fixtures" / "realworld"
KINDS = ("expect", "missed", "wrong", "ok")
_ANNOTATION = re.compile(r"^\s*(?:#|//)\s*(expect|missed|wrong|ok):\s*(?P<codes>[A-Z0-9, ]+)\s*$")

Mark = tuple[str, str, int]  # (file name relative to its project, rule, line)


def projects() -> list[Path]:
    return sorted(p for p in CORPUS.iterdir() if p.is_dir())


def _sidecar(path: Path, relative: str) -> dict[str, set[Mark]]:
    marks: dict[str, set[Mark]] = {kind: set() for kind in KINDS}
    for entry in (path.parent / f"{path.name}.annotations").read_text().splitlines():
        if entry.strip() and not entry.startswith("#"):
            line, kind, codes = entry.split(maxsplit=2)
            marks[kind] |= {(relative, code.strip(), int(line)) for code in codes.split(",")}
    return marks


def annotations(path: Path, relative: str) -> dict[str, set[Mark]]:
    """What the reviewer says of one file, by kind."""
    if (path.parent / f"{path.name}.annotations").exists():
        return _sidecar(path, relative)
    marks: dict[str, set[Mark]] = {kind: set() for kind in KINDS}
    pending: list[tuple[str, str]] = []
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), start=1):
        match = _ANNOTATION.match(line)
        if match:
            pending += [(match.group(1), c.strip()) for c in match["codes"].split(",") if c.strip()]
            continue
        if line.strip().startswith(("#", "//")) and not pending:
            continue
        for kind, code in pending:
            marks[kind].add((relative, code, number))
        pending = []
    return marks


def judge(project: Path) -> dict[str, object]:
    """Lint one project folder as a user would and compare with the reviewer's marks."""
    from advisor.report.session import RunRequest, run

    report = run(RunRequest(paths=(project,)))
    marks: dict[str, set[Mark]] = {kind: set() for kind in KINDS}
    files = [p for p in sorted(project.rglob("*")) if p.is_file() and not p.name.endswith(".annotations")]
    for path in files:
        for kind, found in annotations(path, path.relative_to(project).as_posix()).items():
            marks[kind] |= found
    found = {
        (Path(location.path).resolve().relative_to(project.resolve()).as_posix(), f.rule, location.line)
        for f in report.findings
        if not f.suppressed
        for location in f.locations
        if getattr(location, "path", None)
    }
    return {
        "found": found,
        "marks": marks,
        "errors": [p for p in report.problems],
        "skipped": [p for p in report.skipped if p.kind == "skipped"],
        "files": len(files),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--verbose", action="store_true", help="list every miss and wrong finding")
    args = parser.parse_args(argv)
    totals: Counter[str] = Counter()
    for project in projects():
        result = judge(project)
        marks = result["marks"]
        found = result["found"]
        true_positive = len(marks["expect"] & found)
        false_positive = len(found - marks["expect"])  # `wrong` marks, and anything unannotated
        false_negative = len(marks["missed"]) + len(marks["expect"] - found)
        totals.update(
            files=result["files"], tp=true_positive, fp=false_positive, fn=false_negative,
            errors=len(result["errors"]), skipped=len(result["skipped"]),
        )  # fmt: skip
        if args.verbose:
            for mark in sorted(found - marks["expect"]):
                print(f"  wrong   {project.name}/{mark[0]}:{mark[2]} {mark[1]}")
            for mark in sorted(marks["missed"] | (marks["expect"] - found)):
                print(f"  missed  {project.name}/{mark[0]}:{mark[2]} {mark[1]}")
    precision = totals["tp"] / (totals["tp"] + totals["fp"]) if totals["tp"] + totals["fp"] else 1.0
    recall = totals["tp"] / (totals["tp"] + totals["fn"]) if totals["tp"] + totals["fn"] else 1.0
    print(f"projects {len(projects())}, files {totals['files']}")
    print(f"findings a reviewer raises and the tool finds: {totals['tp']}")
    print(f"findings the tool makes that the reviewer calls wrong: {totals['fp']}")
    print(f"findings a reviewer raises that the tool misses: {totals['fn']}")
    print(f"precision {precision:.3f} (goal 0.95)   recall {recall:.3f} (goal 0.85)")
    print(f"input errors {totals['errors']}, files skipped {totals['skipped']} (goal: 0 and 0)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
