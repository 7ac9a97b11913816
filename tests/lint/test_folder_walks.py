"""Folder walks and limits (issue #12): a repository folder is linted for its Kafka files —
templates and unrelated JSON/YAML are said and passed over, never failing the run; links out
of the folder are not followed unless asked; a folder that cannot be read is said; and every
limit (file size, line length, file count, YAML nodes and depth) is a clear problem, set in
the project config within its maximum."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

HELM_TEMPLATE = """apiVersion: v1
kind: ConfigMap
data:
  client.properties: |
    bootstrap.servers={{ .Values.kafka.bootstrap }}
{{- if .Values.tls }}
    security.protocol=SSL
{{- end }}
"""
TSCONFIG = '{\n  // compiler options\n  "compilerOptions": {"strict": true, },\n}\n'


def lint(*args: str, cwd: Path = REPO_ROOT, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*prefix, sys.executable, "-m", "advisor", "lint", *args, "--output-format", "json"],
        capture_output=True, text=True, cwd=cwd, timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )  # fmt: skip


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_a_repository_is_linted_for_its_kafka_files_alone(tmp_path: Path) -> None:
    write(tmp_path, {
        "chart/templates/configmap.yaml": HELM_TEMPLATE,
        "web/tsconfig.json": TSCONFIG,
        "web/package-lock.json": '{"name": "web", "lockfileVersion": 3, "packages": {}}\n',
        "ci/build.yml": "on: push\njobs:\n  build:\n    steps:\n      - run: make {{ target }\n",
        "config/log4j.properties": "log4j.rootLogger=INFO, stdout\n",
        "config/app.producer.properties": "bootstrap.servers=kafka-1:9092\nacks=1\n",
    })  # fmt: skip
    result = lint(str(tmp_path))
    report = json.loads(result.stdout)
    assert result.returncode == 1, result.stderr  # findings; nothing failed to read that is Kafka's
    assert report["errors"] == []
    assert [f["rule"] for f in report["findings"]] == ["KP101"]
    skipped = {Path(s["path"]).name: s["message"] for s in report["skipped"]}
    assert skipped["configmap.yaml"].startswith("skipped: a template")
    assert skipped["tsconfig.json"].endswith("nothing in it is Kafka configuration")
    assert "tsconfig.json" in result.stderr and "configmap.yaml" in result.stderr  # said, not silent


def test_a_broken_kafka_file_in_a_folder_still_fails_the_run(tmp_path: Path) -> None:
    write(tmp_path, {"docker-compose.yml": "services:\n  kafka:\n    environment:\n      KAFKA_NODE_ID: [1\n"})
    result = lint(str(tmp_path))
    assert result.returncode == 2
    (error,) = json.loads(result.stdout)["errors"]
    assert error["message"].startswith("invalid YAML")


def test_links_out_of_the_folder_are_not_followed_unless_asked(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write(outside, {"elsewhere.producer.properties": "acks=0\nssl.truststore.location=/etc/outside-only\n"})
    project = tmp_path / "project"
    write(project, {"app.producer.properties": "acks=all\n"})
    (project / "linked.producer.properties").symlink_to(outside / "elsewhere.producer.properties")
    (project / "inside.producer.properties").symlink_to(project / "app.producer.properties")
    (project / "loop").symlink_to(project, target_is_directory=True)  # walked once, never forever
    result = lint(str(project))
    report = json.loads(result.stdout)
    assert "outside-only" not in result.stdout + result.stderr
    assert {Path(f["path"]).name for f in report["files"]} == {"app.producer.properties", "inside.producer.properties"}
    (note,) = [s for s in report["skipped"] if "linked" in s["path"]]
    assert "not followed (--follow-links reads it)" in note["message"]
    followed = json.loads(lint(str(project), "--follow-links").stdout)
    assert "linked.producer.properties" in {Path(f["path"]).name for f in followed["files"]}


@pytest.mark.skipif(shutil.which("setpriv") is None, reason="needs setpriv to lint without root's read override")
def test_a_folder_that_cannot_be_read_is_said(tmp_path: Path) -> None:
    """As root every folder is readable; the run drops CAP_DAC_OVERRIDE/READ_SEARCH (setpriv)."""
    write(tmp_path, {"app.producer.properties": "acks=1\n", "locked/inner.producer.properties": "acks=1\n"})
    (tmp_path / "locked").chmod(0)
    try:
        drop = ("setpriv", "--bounding-set=-dac_override,-dac_read_search")
        result = lint(str(tmp_path), prefix=drop)
    finally:
        (tmp_path / "locked").chmod(0o755)
    report = json.loads(result.stdout)
    assert [Path(f["path"]).name for f in report["files"]] == ["app.producer.properties"]
    (note,) = [s for s in report["skipped"] if s["path"].endswith("locked")]
    assert note["message"] == "skipped: this folder cannot be read (Permission denied)"


def test_limits_are_problems_and_the_project_config_moves_them(tmp_path: Path) -> None:
    write(tmp_path, {
        ".kafka-advisor.toml": "[limits]\nfile-bytes = 400\nline-chars = 100\nyaml-nodes = 30\n",
        "big/a.producer.properties": "acks=1\n" + "# padding\n" * 50,
        "long/b.producer.properties": "acks=1\nclient.id=" + "c" * 150 + "\n",
        "nodes/docker-compose.yml": "services:\n  kafka:\n    environment:\n"
        + "".join(f"      KAFKA_X{i}: {i}\n" for i in range(12)),  # 31 nodes
        "ok/c.producer.properties": "acks=1\n",
    })  # fmt: skip
    walked = lint(".", cwd=tmp_path)
    report = json.loads(walked.stdout)
    skipped = {Path(s["path"]).name: s["message"] for s in report["skipped"]}
    assert skipped["a.producer.properties"] == "skipped: larger than 400 bytes (507; limits.file-bytes): not read"
    assert skipped["b.producer.properties"] == "skipped: line longer than 100 characters (limits.line-chars): not read"
    (error,) = report["errors"]  # a compose file is Kafka's: its refusal fails the run
    assert error["message"] == "YAML of more than 30 nodes (limits.yaml-nodes): refused unread"  # no alias in it
    assert walked.returncode == 2
    named = lint("big/a.producer.properties", cwd=tmp_path)
    (refused,) = json.loads(named.stdout)["errors"]
    assert named.returncode == 2 and refused["message"].startswith("larger than 400 bytes")
    forced = lint("--format", "properties", "big/a.producer.properties", cwd=tmp_path)  # a stated format too
    assert json.loads(forced.stdout)["errors"][0]["message"].startswith("larger than 400 bytes")


def test_the_file_count_limit(tmp_path: Path) -> None:
    write(tmp_path, {".kafka-advisor.toml": "[limits]\nfiles = 2\n"})
    write(tmp_path, {f"apps/{n}.producer.properties": "acks=1\n" for n in "abc"})
    result = lint("apps", cwd=tmp_path)
    report = json.loads(result.stdout)
    assert result.returncode == 2
    assert [Path(f["path"]).name for f in report["files"]] == ["a.producer.properties", "b.producer.properties"]
    assert report["errors"][0]["message"] == "more than 2 files to read (limits.files): the first 2 read"


@pytest.mark.parametrize(("line", "expected"), [
    ("files = 0", "limits.files must be a whole number from 1 to 2,000,000"),
    ("depth = 5000", "limits.depth must be a whole number from 1 to 1,000"),
    ("speed = 3", "unknown key limits.speed"),
])  # fmt: skip
def test_limits_in_the_project_config_are_checked(tmp_path: Path, line: str, expected: str) -> None:
    write(tmp_path, {".kafka-advisor.toml": f"[limits]\n{line}\n", "a.producer.properties": "acks=1\n"})
    result = lint(".", cwd=tmp_path)
    assert result.returncode == 2 and expected in result.stderr


@pytest.mark.skipif(shutil.which("setpriv") is None, reason="needs setpriv to lint without root's read override")
def test_a_file_that_cannot_be_read_is_an_input_error_named_and_a_note_walked(tmp_path: Path) -> None:
    write(tmp_path, {"ok.producer.properties": "acks=1\n", "locked.producer.properties": "acks=1\n"})
    (tmp_path / "locked.producer.properties").chmod(0)
    drop = ("setpriv", "--bounding-set=-dac_override,-dac_read_search")
    try:
        locked, ok = tmp_path / "locked.producer.properties", tmp_path / "ok.producer.properties"
        named = lint(str(locked), str(ok), prefix=drop)
        walked = lint(str(tmp_path), prefix=drop)
    finally:
        (tmp_path / "locked.producer.properties").chmod(0o644)
    report = json.loads(named.stdout)
    assert named.returncode == 2 and [e["message"] for e in report["errors"]] == ["cannot be read: Permission denied"]
    assert [f["rule"] for f in report["findings"]] == ["KP101"]  # the other file, as ever
    notes = json.loads(walked.stdout)["skipped"]
    assert walked.returncode == 1 and [n["message"] for n in notes] == ["skipped: cannot be read: Permission denied"]


def test_a_walk_reads_suffixes_as_pathlib_does() -> None:
    """The walk takes a name's suffix without making a Path of every entry: the same answers."""
    from advisor.sources import _suffix

    names = ["a.tar.gz", ".env", "a.", "a", "..", "a..b", ".x.y", "server.properties", "...", "a.b.", "run.sh", "é.yml"]
    assert [_suffix(name) for name in names] == [Path(name).suffix for name in names]
