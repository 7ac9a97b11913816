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


def _unread_tree(root: Path) -> Path:
    """Kafka configuration in shapes no reader claims yet, beside files that are not Kafka's."""
    root.mkdir()
    # a tool image (it creates topics), not a broker's: the Dockerfile reader leaves it
    (root / "Dockerfile").write_text('FROM apache/kafka:3.8.1\nENTRYPOINT ["kafka-topics.sh", "--create"]\n')
    (root / "msk.tfvars").write_text('server_properties = "min.insync.replicas=1"\n')
    (root / "hosts").write_text("[kafka_broker]\nbroker-a.internal\nbroker-b.internal\n")
    (root / "server.properties.j2").write_text("# rendered by Ansible\nbroker.id={{ broker_id }}\n")
    (root / "app.conf").write_text("worker_processes 4;\n")  # looked into, mentions nothing of Kafka's
    (root / "README.md").write_text("Set bootstrap.servers=... in the app.\n")  # prose: not looked into
    (root / "orders.producer.properties").write_text("bootstrap.servers=kafka-a:9092\nacks=all\n")
    return root


UNREAD = {"Dockerfile": 1, "msk.tfvars": 1, "hosts": 1, "server.properties.j2": 2}


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "junit", "github"])
def test_a_walk_names_every_kafka_file_it_did_not_read_in_every_format(tmp_path: Path, fmt: str) -> None:
    root = _unread_tree(tmp_path / "repo")
    result = lint(tmp_path, "repo", "--output-format", fmt)
    assert result.returncode == 0, result.stderr
    for name, line in UNREAD.items():
        assert f"{root / name}:{line}: skipped: it mentions" in result.stderr.replace("repo/", f"{root}/")
        assert name in result.stdout or fmt == "text"
    assert "app.conf" not in result.stderr and "README.md" not in result.stderr
    if fmt == "text":
        assert f"{len(UNREAD)} file(s) skipped (see stderr)" in result.stdout
    if fmt == "json":
        report = json.loads(result.stdout)
        assert sorted(Path(s["path"]).name for s in report["skipped"]) == sorted(UNREAD)
        assert [Path(f["path"]).name for f in report["files"]] == ["orders.producer.properties"]


@pytest.mark.parametrize("how", ["flag", "config"])
def test_unread_error_makes_them_errors_for_a_ci_gate(tmp_path: Path, how: str) -> None:
    _unread_tree(tmp_path / "repo")
    if how == "config":
        (tmp_path / ".kafka-advisor.toml").write_text('unread = "error"\n')
    result = lint(tmp_path, "repo", "--output-format", "json", *(["--unread", "error"] if how == "flag" else []))
    assert result.returncode == 2
    report = json.loads(result.stdout)
    assert sorted(Path(e["path"]).name for e in report["errors"] if e["kind"] == "unread") == sorted(UNREAD)
    assert report["skipped"] == []
    empty = tmp_path / "empty"
    empty.mkdir()
    nothing = lint(tmp_path, "empty", "--unread", "error")
    assert nothing.returncode == 2 and "no configuration was read" in nothing.stderr
