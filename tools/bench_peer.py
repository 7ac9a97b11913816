#!/usr/bin/env python3
"""kafka-advisor beside kafkaesq, as users run them: each installed from a wheel into a venv of
its own (bytecode compiled at install), measured interleaved — A B A B — because this VM's speed
drifts. Prints figures; a benchmark, not a test (docs/performance.md records them).

    .venv/bin/python tools/bench_peer.py [--runs 20] [--files 10000] [--many-runs 5] [--peer kafkaesq==0.2.1]

1. One file: `kafka-advisor lint FILE` and `kafkaesq validate FILE` in fresh processes, for a
   producer.properties and a compose file: median, min, max wall time of each.
2. Many files: a tree of N files shaped like real repositories' — in every 60, a chart's full
   values file, two platform compose stacks and a Strimzi topic set (tools/bench_corpus.py) and
   56 files of fixtures/realworld/ (written in the shapes public repositories use), each group's
   broker addresses made its own so groups are not one cluster — linted by one `kafka-advisor lint DIR`
   (with its forked workers, on Linux): median wall time of --many-runs lints and peak memory
   (max RSS of its largest process), with a fixed CPU workload timed between them as the
   VM's speed of the moment. kafkaesq reads one file a run, so it has no figure here.
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_corpus import LARGE_FILES

REPO_ROOT = Path(__file__).resolve().parent.parent
CORPUS = REPO_ROOT / "fixtures" / "realworld"
GROUP = 60
_ADDRESS = re.compile(r"\b([a-z][a-z0-9-]*(?:\.[a-z0-9-]+)*)(:9\d{3})\b")


def _venv(folder: Path, *packages: str) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    pip = [str(folder / "bin" / "pip"), "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, *packages], check=True)
    return folder / "bin"


def _wheel(work: Path) -> Path:
    out = work / "wheel"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out),
                    str(REPO_ROOT)], check=True)  # fmt: skip
    (built,) = out.glob("*.whl")
    return built


def _timed(command: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def timed_runs(command: list[str], work: Path, runs: int) -> tuple[list[float], list[float], int, str] | str:
    """`runs` timed runs of `command` after one untimed (the OS caches warm), the VM's reference
    loop timed before each (its speed drifts), the largest child's peak memory (kB) and the first
    run's output; the first run's stderr when it failed (exit above 1)."""
    first = subprocess.run(command, cwd=work, capture_output=True, text=True)
    if first.returncode not in (0, 1):
        return f"{' '.join(command[:2])} failed ({first.returncode}):\n{first.stderr[-2000:]}"
    walls, references = [], []
    for _ in range(runs):
        references.append(_timed(REFERENCE, work))
        walls.append(_timed(command, work))
    return walls, references, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, first.stdout


def one_file(ours: Path, peer: Path, runs: int, work: Path) -> None:
    files = {"producer.properties": REPO_ROOT / "fixtures" / "demo" / "producer.properties",
             "docker-compose.yml": REPO_ROOT / "fixtures" / "demo" / "docker-compose.yml"}  # fmt: skip
    for name, source in files.items():
        target = work / name
        target.write_text(source.read_text())
        commands = {"kafka-advisor": [str(ours / "kafka-advisor"), "lint", name, "--exit-zero"],
                    "kafkaesq": [str(peer / "kafkaesq"), "validate", name]}  # fmt: skip
        for command in commands.values():  # warm the OS caches
            _timed(command, work)
        times: dict[str, list[float]] = {tool: [] for tool in commands}
        for _ in range(runs):
            for tool, command in commands.items():
                times[tool].append(_timed(command, work))
        for tool, measured in times.items():
            ms = [t * 1000 for t in measured]
            print(f"one file ({name}), {tool:13} {runs} fresh processes: median {statistics.median(ms):5.0f} ms "
                  f"(min {min(ms):.0f}, max {max(ms):.0f})")  # fmt: skip


def corpus(folder: Path, count: int) -> int:
    """`count` files in groups of about 60: four large files (bench_corpus: a chart's full values
    file, two platform compose stacks, a Strimzi topic set) and projects of fixtures/realworld/ in
    turn, whole (a compose file with its .env), each group's addresses its own."""
    projects = sorted(p for p in CORPUS.iterdir() if p.is_dir())
    written, group, next_project = 0, 0, 0
    while written < count:
        files: list[tuple[Path, str]] = [(Path(name), make(group)) for name, make in LARGE_FILES]
        while len(files) < GROUP:
            project = projects[next_project % len(projects)]
            next_project += 1
            files += [(source.relative_to(CORPUS), source.read_text(encoding="utf-8", errors="surrogateescape"))
                      for source in sorted(project.rglob("*")) if source.is_file()]  # fmt: skip
        for relative, text in files[: count - written]:
            target = folder / f"group{group:04d}" / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(_ADDRESS.sub(rf"\g<1>-c{group}\g<2>", text), encoding="utf-8", errors="surrogateescape")
            written += 1
        group += 1
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


# A fixed pure-Python workload timed between the runs: how fast this VM is at the moment (its
# speed drifts by a third within an hour), so that figures taken at different times compare.
REFERENCE = [sys.executable, "-c", "s = 0\nfor i in range(10_000_000): s += i"]


def many_files(ours: Path, count: int, work: Path, runs: int) -> None:
    tree = work / "tree"
    size = corpus(tree, count)
    command = [str(ours / "kafka-advisor"), "lint", str(tree), "--exit-zero", "--output-format", "json"]
    _timed(command, work)  # warm the OS caches
    walls, references = [], []
    for _ in range(runs):
        references.append(_timed(REFERENCE, work))
        walls.append(_timed(command, work))
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # the largest child's: a lint's
    print(f"{count:,} real-shaped files ({size / 1e6:.1f} MB), {runs} lints: median {statistics.median(walls):.2f} s "
          f"(min {min(walls):.2f}, max {max(walls):.2f}), max RSS {peak / 1024:.0f} MB; "
          f"the VM's reference loop in between: median {statistics.median(references):.2f} s")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--many-runs", type=int, default=5, help="lints of the many-file tree")
    parser.add_argument("--peer", default="kafkaesq==0.2.1")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-peer-") as folder:
        work = Path(folder)
        ours = _venv(work / "ours", str(_wheel(work)))
        peer = _venv(work / "peer", args.peer)
        one_file(ours, peer, args.runs, work)
        many_files(ours, args.files, work, args.many_runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
