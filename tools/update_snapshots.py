#!/usr/bin/env python3
"""Rewrite tests/snapshots/ from the current linter output (review the diff before committing).

.venv/bin/python tools/update_snapshots.py [--check]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
FIXTURES = REPO_ROOT / "fixtures" / "rules"
# What `make demo` prints (the text report of fixtures/demo/), and every rule fixture unit
# linted as tests/test_rule_fixtures.py lints it: the whole rule pack's verdicts, one file.
SNAPSHOTS: dict[str, object] = {
    "demo.txt": ["lint", "fixtures/demo/", "--exit-zero", "--color", "never"],
    "fixtures.txt": "units",
}


def fixture_units() -> dict[str, list[Path]]:
    """Each fixture file is a unit of its own, except the files of one `projects/<name>/` (or
    `metrics/projects/<name>/`) folder, which are linted together (rules that read a cluster's
    other files; analyze reads them beside the metrics)."""
    sys.path.insert(0, str(REPO_ROOT))
    from advisor.sources import discover

    units: dict[str, list[Path]] = {}
    for candidate in discover([FIXTURES])[0]:
        relative = candidate.path.relative_to(FIXTURES)
        parts = relative.parts
        if parts[0] == "projects":
            unit = "/".join(parts[:2])
        elif parts[:2] == ("metrics", "projects"):
            unit = "/".join(parts[:3])
        else:
            unit = str(relative)
        units.setdefault(unit, []).append(candidate.path)
    return units


def _units_report() -> str:
    from advisor.output import render as render_report
    from advisor.report.session import RunRequest, run

    parts = []
    for unit, paths in sorted(fixture_units().items()):
        relative = tuple(path.relative_to(REPO_ROOT) for path in paths)
        previous = Path.cwd()
        os.chdir(REPO_ROOT)  # paths in the report as written: relative to the checkout
        try:
            report = run(RunRequest(paths=relative))
        finally:
            os.chdir(previous)
        parts.append(f"=== {unit}\n{render_report(report, 'text').lstrip()}")
    return "\n".join(parts)


def render(command: object) -> str:
    if command == "units":
        return _units_report()
    args = list(command)  # type: ignore[call-overload]
    result = subprocess.run(
        [sys.executable, "-m", "advisor", *args], capture_output=True, text=True, cwd=REPO_ROOT, timeout=120
    )
    if result.returncode != 0:
        raise SystemExit(f"kafka-advisor {' '.join(args)} exited {result.returncode}:\n{result.stderr}")
    return result.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    stale = []
    for name, command in SNAPSHOTS.items():
        path = REPO_ROOT / "tests" / "snapshots" / name
        text = render(command)
        if not path.exists() or path.read_text() != text:
            stale.append(name)
            if not args.check:
                path.write_text(text)
    for name in stale:
        print(f"{'stale' if args.check else 'updated'}: tests/snapshots/{name}", file=sys.stderr)
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
