"""KP116 against the real Spring stack: Boot's KafkaProperties builds the producer config and
spring-kafka's DefaultKafkaProducerFactory, given the transaction-id prefix, creates the
producer — for Spring Boot 2.7, 3.5 and 4.0 (the jars the Spring catalog is generated from)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from oracles import compile_java

from advisor.report.session import lint

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO_ROOT / "tools"), str(REPO_ROOT / "tools" / "catalog")]
import fetch_kafka  # noqa: E402
import gen_spring_catalog  # noqa: E402

ORACLE = REPO_ROOT / "tests" / "java" / "SpringProducerOracle.java"
CASES = [
    # (Spring settings, what createProducer() does, KP116 fires)
    ({"retries": "0", "transaction-id-prefix": "tx-"}, "Must set retries to non-zero", True),
    ({"acks": "1", "transaction-id-prefix": "tx-"}, "Must set acks to all", True),
    ({"properties.enable.idempotence": "false", "transaction-id-prefix": "tx-"}, "Cannot set a transactional.id", True),
    ({"transaction-id-prefix": "tx-"}, "awaiting InitProducerId", False),  # valid: it only finds no broker
    ({"retries": "0"}, None, False),
]


@pytest.fixture(scope="module")
def oracle_classes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_java(ORACLE, tmp_path_factory.mktemp("spring-oracle"))


@pytest.mark.parametrize("boot", sorted(gen_spring_catalog.BOOT_RELEASES))
@pytest.mark.parametrize(("settings", "outcome", "fires"), CASES)
def test_kp116_matches_spring_boot(
    oracle_classes: Path, tmp_path: Path, boot: str, settings: dict[str, str], outcome: str | None, fires: bool
) -> None:
    jars = gen_spring_catalog.boot_jars(boot)
    properties_class, _ = gen_spring_catalog.read_metadata(jars)
    command = ["java", "-cp", f"{oracle_classes}:{fetch_kafka.classpath(jars)}", "SpringProducerOracle"]
    command += [properties_class, *(f"{k}={v}" for k, v in settings.items())]
    result = json.loads(subprocess.run(command, capture_output=True, text=True, timeout=120).stdout.splitlines()[-1])
    if outcome is None:
        assert result["ok"], result
    else:
        assert not result["ok"] and outcome in result["message"], result
        refused = result["exception"].endswith("ConfigException")
        assert refused is fires, result

    application = tmp_path / "application.properties"
    application.write_text("".join(f"spring.kafka.producer.{k}={v}\n" for k, v in settings.items()))
    assert ("KP116" in {f.rule for f in lint([application]).findings}) is fires
