from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
DEMO = REPO_ROOT / "fixtures" / "demo"


def lint(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "advisor", "lint", *args, "--output-format", "json"],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
        env={"PYTHONPATH": str(REPO_ROOT), "PATH": "/usr/bin:/bin"},
    )


def rules_of(result: subprocess.CompletedProcess[str]) -> set[str]:
    return {f["rule"] for f in json.loads(result.stdout)["findings"] if not f["suppressed"]}


def project(tmp_path: Path, config: str, name: str = ".kafka-advisor.toml") -> Path:
    (tmp_path / "conf").mkdir()
    shutil.copy(DEMO / "server.properties", tmp_path / "conf" / "server.properties")
    shutil.copy(DEMO / "producer.properties", tmp_path / "conf" / "producer.properties")
    (tmp_path / name).write_text(config)
    return tmp_path


def test_closest_config_selects_ignores_and_sets_the_threshold(tmp_path: Path) -> None:
    root = project(tmp_path, 'ignore = ["KB1"]\nfail-on = "error"\n')
    result = lint(root, "conf")
    assert rules_of(result) == {"KP101", "KP118"}
    assert result.returncode == 0  # only warnings, and fail-on = error


def test_pyproject_section_and_per_file_ignores(tmp_path: Path) -> None:
    config = '[project]\nname = "x"\n\n[tool.kafka-advisor]\nper-file-ignores = {"conf/producer.*" = ["KP101"]}\n'
    root = project(tmp_path, config, "pyproject.toml")
    found = rules_of(lint(root, "conf"))
    assert "KP101" not in found and "KB103" in found


def test_command_line_overrides_the_config(tmp_path: Path) -> None:
    root = project(tmp_path, 'select = ["KP"]\n')
    assert rules_of(lint(root, "conf")) == {"KP101", "KP118"}
    assert "KB103" in rules_of(lint(root, "conf", "--select", "KB"))


def test_unknown_config_key_is_an_error_with_its_line(tmp_path: Path) -> None:
    root = project(tmp_path, 'select = ["KB"]\nfail_on = "error"\n')
    result = lint(root, "conf")
    assert result.returncode == 2
    assert ".kafka-advisor.toml:2: unknown kafka-advisor setting 'fail_on'" in result.stderr


def test_baseline_survives_moved_lines_and_catches_new_findings(tmp_path: Path) -> None:
    root = project(tmp_path, "")
    recorded = subprocess.run(
        [sys.executable, "-m", "advisor", "lint", "conf", "--write-baseline", "baseline.json"],
        cwd=root,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(REPO_ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert recorded.returncode == 0
    assert lint(root, "conf", "--baseline", "baseline.json").returncode == 0
    server = root / "conf" / "server.properties"
    server.write_text("# moved down\n\n" + server.read_text())  # same findings, other lines
    assert lint(root, "conf", "--baseline", "baseline.json").returncode == 0
    producer = root / "conf" / "producer.properties"
    producer.write_text(producer.read_text() + "session.timeout.ms=1\n")  # KX100: a new finding
    result = lint(root, "conf", "--baseline", "baseline.json")
    assert result.returncode == 1
    assert rules_of(result) == {"KX100"}


def test_missing_baseline_is_an_input_error(tmp_path: Path) -> None:
    root = project(tmp_path, "")
    result = lint(root, "conf", "--baseline", "nope.json")
    assert result.returncode == 2
    assert "nope.json:1: baseline file not found" in result.stderr


OVERRIDES = """
[overrides."deploy/**/*.conf"]
format = "properties"
as = "broker"
kafka-version = "3.7"
cluster = "payments"

[overrides."apps/*.cfg.json"]
format = "client-dict"
as = "consumer"
client = "kafka-python"
"""


def test_override_globs_say_what_files_are_where_content_cannot(tmp_path: Path) -> None:
    (tmp_path / ".kafka-advisor.toml").write_text(OVERRIDES)
    (tmp_path / "deploy" / "kafka").mkdir(parents=True)
    (tmp_path / "deploy" / "kafka" / "broker.conf").write_text("node.id=1\nlog.message.format.version=2.8\n")
    (tmp_path / "apps").mkdir()
    (tmp_path / "apps" / "reader.cfg.json").write_text('{"bootstrap_servers": "k:9092", "session_timeout_ms": 5000}\n')
    result = lint(tmp_path, ".", "--output-format", "json")
    report = json.loads(result.stdout)
    assert result.returncode == 0, result.stderr  # info findings only, below the default fail-on
    assert {f["path"]: f["component"] for f in report["findings"]} == {
        "deploy/kafka/broker.conf": "broker",
        "apps/reader.cfg.json": "consumer",
    }
    (stale,) = [f for f in report["findings"] if f["rule"] == "KB105"]
    assert stale["kafka_version"].startswith("3.7.")
    assert stale["kafka_version_from"] == "[overrides.'deploy/**/*.conf'] in the project config"
    assert {f["client"] for f in report["findings"] if f["path"] == "apps/reader.cfg.json"} == {"kafka-python"}


def test_an_override_with_an_unknown_choice_is_an_error_with_its_line(tmp_path: Path) -> None:
    (tmp_path / ".kafka-advisor.toml").write_text('[overrides."*.conf"]\nformat = "ini"\n')
    (tmp_path / "a.properties").write_text("acks=1\n")
    result = lint(tmp_path, "a.properties")
    assert result.returncode == 2
    assert ".kafka-advisor.toml:2" in result.stderr and "format must be one of" in result.stderr


def test_format_reads_a_named_file_as_said_and_refuses_content_of_another_format(tmp_path: Path) -> None:
    (tmp_path / "producer.txt").write_text("acks=1\n")
    read = lint(tmp_path, "producer.txt", "--format", "properties", "--as", "producer")
    assert rules_of(read) == {"KP101"}
    refused = lint(tmp_path, "producer.txt", "--format", "compose")
    assert refused.returncode == 2
    assert "producer.txt:1: --format says compose, but this is not a compose file" in refused.stderr
