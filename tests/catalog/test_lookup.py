from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from advisor import catalog
from advisor.catalog import store
from advisor.catalog.model import KafkaCatalogData


@pytest.mark.parametrize(
    ("asked", "answered"),
    [("3.9", "3.9.1"), ("3.9.0", "3.9.1"), ("4.0.0", "4.0.2"), ("3.7-IV4", "3.7.2"), ("9.9", "4.4.0"), (None, "4.4.0")],
)
def test_versions_resolve_to_the_release_of_the_same_minor_or_the_newest_before(asked, answered) -> None:
    assert catalog.resolve_version(asked) == answered


@pytest.mark.parametrize("bad", ["2.7", "1.0.0", "four", ""])
def test_unanswerable_versions_are_errors(bad: str) -> None:
    with pytest.raises(catalog.UnknownVersionError):
        catalog.resolve_version(bad)


def test_owners_name_every_component_that_defines_a_key() -> None:
    assert catalog.owners("min.insync.replicas") == ["broker", "topic"]
    assert catalog.owners("linger.ms") == ["producer"]
    assert catalog.owners("no.such.key") == []


def test_topic_keys_know_their_broker_synonyms() -> None:
    facts = catalog.lookup("retention.ms", "topic")
    assert facts.broker_synonyms == ("log.retention.ms", "log.retention.minutes", "log.retention.hours")
    assert catalog.lookup("segment.ms", "topic").broker_synonyms[0] == "log.roll.ms"


def test_broker_keys_carry_their_dynamic_update_mode() -> None:
    assert catalog.lookup("num.io.threads", "broker").dynamic == "cluster-wide"
    assert catalog.lookup("process.roles", "broker").dynamic == "read-only"
    assert catalog.lookup("listeners", "broker").dynamic == "per-broker"


def test_password_defaults_are_never_exposed() -> None:
    for component in catalog.COMPONENTS:
        for key in catalog.known_keys(component):
            facts = catalog.lookup(key, component)
            if facts.type == "PASSWORD":
                assert facts.default in (None, "[hidden]")


@pytest.mark.parametrize(
    ("key", "component", "client", "expected"),
    [
        ("unclean.leader.election.enabled", "broker", "java", "unclean.leader.election.enable"),
        ("linger_ms", "producer", "java", "linger.ms"),
        ("linger.ms", "producer", "kafka-python", "linger_ms"),
        ("fetch.max.wait.ms", "consumer", "librdkafka", "fetch.wait.max.ms"),
        ("fetch.wait.max.ms", "consumer", "java", "fetch.max.wait.ms"),
    ],
)
def test_did_you_mean(key: str, component: str, client: str, expected: str) -> None:
    assert not catalog.exists(key, component, client=client)
    assert catalog.suggest(key, component, client=client)[0] == expected


def test_client_defaults_differ_where_the_libraries_differ() -> None:
    assert catalog.default("enable.idempotence", "producer") is True
    assert catalog.default("enable.idempotence", "producer", client="librdkafka") is False
    assert catalog.default("batch.size", "producer") == 16384
    assert catalog.default("batch.size", "producer", client="librdkafka") == 1000000
    facts = catalog.lookup("linger.ms", "producer", client="librdkafka")
    assert facts.alias_of == "queue.buffering.max.ms"
    assert facts.client_version == store.librdkafka().librdkafka_version


def test_kafka_python_keys_map_to_kafka_keys_only_where_kafka_has_them() -> None:
    assert catalog.lookup("max_in_flight_requests_per_connection", "producer", client="kafka-python").java_key == (
        "max.in.flight.requests.per.connection"
    )
    # kafka-python's `partitioner` is an object, not Kafka's partitioner.class.
    assert catalog.lookup("partitioner", "producer", client="kafka-python").java_key is None


def test_client_libraries_have_no_broker_configuration() -> None:
    with pytest.raises(ValueError, match="no broker configuration"):
        catalog.lookup("acks", "broker", client="librdkafka")


def test_unknown_key_has_no_default() -> None:
    with pytest.raises(KeyError):
        catalog.default("no.such.key", "producer")


def test_malformed_catalog_data_is_rejected_on_load() -> None:
    raw = json.loads((store.DATA_DIR / "kafka.json").read_text())
    raw["components"]["producer"]["acks"]["spans"][0]["dynamic"] = "sometimes"
    with pytest.raises(ValidationError):
        KafkaCatalogData.model_validate(raw)
    raw = json.loads((store.DATA_DIR / "kafka.json").read_text())
    raw["components"]["producer"]["acks"]["spans"][0]["unexpected"] = 1
    with pytest.raises(ValidationError):
        KafkaCatalogData.model_validate(raw)


@pytest.mark.parametrize("client", ["java", "librdkafka", "kafka-python"])
def test_exists_agrees_with_lookup(client: str) -> None:
    components = catalog.COMPONENTS if client == "java" else catalog.CLIENT_COMPONENTS
    for component in components:
        names = set(catalog.known_keys(component, client=client)) | {"no.such.key", "linger_ms", "fetch.wait.max.ms"}
        for release in ("2.8", "3.9", None):
            for name in names:
                found = catalog.lookup(name, component, kafka_version=release, client=client) is not None
                assert catalog.exists(name, component, kafka_version=release, client=client) == found


def test_data_is_validated_once_per_content_and_then_trusted(tmp_path, monkeypatch) -> None:
    """store.py validates every data file with its pydantic model before first use."""
    monkeypatch.setenv("KAFKA_ADVISOR_CACHE_DIR", str(tmp_path))
    store._validated_json("kafka.json")
    markers = list((tmp_path / "validated").iterdir())
    assert [m.name.split(".")[0] for m in markers] == ["kafka"]
    # A marker is only written after validation passed: break validation, remove the marker.
    markers[0].unlink()
    monkeypatch.setattr(
        KafkaCatalogData, "model_validate", classmethod(lambda cls, raw: (_ for _ in ()).throw(ValueError("bad")))
    )
    with pytest.raises(ValueError, match="bad"):
        store._validated_json("kafka.json")
    assert not list((tmp_path / "validated").iterdir())
