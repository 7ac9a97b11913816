"""The pre-commit hook (.pre-commit-hooks.yaml), run by the real pre-commit tool the way a user's
repository runs it: `pre-commit try-repo` installs this repository's hook into its own
environment (pip install of the checkout) and runs it on a temporary git repository's files — a
producer config that breaks, the same file fixed, and files no reader claims (a workflow, a
README), which are passed over, never an error."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
BAD = "bootstrap.servers=kafka-1:9092\nenable.idempotence=true\nmax.in.flight.requests.per.connection=10\n"
FIXED = "bootstrap.servers=kafka-1:9092\nenable.idempotence=true\nmax.in.flight.requests.per.connection=5\n"
WORKFLOW = "name: ci\non: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n"


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("git") is None:
        pytest.fail("git is needed to run pre-commit")
    folder = tmp_path_factory.mktemp("user-repo")
    subprocess.run(["git", "init", "-q", str(folder)], check=True, timeout=60)
    (folder / ".github" / "workflows").mkdir(parents=True)
    (folder / ".github" / "workflows" / "ci.yml").write_text(WORKFLOW)
    (folder / "config").mkdir()
    (folder / "notes.json").write_text('{"owner": "payments"}\n')
    return folder


def try_repo(folder: Path, *files: str, hook: str = "kafka-advisor") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(folder.parent / "pre-commit-home"), "PRE_COMMIT_COLOR": "never"}
    env.pop("PYTHONPATH", None)
    command = [sys.executable, "-m", "pre_commit", "try-repo", str(REPO_ROOT), hook, "--verbose",
               "--files", *files]  # fmt: skip
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=900, env=env)


def test_the_hook_fails_on_a_broken_file_and_passes_once_it_is_fixed(repository: Path) -> None:
    producer = repository / "config" / "producer.properties"
    producer.write_text(BAD)
    others = (".github/workflows/ci.yml", "notes.json")
    failed = try_repo(repository, "config/producer.properties", *others)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "KP103" in failed.stdout and "config/producer.properties" in failed.stdout
    producer.write_text(FIXED)
    passed = try_repo(repository, "config/producer.properties", *others)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout and "KP103" not in passed.stdout  # the workflow and the JSON: passed over


def test_the_fixing_hook_writes_the_safe_fix_fails_once_and_then_passes(repository: Path) -> None:
    producer = repository / "config" / "fixed-by-hook.producer.properties"
    producer.write_text(BAD)
    subprocess.run(["git", "add", str(producer)], cwd=repository, check=True, timeout=60)  # staged, as committed
    fixed = try_repo(repository, "config/fixed-by-hook.producer.properties", hook="kafka-advisor-fix")
    assert fixed.returncode == 1, fixed.stdout + fixed.stderr  # a file changed: the commit stops to show it
    assert "files were modified by this hook" in fixed.stdout, fixed.stdout
    assert producer.read_text() == FIXED
    again = try_repo(repository, "config/fixed-by-hook.producer.properties", hook="kafka-advisor-fix")
    assert again.returncode == 0, again.stdout + again.stderr
