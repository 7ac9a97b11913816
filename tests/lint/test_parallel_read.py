"""A large walk is sniffed and loaded by several processes (advisor/sources/parallel.py): the
report is the one a single process gives, byte for byte, whatever the files and their failures."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from advisor import forked
from advisor.sources import parallel

REPO_ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="workers are forked on Linux only")


SECRETS = ("Jaas-pw-7731q", "Url-pw-55193", "Env-pw-90210")
COMPOSE_WITH_SECRETS = f"""services:
  kafka:
    image: apache/kafka:3.7.0
    env_file: .env
    environment:
      KAFKA_PROCESS_ROLES: broker,controller
      KAFKA_LISTENER_NAME_SASL_PLAIN_PLAIN_SASL_JAAS_CONFIG: >-
        org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="{SECRETS[0]}";
      KAFKA_CONFLUENT_SCHEMA_REGISTRY_URL: https://registry:{SECRETS[1]}@registry.internal:8081
      KAFKA_MIN_INSYNC_REPLICAS: 1
"""


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
    secret_dir = tree / "zz-secret"  # last in the walk: read by a worker, its secrets found there
    secret_dir.mkdir()
    (secret_dir / "docker-compose.yml").write_text(COMPOSE_WITH_SECRETS)
    (secret_dir / ".env").write_text(f"KAFKA_SSL_KEYSTORE_PASSWORD={SECRETS[2]}\nKAFKA_LOG_RETENTION_HOURS=1\n")
    unreadable = tree / "zz-broken" / "secret.properties"
    unreadable.write_text("bootstrap.servers=b:9092\n")
    unreadable.chmod(0)
    try:
        runs = {jobs: _lint(tree, jobs) for jobs in (1, 2, 3)}
    finally:
        unreadable.chmod(0o600)
    assert runs[1].returncode in (1, 2) and '"findings"' in runs[1].stdout
    assert "zz-broken/docker-compose.yml" in runs[1].stdout  # the broken files were met (said, skipped)
    assert "zz-secret/docker-compose.yml" in runs[1].stdout
    for jobs in (1, 2, 3):
        shown = runs[jobs].stdout + runs[jobs].stderr
        assert not [secret for secret in SECRETS if secret in shown]
    for jobs in (2, 3):
        assert runs[jobs].returncode == runs[1].returncode
        assert runs[jobs].stdout == runs[1].stdout
        assert runs[jobs].stderr == runs[1].stderr


def test_a_worker_that_dies_costs_only_time(tmp_path: Path) -> None:
    """What it claimed is read again in the parent: the same results and notes, in order. One
    worker dies after its first file, having sent nothing; the parent is slow enough that the
    workers claim parts too."""
    import time

    parent = os.getpid()
    paths = [Path(f"file{n}") for n in range(40)]
    died = tmp_path / "died"

    def read_one(path: Path, notes: list) -> str | None:  # type: ignore[type-arg]
        if os.getpid() == parent:
            time.sleep(0.02)
        elif not died.exists():
            died.write_text(path.name)
            os._exit(3)  # a worker killed mid-part
        notes.append(f"note {path.name}")
        return None if path.name == "file4" else path.name.upper()

    results, notes = parallel.read_all(paths, read_one, 3)
    assert died.exists()
    assert results == [p.name.upper() for p in paths if p.name != "file4"]
    assert notes == [f"note {p.name}" for p in paths]


def test_parts_are_claimed_until_none_is_left() -> None:
    """Parts of very different cost: every one worked once, by whichever process was free, and
    the results in part order."""
    import time

    parts = forked.chunks(list(range(200)), 3)
    assert [item for part in parts for item in part] == list(range(200))
    assert len(parts) > 3

    def work(part: list[int]) -> tuple[int, list[int]]:
        if part[0] == 0:
            time.sleep(1.0)  # the first part is slow: the others go elsewhere meanwhile
        return os.getpid(), [n * n for n in part]

    results = forked.map_chunks(parts, work, 3)
    assert [square for _, squares in results for square in squares] == [n * n for n in range(200)]
    assert len({pid for pid, _ in results}) >= 2  # the work was shared
    assert forked.map_chunks([], work, 3) == []


def test_how_many_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KAFKA_ADVISOR_JOBS", raising=False)
    assert parallel.workers(parallel.MIN_FILES - 1) == 1  # a small walk: no fork
    assert 1 <= parallel.workers(10_000) <= min(len(os.sched_getaffinity(0)), forked.MAX_WORKERS)
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


def test_the_workers_find_the_secrets_one_process_would(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The texts a worker read come back scanned for secrets, each as the run's redaction would
    scan it, and the run's Redactor hides the same values with or without those scans."""
    from advisor.report import redaction
    from advisor.secrets import scan
    from advisor.sources import LoadOptions, discover, load

    tree = tmp_path / "tree"
    shutil.copytree(REPO_ROOT / "fixtures" / "realworld", tree)
    (tree / "zz-secret").mkdir()
    (tree / "zz-secret" / "docker-compose.yml").write_text(COMPOSE_WITH_SECRETS)
    (tree / "zz-secret" / ".env").write_text(f"KAFKA_SSL_KEYSTORE_PASSWORD={SECRETS[2]}\n")
    monkeypatch.setenv("KAFKA_ADVISOR_JOBS", "2")
    candidates, _, _ = discover([tree], [], LoadOptions(), read_ahead=True)
    scanned = {text: found for candidate in candidates for text, found in candidate.scanned}
    assert all(c.text in scanned for c in candidates)  # every text read came back scanned
    assert all(found == scan(text) for text, found in scanned.items())
    assert {SECRETS[0], SECRETS[2]} <= {value for found in scanned.values() for value in found.values}
    document = load(candidates, LoadOptions())
    texts = [c.text for c in candidates]
    with_scans = redaction.run_secrets(document, texts, scanned)
    without = redaction.run_secrets(document, texts)
    assert with_scans._pattern is not None and without._pattern is not None
    assert with_scans._pattern.pattern == without._pattern.pattern
    assert with_scans.empty == without.empty


@pytest.mark.parametrize("refused", ["memfd_create", "fork"])
def test_where_no_worker_can_be_made_this_process_does_it_all(monkeypatch: pytest.MonkeyPatch, refused: str) -> None:
    """A sandbox without memfd_create, or a process limit that refuses a fork: the parts are all
    worked here, the same results in order, never an internal error."""

    def refuse(*args: object) -> None:
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(os, refused, refuse)
    parts = forked.chunks(list(range(50)), 3)
    assert forked.map_chunks(parts, lambda part: [n + 1 for n in part], 3) == [[n + 1 for n in p] for p in parts]


def test_an_error_here_leaves_no_worker_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    """What stops the parent mid-way (an interrupt, a bug) stops its workers too: none is left
    running or unreaped."""
    import time

    parent = os.getpid()
    seen: list[int] = []
    forked_pids: list[int] = []
    fork = os.fork

    def recording_fork() -> int:
        pid = fork()
        if pid:
            forked_pids.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", recording_fork)

    def work(part: list[int]) -> list[int]:
        if os.getpid() != parent:
            time.sleep(0.05)  # slow workers: the parent claims parts too
            return part
        seen.append(part[0])
        if len(seen) == 2:
            raise KeyboardInterrupt
        return part

    with pytest.raises(KeyboardInterrupt):
        forked.map_chunks(forked.chunks(list(range(100)), 3), work, 3)
    assert len(forked_pids) == 2
    for pid in forked_pids:  # reaped already: neither running nor a zombie
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
