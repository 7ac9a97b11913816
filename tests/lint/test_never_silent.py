"""A run says what it did not judge: one that read no configuration says so in every format, and
the summary of a run that exits 2 never reads like a clean one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def lint(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "advisor", "lint", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=60, env={"PYTHONPATH": str(REPO_ROOT), "PATH": "/usr/bin:/bin"})  # fmt: skip


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "junit", "github"])
def test_a_run_that_read_no_configuration_says_so_in_every_format(tmp_path: Path, fmt: str) -> None:
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "README.md").write_text("# nothing of Kafka's\n")
    result = lint(tmp_path, "repo", "--output-format", fmt)
    assert result.returncode == 0
    assert "repo: no configuration was read" in result.stderr
    assert "no configuration was read" in result.stdout
    if fmt == "json":
        report = json.loads(result.stdout)
        assert [s["kind"] for s in report["skipped"]] == ["nothing-read"] and report["summary"]["notes"] == 1


def test_a_run_that_read_something_has_no_such_note(tmp_path: Path) -> None:
    (tmp_path / "orders.producer.properties").write_text("bootstrap.servers=kafka-1:9092\nacks=all\n")
    result = lint(tmp_path, ".", "--output-format", "json")
    assert "no configuration was read" not in result.stdout + result.stderr


def test_the_summary_of_a_run_that_exits_2_says_it_is_incomplete(tmp_path: Path) -> None:
    (tmp_path / "orders.producer.properties").write_text("bootstrap.servers=kafka-1:9092\nacks=1\n")
    result = lint(tmp_path, "orders.producer.properties", "--select", "KP9999")
    summary = result.stdout.strip().splitlines()[-1]
    assert result.returncode == 2 and "0 error" not in summary
    assert summary == "1 file(s) checked: no findings; 1 problem(s), so the run is incomplete (see stderr)"
    clean = lint(tmp_path, "orders.producer.properties").stdout.strip().splitlines()[-1]
    assert clean == "1 file(s) checked: 1 finding(s) (1 warning)"
