#!/usr/bin/env python3
"""Rewrite tests/snapshots/ from the current linter output (review the diff before committing).

.venv/bin/python tools/update_snapshots.py [--check]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = {
    # What `make demo` prints: the text report of fixtures/demo/.
    "demo.txt": ["lint", "fixtures/demo/", "--exit-zero", "--color", "never"],
    # Every fixture at once: the whole rule pack's verdicts in one reviewable file.
    "fixtures.txt": ["lint", "fixtures/", "--exit-zero", "--color", "never"],
}


def render(args: list[str]) -> str:
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
