#!/usr/bin/env python3
"""mypy (strict, as pyproject.toml's [tool.mypy] says) held to a baseline: no error beyond the
ones tools/mypy-baseline.txt lists. An error is known by its file, code and message, not its line,
so an edit above it moves nothing; an error fixed must leave the baseline too (`--update`), so it
only shrinks.

    tools/typecheck.py            exit 1 on any error not in the baseline, or any baseline entry gone
    tools/typecheck.py --update   rewrite the baseline to today's errors
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "tools" / "mypy-baseline.txt"
_ERROR = re.compile(r"^(?P<path>[^:\s]+\.py):(?P<line>\d+): error: (?P<message>.*?)\s+\[(?P<code>[a-z-]+)\]$")
_LINE_NUMBER = re.compile(r" on line \d+")  # 'already defined on line 274': moves with every edit above it


def errors(output: str) -> list[tuple[str, int, str]]:
    """(path, line, 'path: [code] message') for every error mypy printed."""
    found = []
    for text in output.splitlines():
        match = _ERROR.match(text.strip())
        if match:
            message = _LINE_NUMBER.sub("", match["message"])
            found.append((match["path"], int(match["line"]), f"{match['path']}: [{match['code']}] {message}"))
    return found


def compare(now: list[str], baseline: list[str]) -> tuple[list[str], list[str]]:
    """(new: errors beyond the baseline, gone: baseline entries no longer found), counted per entry."""
    current, known = Counter(now), Counter(baseline)
    return sorted((current - known).elements()), sorted((known - current).elements())


def read_baseline(path: Path = BASELINE) -> list[str]:
    if not path.exists():
        return []
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--update", action="store_true", help="rewrite the baseline to today's errors")
    arguments = parser.parse_args(argv)
    run = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, check=False)
    found = errors(run.stdout)
    if run.returncode not in (0, 1) or (run.returncode == 1 and not found):
        print(run.stdout + run.stderr, file=sys.stderr)
        print("typecheck: mypy did not run to the end", file=sys.stderr)
        return 2
    entries = [entry for _, _, entry in found]
    if arguments.update:
        header = "# mypy errors accepted today (tools/typecheck.py --update); fix them and let the list shrink.\n"
        BASELINE.write_text(header + "".join(f"{entry}\n" for entry in sorted(entries)), encoding="utf-8")
        print(f"typecheck: baseline of {len(entries)} errors written to {BASELINE.relative_to(ROOT)}")
        return 0
    new, gone = compare(entries, read_baseline())
    for entry in new:
        lines = ", ".join(str(line) for path, line, e in found if e == entry)
        print(f"new type error (line {lines}): {entry}")
    for entry in gone:
        print(f"fixed, still in the baseline: {entry}")
    if gone:
        print("typecheck: an error was fixed: run tools/typecheck.py --update and commit the shorter baseline")
    if new or gone:
        return 1
    print(f"typecheck: no errors beyond the baseline's {len(entries)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
