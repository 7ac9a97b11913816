"""A large walk is sniffed and loaded by several processes (advisor/sources/parallel.py): the
report is the one a single process gives, byte for byte, whatever the files and their failures."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.sources import parallel

REPO_ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="workers are forked on Linux only")


def _lint(tree: Path, jobs: int) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KAFKA_ADVISOR_JOBS": str(jobs), "PYTHONPATH": str(REPO_ROOT)}
    return subprocess.run([sys.executable, "-m", "advisor", "lint", str(tree), "--output-format", "json"],
                          capture_output=True, text=True, env=env, timeout=300)  # fmt: skip


def test_the_report_is_the_one_a_single_process_gives(tmp_path: Path) -> None:
    """Every real-world shape, with files no reader takes, a template, broken YAML, an unreadable
    file and a Strimzi node pool whose cluster is in another file (a cross-file step of a loader
    that only a worker's chunk may have imported): the same report, errors and notes, in order,
    from 1, 2 and 3 processes."""
    tree = tmp_path / "tree"
    shutil.copytree(REPO_ROOT / "fixtures" / "realworld", tree)
    (tree / "zz-broken").mkdir()
    (tree / "zz-broken" / "docker-compose.yml").write_text("services:\n  kafka: [unclosed\n")
    (tree / "zz-broken" / "values.yaml").write_text("kafka:\n  replicas: {{ .Values.n }}\n")
    unreadable = tree / "zz-broken" / "secret.properties"
    unreadable.write_text("bootstrap.servers=b:9092\n")
    unreadable.chmod(0)
    try:
        runs = {jobs: _lint(tree, jobs) for jobs in (1, 2, 3)}
    finally:
        unreadable.chmod(0o600)
    assert runs[1].returncode in (1, 2) and '"findings"' in runs[1].stdout
    assert "zz-broken/docker-compose.yml" in runs[1].stdout  # the broken files were met (said, skipped)
    for jobs in (2, 3):
        assert runs[jobs].returncode == runs[1].returncode
        assert runs[jobs].stdout == runs[1].stdout
        assert runs[jobs].stderr == runs[1].stderr


def test_a_worker_that_dies_costs_only_time() -> None:
    """Its chunk is read again in the parent: the same results, in order."""
    parent = os.getpid()
    paths = [Path(f"file{n}") for n in range(10)]

    def read_one(path: Path, notes: list) -> str | None:  # type: ignore[type-arg]
        if os.getpid() != parent and path.name == "file7":
            os._exit(3)  # a worker killed mid-chunk
        notes.append(f"note {path.name}")
        return None if path.name == "file4" else path.name.upper()

    results, notes = parallel.read_all(paths, read_one, 3)
    assert results == [p.name.upper() for p in paths if p.name != "file4"]
    assert notes == [f"note {p.name}" for p in paths]


def test_how_many_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KAFKA_ADVISOR_JOBS", raising=False)
    assert parallel.workers(parallel.MIN_FILES - 1) == 1  # a small walk: no fork
    assert 1 <= parallel.workers(10_000) <= min(len(os.sched_getaffinity(0)), parallel.MAX_WORKERS)
    monkeypatch.setenv("KAFKA_ADVISOR_JOBS", "3")
    assert parallel.workers(2) == 2 and parallel.workers(10) == 3  # asked for, never more than files
    monkeypatch.setenv("KAFKA_ADVISOR_JOBS", "one")
    assert parallel.workers(10) == 1  # not a number: the default (10 files: none forked)


def test_a_process_with_threads_reads_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lock another thread holds at the fork would stay locked in the worker forever."""
    import threading

    monkeypatch.setenv("KAFKA_ADVISOR_JOBS", "2")
    assert parallel.workers(10) == 2
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert parallel.workers(10) == 1
    finally:
        release.set()
        other.join()
