"""`kafka-advisor lint PATH...`: check configuration files.

The rule engine is not built yet: for now this walks the given paths, reports
what it found and how many rules are installed, and checks nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from advisor import resources

EXIT_OK, EXIT_ERROR = 0, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="files or directories to check")


def _collect(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    found: list[Path] = []
    missing: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(p for p in sorted(path.rglob("*")) if p.is_file() and not p.name.startswith("."))
        elif path.is_file():
            found.append(path)
        else:
            missing.append(path)
    return found, missing


def run(args: argparse.Namespace) -> int:
    files, missing = _collect(args.paths)
    for path in missing:
        print(f"kafka-advisor: error: {path}: no such file or directory", file=sys.stderr)
    for path in files:
        print(path)
    rules = resources.rule_files()
    print(f"{len(files)} file(s) found; {len(rules)} rule(s) installed; nothing was checked yet.")
    return EXIT_ERROR if missing else EXIT_OK
