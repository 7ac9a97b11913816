"""Shared command line of the generators: write the generated files, or with --check fail
(exit 1) when a committed file differs from what the generator produces now."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def run(description: str, produce: Callable[[], dict[Path, str]], script: str, argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="fail if the committed files differ")
    args = parser.parse_args(argv)
    stale = []
    for path, text in produce().items():
        shown = path.relative_to(REPO_ROOT)
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(path)
                print(f"{shown} is stale: run {script}", file=sys.stderr)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            print(f"wrote {shown} ({len(text):,} bytes)", file=sys.stderr)
    return 1 if stale else 0
