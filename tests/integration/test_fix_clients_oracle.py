"""The fixed client files are ones the real clients take: each client case of fixtures/fix, before
and after `lint --fix`, constructed by the software that reads it — the Java producer
(kafka-clients, from the Maven jars) from the .properties file, librdkafka (confluent-kafka) from the
kcat.conf and the JSON dict, kafka-python from its YAML keyword arguments. A file the client refused
before the fix is taken after it."""

from __future__ import annotations

from pathlib import Path

import fetch_kafka  # tools/, on the path through tests/conftest.py
from oracles import compile_java, run_batch
from test_client_library_oracle import build_kafka_python, build_librdkafka

from advisor.report.session import lint

REPO_ROOT = Path(__file__).resolve().parents[2]
CASES = REPO_ROOT / "fixtures" / "fix"


def _settings(path: Path) -> dict[str, str]:
    (config_set,) = lint([path]).document.config_sets
    return {key: setting.value for key, setting in config_set.settings.items() if key != "bootstrap.servers"}


def test_the_java_producer_refuses_the_file_before_and_takes_it_after(tmp_path: Path) -> None:
    libs = fetch_kafka.classpath(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION))
    classes = compile_java(REPO_ROOT / "tests" / "java" / "ClientOracle.java", tmp_path, libs)
    name = "orders.producer.properties"
    cases = [_settings(CASES / "properties-crlf-latin1" / kind / name) for kind in ("before", "after")]
    before, after = run_batch(f"{classes}:{libs}", ["ClientOracle", "producer", "--batch"], cases)
    assert before["ok"] is False and "max.in.flight.requests.per.connection" in before["message"], before
    assert after["ok"] is True and after["idempotent"] is True, after


def test_librdkafka_takes_the_fixed_files() -> None:
    for case, name in (("kcat-insert-crlf", "kcat.conf"), ("librdkafka-json", "payments.librdkafka.json")):
        after = _settings(CASES / case / "after" / name)
        assert after.get("enable.idempotence") == "true", after
        assert build_librdkafka("producer", after) is None, case


def test_kafka_python_refuses_the_keywords_before_and_takes_them_after() -> None:
    import yaml

    case = CASES / "kafka-python-yaml"
    before, after = (
        yaml.safe_load((case / kind / "writer.yaml").read_text())["producer"] for kind in ("before", "after")
    )
    for keywords in (before, after):
        keywords.pop("bootstrap_servers")
    assert "max_in_flight_requests_per_connection" in (build_kafka_python("producer", before) or "")
    assert build_kafka_python("producer", after) is None
