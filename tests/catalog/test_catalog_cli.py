from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def catalog_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "advisor", "catalog", *args], capture_output=True, text=True, cwd=REPO_ROOT, timeout=60
    )


def test_json_has_the_documented_fields_and_history() -> None:
    result = catalog_cli("acks", "--format", "json")
    assert result.returncode == 0, result.stderr
    info = json.loads(result.stdout)
    for field in ("key", "component", "client", "kafka_version", "type", "default", "valid", "dynamic", "history"):
        assert field in info
    assert (info["key"], info["component"], info["client"], info["default"]) == ("acks", "producer", "java", "all")
    events = [(e["version"], e["event"], e["default"]) for e in info["history"]]
    assert events == [("2.8.2", "present", "1"), ("3.0.2", "default-changed", "all")]


def test_version_and_component_select_the_answer() -> None:
    info = json.loads(catalog_cli("linger.ms", "--kafka-version", "3.9", "--format", "json").stdout)
    assert (info["kafka_version"], info["default"]) == ("3.9.1", 0)
    info = json.loads(catalog_cli("min.insync.replicas", "--component", "topic", "--format", "json").stdout)
    assert info["component"] == "topic" and info["owners"] == ["broker", "topic"]


def test_removed_key_exits_1_and_still_shows_its_history() -> None:
    result = catalog_cli("log.message.format.version", "--kafka-version", "4.0", "--format", "json")
    assert result.returncode == 1
    info = json.loads(result.stdout)
    assert info["exists"] is False
    assert info["history"][-1]["event"] == "removed"


def test_wrong_client_spelling_gets_a_suggestion() -> None:
    result = catalog_cli("fetch.max.wait.ms", "--client", "librdkafka", "--format", "json")
    assert result.returncode == 1
    assert json.loads(result.stdout)["suggestions"][0] == "fetch.wait.max.ms"


def test_text_output_shows_validators_verbatim() -> None:
    result = catalog_cli("acks")
    assert result.returncode == 0
    assert "[all, -1, 0, 1]" in result.stdout  # not swallowed as terminal markup


def test_bad_version_is_a_usage_error() -> None:
    result = catalog_cli("acks", "--kafka-version", "1.0")
    assert result.returncode == 2
    assert "older than the oldest release" in result.stderr


def test_catalog_command_does_not_import_the_kafka_clients() -> None:
    code = "import sys; from advisor.cli import main; main(['catalog','acks','--format','json']); " + (
        "print('LOADED', sorted({'confluent_kafka','kafka'} & {m.split('.')[0] for m in sys.modules}))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT, timeout=60)
    assert "LOADED []" in result.stdout
