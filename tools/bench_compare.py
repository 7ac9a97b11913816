#!/usr/bin/env python3
"""Compare the lint speed of two revisions as users run them: each built as a wheel, installed
in a venv of its own (bytecode compiled at install), measured interleaved — A B A B — because
this VM's speed drifts. Prints figures; a benchmark, not a test.

    .venv/bin/python tools/bench_compare.py --base REV [--head REV] [--runs 21] [--files 10000]

1. One-file lint: `kafka-advisor lint FILE` in fresh processes (median, min, max per revision).
2. Many files: N generated files of mixed formats (tools/bench_lint.py's templates) in one
   `kafka-advisor lint DIR` process per revision, interleaved, a few times.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tools"))

from bench_lint import generate  # noqa: E402


def _install(revision: str, work: Path, name: str) -> Path:
    """The revision's wheel installed in a fresh venv; returns its kafka-advisor command."""
    source = work / f"{name}-src"
    source.mkdir()
    archive = subprocess.run(["git", "archive", revision], cwd=REPO_ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    wheels = work / f"{name}-wheel"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(source)], check=True)
    venv = work / f"{name}-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    (wheel,) = wheels.glob("*.whl")
    install = [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check", "-q", "install"]
    subprocess.run([*install, "-c", str(source / "constraints.txt"), str(wheel)], check=True)
    return venv / "bin" / "kafka-advisor"


def _timed(command: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    subprocess.run(command, capture_output=True, check=True, cwd=cwd)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the revision to compare against")
    parser.add_argument("--head", default="HEAD")
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds of the many-file run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        commands = {args.base: _install(args.base, work, "base"), args.head: _install(args.head, work, "head")}
        target = REPO_ROOT / "fixtures" / "demo" / "producer.properties"
        one: dict[str, list[float]] = {revision: [] for revision in commands}
        for command in commands.values():  # warm the OS caches and the user cache (validated data)
            subprocess.run([str(command), "lint", str(target), "--exit-zero"], capture_output=True, check=True)
        for _ in range(args.runs):
            for revision, command in commands.items():
                one[revision].append(_timed([str(command), "lint", str(target), "--exit-zero"], work))
        for revision, times in one.items():
            print(
                f"one-file lint [{revision}], {args.runs} fresh processes: median {statistics.median(times) * 1000:.0f}"
                f" ms (min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f})"
            )
        files = work / "files"
        files.mkdir()
        generate(files, args.files)
        many: dict[str, list[float]] = {revision: [] for revision in commands}
        for _ in range(args.rounds):
            for revision, command in commands.items():
                lint = [str(command), "lint", str(files), "--exit-zero", "--output-format", "json"]
                many[revision].append(_timed(lint, work))
        for revision, times in many.items():
            shown = ", ".join(f"{t:.2f}" for t in times)
            print(f"{args.files} files in one process [{revision}]: median {statistics.median(times):.2f} s ({shown})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
