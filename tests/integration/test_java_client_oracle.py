"""The Java producer rules against the real Java client: kafka-clients 4.4.0 and 3.9.1 are
constructed with the same settings the linter reads, and the verdicts must agree."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.pipeline import lint

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tools"))
import fetch_kafka  # noqa: E402

ORACLE = REPO_ROOT / "tests" / "java" / "ClientOracle.java"
LIBS = {"4.4": lambda: fetch_kafka.kafka_libs("4.4.0"), "3.9": lambda: fetch_kafka.kafka_core_libs("3.9.1")}


@pytest.fixture(scope="module")
def oracle_classes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("javac") is None:
        pytest.fail("javac is needed to build the client oracle")
    out = tmp_path_factory.mktemp("oracle")
    subprocess.run(["javac", "-d", str(out), str(ORACLE)], check=True, timeout=120)
    return out


def construct(classes: Path, version: str, settings: dict[str, str]) -> dict:
    classpath = f"{classes}:{fetch_kafka.classpath(LIBS[version]())}"
    command = ["java", "-cp", classpath, "ClientOracle", "producer", *(f"{k}={v}" for k, v in settings.items())]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    return json.loads(result.stdout.strip().splitlines()[-1])


def verdicts(tmp_path: Path, version: str, settings: dict[str, str]) -> set[str]:
    config = tmp_path / "app.producer.properties"
    config.write_text("".join(f"{k}={v}\n" for k, v in settings.items()))
    found = lint([config], kafka_version=version).findings
    return {f.rule for f in found if f.rule in ("KP103", "KP104", "KP105")}


CASES = [
    # (Kafka version, settings, what the client does, the rules that must fire)
    ("4.4", {"max.in.flight.requests.per.connection": "6"}, "refused", {"KP103"}),
    ("4.4", {"max.in.flight.requests.per.connection": "6", "acks": "1"}, "refused", {"KP103"}),
    ("4.4", {"max.in.flight.requests.per.connection": "6", "retries": "0"}, "refused", {"KP103"}),
    ("4.4", {"max.in.flight.requests.per.connection": "6", "enable.idempotence": "false"}, "not idempotent", set()),
    ("4.4", {"max.in.flight.requests.per.connection": "5"}, "idempotent", set()),
    ("4.4", {"enable.idempotence": "true", "acks": "1"}, "refused", {"KP105"}),
    ("3.9", {"max.in.flight.requests.per.connection": "6"}, "not idempotent", {"KP104"}),
    ("3.9", {"max.in.flight.requests.per.connection": "6", "enable.idempotence": "true"}, "refused", {"KP103"}),
    ("3.9", {"max.in.flight.requests.per.connection": "5"}, "idempotent", set()),
    ("3.9", {"enable.idempotence": "true", "acks": "1"}, "refused", {"KP105"}),
    ("3.9", {"acks": "1", "max.in.flight.requests.per.connection": "6"}, "not idempotent", set()),
]


@pytest.mark.parametrize(("version", "settings", "behaviour", "rules"), CASES)
def test_rules_match_the_real_java_producer(
    oracle_classes: Path, tmp_path: Path, version: str, settings: dict, behaviour: str, rules: set
) -> None:
    outcome = construct(oracle_classes, version, settings)
    if behaviour == "refused":
        assert outcome["ok"] is False and outcome["exception"].endswith("ConfigException"), outcome
    else:
        assert outcome["ok"] is True, outcome
        assert outcome["idempotent"] is (behaviour == "idempotent")
    assert verdicts(tmp_path, version, settings) == rules
