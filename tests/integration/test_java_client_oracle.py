"""The Java producer rules against the real Java client: kafka-clients 4.4.0 and 3.9.1 are
constructed with the same settings the linter reads, and the verdicts must agree."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from oracles import compile_java, definition_cases, refused_by_definition, run_batch, run_once

from advisor.report.session import lint

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tools"))
import fetch_kafka  # noqa: E402

ORACLE = REPO_ROOT / "tests" / "java" / "ClientOracle.java"
LIBS = {
    "4.4": lambda: fetch_kafka.kafka_libs("4.4.0"),
    "4.0": lambda: fetch_kafka.kafka_core_libs("4.0.2"),
    "3.9": lambda: fetch_kafka.kafka_core_libs("3.9.1"),
}
RULES = ("KX104", "KP103", "KP104", "KP105", "KP106", "KP107", "KP111", "KP115", "KP123")
RULES += ("KC103", "KC104", "KC110", "KC111")


@pytest.fixture(scope="module")
def oracle_classes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_java(ORACLE, tmp_path_factory.mktemp("oracle"))


def construct(classes: Path, version: str, settings: dict[str, str], role: str = "producer") -> dict:
    classpath = f"{classes}:{fetch_kafka.classpath(LIBS[version]())}"
    return run_once(classpath, "ClientOracle", role, *(f"{k}={v}" for k, v in settings.items()))


def verdicts(tmp_path: Path, version: str, settings: dict[str, str], role: str = "producer") -> set[str]:
    config = tmp_path / f"app.{role}.properties"
    config.write_text("".join(f"{k}={v}\n" for k, v in settings.items()))
    found = lint([config], kafka_version=version).findings
    return {f.rule for f in found if f.rule in RULES}


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
    ("4.4", {"delivery.timeout.ms": "20000"}, "refused", {"KP106"}),
    ("3.9", {"delivery.timeout.ms": "20000", "linger.ms": "0"}, "refused", {"KP106"}),
    ("4.4", {"delivery.timeout.ms": "30005"}, "idempotent", set()),
    ("4.4", {"transactional.id": "t", "enable.idempotence": "false"}, "refused", {"KP107"}),
    ("4.4", {"transactional.id": "t", "acks": "1"}, "refused", {"KP107"}),
    ("4.4", {"transactional.id": "t", "retries": "0"}, "refused", {"KP107"}),
    ("3.9", {"transactional.id": "t", "acks": "1"}, "refused", {"KP107"}),
    ("4.4", {"transactional.id": "t"}, "idempotent", set()),
    # retries=0 switches the default idempotence off on every release from 3.0 (KP123)
    ("4.4", {"retries": "0"}, "not idempotent", {"KP123"}),
    ("4.0", {"retries": "0"}, "not idempotent", {"KP123"}),
    ("3.9", {"retries": "0"}, "not idempotent", {"KP123"}),
    ("4.4", {"retries": "0", "enable.idempotence": "false"}, "not idempotent", {"KP123"}),
    ("4.4", {"retries": "1"}, "idempotent", set()),
    ("4.4", {"retries": "0", "enable.idempotence": "true"}, "refused", {"KP111"}),
    ("3.9", {"retries": "0", "enable.idempotence": "true"}, "refused", {"KP111"}),
    ("4.4", {"retries": "0", "acks": "1"}, "not idempotent", {"KP123"}),  # drops records; idempotence was off
    ("4.4", {"partitioner.class": "org.apache.kafka.clients.producer.UniformStickyPartitioner"}, "refused", {"KP115"}),
    (
        "4.0",
        {"partitioner.class": "org.apache.kafka.clients.producer.internals.DefaultPartitioner"},
        "refused",
        {"KP115"},
    ),
    ("3.9", {"partitioner.class": "org.apache.kafka.clients.producer.UniformStickyPartitioner"}, "idempotent", set()),
    ("4.4", {"partitioner.class": "org.apache.kafka.clients.producer.RoundRobinPartitioner"}, "idempotent", set()),
    # a bootstrap address written twice is accepted (4.4, 4.0 and 3.9 alike): nothing to report
    ("4.4", {"bootstrap.servers": "localhost:9092,localhost:9092"}, "idempotent", set()),
    ("3.9", {"bootstrap.servers": "localhost:9092, localhost:9092"}, "idempotent", set()),
]

CONSUMER_CASES = [
    ("4.4", {"group.id": "g", "heartbeat.interval.ms": "45000", "session.timeout.ms": "45000"}, False, {"KC103"}),
    ("3.9", {"group.id": "g", "heartbeat.interval.ms": "45000", "session.timeout.ms": "45000"}, False, {"KC103"}),
    ("4.4", {"group.id": "g", "heartbeat.interval.ms": "20000", "session.timeout.ms": "45000"}, True, set()),
    ("4.4", {"group.id": "g", "group.protocol": "consumer", "session.timeout.ms": "30000"}, False, {"KC104"}),
    ("4.0", {"group.id": "g", "group.protocol": "consumer", "heartbeat.interval.ms": "3000"}, False, {"KC104"}),
    ("3.9", {"group.id": "g", "group.protocol": "consumer", "session.timeout.ms": "30000"}, True, set()),
    ("4.4", {"group.id": "g", "group.protocol": "consumer"}, True, set()),
    ("4.4", {"enable.auto.commit": "true"}, False, {"KC110"}),
    ("3.9", {"enable.auto.commit": "true"}, False, {"KC110"}),
    ("4.4", {"enable.auto.commit": "false"}, True, set()),
    ("4.4", {"group.id": "g", "enable.auto.commit": "true"}, True, set()),
    ("4.4", {"group.id": "g", "group.remote.assignor": "uniform"}, False, {"KC111"}),
    ("3.9", {"group.id": "g", "group.remote.assignor": "uniform"}, False, {"KC111"}),
    ("4.4", {"group.id": "g", "group.protocol": "consumer", "group.remote.assignor": "uniform"}, True, set()),
    # auto.offset.reset's custom validator (4.0+): exact words, or by_duration: and a non-negative ISO-8601 duration
    ("4.4", {"group.id": "g", "auto.offset.reset": "earlist"}, False, {"KX104"}),
    ("4.4", {"group.id": "g", "auto.offset.reset": "EARLIEST"}, False, {"KX104"}),
    ("4.4", {"group.id": "g", "auto.offset.reset": "smallest"}, False, {"KX104"}),
    ("4.4", {"group.id": "g", "auto.offset.reset": " earliest "}, True, set()),
    ("4.4", {"group.id": "g", "auto.offset.reset": "by_duration:PT1H"}, True, set()),
    ("4.4", {"group.id": "g", "auto.offset.reset": "by_duration:pt0.5s"}, True, set()),
    ("4.4", {"group.id": "g", "auto.offset.reset": "by_duration:P1DT-1H"}, True, set()),
    ("4.4", {"group.id": "g", "auto.offset.reset": "by_duration:PT-1H"}, False, {"KX104"}),
    ("4.4", {"group.id": "g", "auto.offset.reset": "by_duration:1h"}, False, {"KX104"}),
    ("4.4", {"group.id": "g", "auto.offset.reset": "by_duration:PT"}, False, {"KX104"}),
    ("4.4", {"group.id": "g", "auto.offset.reset": "BY_DURATION:PT1H"}, False, {"KX104"}),
    ("4.0", {"group.id": "g", "auto.offset.reset": "earlist"}, False, {"KX104"}),
    ("3.9", {"group.id": "g", "auto.offset.reset": "by_duration:PT1H"}, False, {"KX104"}),
    ("4.4", {"group.id": "g", "isolation.level": "read-committed"}, False, {"KX104"}),
]


@pytest.mark.parametrize(("version", "settings", "accepted", "rules"), CONSUMER_CASES)
def test_rules_match_the_real_java_consumer(
    oracle_classes: Path, tmp_path: Path, version: str, settings: dict, accepted: bool, rules: set
) -> None:
    outcome = construct(oracle_classes, version, settings, role="consumer")
    assert outcome["ok"] is accepted, outcome
    assert verdicts(tmp_path, version, settings, role="consumer") == rules


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


@pytest.mark.parametrize("role", ["producer", "consumer"])
def test_client_value_rule_matches_the_real_java_client(oracle_classes: Path, tmp_path: Path, role: str) -> None:
    cases = definition_cases(role, "4.4.0", booleans=True)
    assert len(cases) > 40, "the catalog should define ranges and choices for many client keys"
    classpath = f"{oracle_classes}:{fetch_kafka.classpath(LIBS['4.4']())}"
    outcomes = run_batch(classpath, ["ClientOracle", role, "--batch"], [{key: value} for key, value, _ in cases])
    disagreements = []
    for (key, value, refused), outcome in zip(cases, outcomes, strict=True):
        definition_refused = refused_by_definition(key, outcome)
        config = tmp_path / f"app.{role}.properties"
        config.write_text(f"{key}={value}\n")
        fired = any(f.rule == "KX104" for f in lint([config], kafka_version="4.4").findings)
        if definition_refused != refused or fired != refused:
            disagreements.append((key, value, outcome, fired))
    assert not disagreements, disagreements[:10]
