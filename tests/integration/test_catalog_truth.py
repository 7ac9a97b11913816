"""The catalog against the real software: the 4.4 brokers of the test cluster,
confluent-kafka (librdkafka) and kafka-python, constructed in-process.

Truth check 1: every broker/topic default the broker reports equals the catalog's.
Truth check 3: what the catalog says a client accepts or rejects, the client does.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from confluent_kafka import Consumer, KafkaException, Producer
from confluent_kafka.admin import AdminClient, ConfigResource, ConfigSource, NewTopic
from kafka import KafkaConsumer, KafkaProducer
from kafka.admin import KafkaAdminClient
from kafka.errors import KafkaConfigurationError
from testbed import KafkaTestCluster, describe_topic_configs, wait_for_topic

from advisor import catalog
from advisor.catalog import store

KAFKA_VERSION = "4.4.0"


# ---------------------------------------------------------------- truth check 1


def describe(admin: AdminClient, resource: ConfigResource) -> dict[str, Any]:
    return admin.describe_configs([resource], request_timeout=20)[resource].result(timeout=30)


def default_mismatches(entries: dict[str, Any], component: str) -> tuple[int, list[tuple[str, str | None, str]]]:
    checked, mismatches = 0, []
    for name, entry in sorted(entries.items()):
        if entry.source != ConfigSource.DEFAULT_CONFIG.value:
            continue
        checked += 1
        facts = catalog.lookup(name, component, kafka_version=KAFKA_VERSION)
        if facts is None:
            mismatches.append((name, None, entry.value))
        elif not entry.is_sensitive and facts.default_text != entry.value:
            mismatches.append((name, facts.default_text, entry.value))
    return checked, mismatches


def test_broker_defaults_equal_what_the_broker_reports(kafka_cluster: KafkaTestCluster) -> None:
    admin = AdminClient({"bootstrap.servers": kafka_cluster.bootstrap_servers})
    for node_id in kafka_cluster.node_ids:
        entries = describe(admin, ConfigResource(ConfigResource.Type.BROKER, str(node_id)))
        checked, mismatches = default_mismatches(entries, "broker")
        assert checked > 300, f"broker {node_id} reported only {checked} defaults"
        assert mismatches == []


def test_topic_defaults_equal_what_the_broker_reports(kafka_cluster: KafkaTestCluster) -> None:
    admin = AdminClient({"bootstrap.servers": kafka_cluster.bootstrap_servers})
    topic = f"catalog-truth-{uuid.uuid4().hex[:8]}"
    admin.create_topics([NewTopic(topic, 1, 3)], request_timeout=30)[topic].result(timeout=60)
    wait_for_topic(admin, topic, 1)
    try:
        entries = describe_topic_configs(admin, topic)
        checked, mismatches = default_mismatches(entries, "topic")
        assert checked >= 30
        assert mismatches == []
    finally:
        admin.delete_topics([topic], request_timeout=30)[topic].result(timeout=60)


# ---------------------------------------------------------------- truth check 3: librdkafka

# Single-key probes where librdkafka's answer differs from its own property table,
# each for a reason the table cannot express. Documented in docs/catalog.md.
LIBRDKAFKA_EXCEPTIONS: dict[tuple[str, str, str], str] = {
    **{
        (role, "reconnect.backoff.max.ms", "0"): "must be >= reconnect.backoff.ms (default 100)"
        for role in ("producer", "consumer")
    },
    **{
        (role, "reconnect.backoff.ms", "3600000"): "must be <= reconnect.backoff.max.ms (default 10000)"
        for role in ("producer", "consumer")
    },
    **{
        (role, "security.protocol", protocol): "SASL default mechanism GSSAPI is not built into the wheel"
        for role in ("producer", "consumer")
        for protocol in ("sasl_plaintext", "sasl_ssl")
    },
    **{
        (role, "sasl.oauthbearer.metadata.authentication.type", "aws_iam"): "requires sasl.oauthbearer.method=oidc"
        for role in ("producer", "consumer")
    },
    ("producer", "enable.gapless.guarantee", "True"): "requires enable.idempotence=true",
    ("consumer", "fetch.max.bytes", "0"): "must be >= message.max.bytes (default 1000000)",
    ("consumer", "fetch.min.bytes", "0"): "a consumer (not a share consumer) accepts only 1..100000000",
    ("consumer", "fetch.min.bytes", "2147483647"): "a consumer (not a share consumer) accepts only 1..100000000",
    ("consumer", "max.poll.interval.ms", "1"): "must be >= session.timeout.ms (default 45000)",
    ("consumer", "receive.message.max.bytes", "1000"): "must be >= fetch.max.bytes + 512",
    ("consumer", "session.timeout.ms", "3600000"): "must be <= max.poll.interval.ms (default 300000)",
}


def librdkafka_accepts(role: str, key: str, value: Any) -> tuple[bool, str]:
    # Nothing listens on port 1: construction validates the config without connecting.
    config = {"bootstrap.servers": "127.0.0.1:1", "log_level": 0, key: value}
    if role == "consumer":
        config.setdefault("group.id", "catalog-truth")
    try:
        (Producer if role == "producer" else Consumer)(config)
    except (KafkaException, ValueError, TypeError) as error:
        return False, str(error)
    return True, ""


def librdkafka_probes(role: str) -> list[tuple[str, Any, bool]]:
    """(key, value, accepted?) as the catalog predicts them, for every bounded property."""
    probes = []
    for key in catalog.known_keys(role, client="librdkafka"):
        facts = catalog.lookup(key, role, client="librdkafka")
        if facts.type in ("integer", "float") and facts.min is not None and facts.max is not None:
            step = 1 if facts.type == "integer" else 0.5
            probes += [(key, facts.min, True), (key, facts.max, True)]
            probes += [(key, facts.min - step, False), (key, facts.max + step, False)]
        elif facts.type == "boolean":
            probes += [(key, True, True), (key, False, True)]
        elif facts.type == "enum value" and facts.choices:
            probes += [(key, choice, True) for choice in facts.choices] + [(key, "no-such-choice", False)]
    return probes


@pytest.mark.parametrize("role", ["producer", "consumer"])
def test_librdkafka_enforces_the_ranges_and_choices_the_catalog_records(role: str) -> None:
    probes = librdkafka_probes(role)
    assert len(probes) > 150
    surprises = []
    for key, value, predicted in probes:
        accepted, error = librdkafka_accepts(role, key, str(value) if not isinstance(value, bool) else value)
        if accepted != predicted and (role, key, str(value)) not in LIBRDKAFKA_EXCEPTIONS:
            surprises.append((key, value, predicted, error))
    assert surprises == []


@pytest.mark.parametrize(("role", "key", "value"), sorted(LIBRDKAFKA_EXCEPTIONS))
def test_librdkafka_exceptions_are_still_real(role: str, key: str, value: str) -> None:
    """An exception that no longer reproduces must be removed from the list."""
    facts = catalog.lookup(key, role, client="librdkafka")
    predicted = value in (facts.choices or ()) or value in ("True", "False")
    if facts.min is not None:
        predicted = facts.min <= float(value) <= facts.max
    accepted, _ = librdkafka_accepts(role, key, True if value == "True" else value)
    assert accepted != predicted


@pytest.mark.parametrize("role", ["producer", "consumer"])
def test_librdkafka_rejects_every_java_key_the_catalog_says_it_lacks(role: str) -> None:
    java_only = [
        key
        for key in catalog.known_keys(role, kafka_version=KAFKA_VERSION)
        if not catalog.exists(key, role, client="librdkafka")
    ]
    assert "buffer.memory" in java_only or role == "consumer"
    assert len(java_only) > 20
    for key in java_only:
        accepted, error = librdkafka_accepts(role, key, "1")
        assert not accepted, key
        # librdkafka names the unknown property, or explains that a Java-only feature (JAAS, key stores) is absent.
        assert f'No such configuration property: "{key}"' in error or ("Java" in error and "not supported" in error)


@pytest.mark.parametrize(("role", "other"), [("producer", "consumer"), ("consumer", "producer")])
def test_librdkafka_accepts_but_does_not_apply_the_other_roles_properties(role: str, other: str) -> None:
    foreign = [
        key
        for key in catalog.known_keys(other, client="librdkafka")
        if not catalog.lookup(key, role, client="librdkafka").applies
    ]
    assert len(foreign) > 10
    for key in foreign:
        facts = catalog.lookup(key, role, client="librdkafka")
        if facts.type in ("integer", "boolean", "enum value") and facts.default_text:
            value = facts.default_text == "true" if facts.type == "boolean" else facts.default_text
            accepted, error = librdkafka_accepts(role, key, value)
            assert accepted, (key, error)


@pytest.mark.parametrize("role", ["producer", "consumer"])
def test_librdkafka_accepts_every_alias(role: str) -> None:
    aliases = [
        key
        for key in catalog.known_keys(role, client="librdkafka")
        if catalog.lookup(key, role, client="librdkafka").alias_of
    ]
    assert {"linger.ms", "acks"} <= set(aliases) or role == "consumer"
    for key in aliases:
        facts = catalog.lookup(key, role, client="librdkafka")
        if facts.type in ("integer", "float", "enum value", "boolean", "string") and facts.default_text:
            accepted, error = librdkafka_accepts(role, key, facts.default_text)
            assert accepted, (key, error)


# ---------------------------------------------------------------- truth check 3: kafka-python

KAFKA_PYTHON = {"producer": KafkaProducer, "consumer": KafkaConsumer, "admin": KafkaAdminClient}


def plain_defaults(role: str) -> dict[str, Any]:
    """Catalog defaults that are plain values (objects and callables are shown, not passable)."""
    return {
        key: entry.default
        for key, entry in store.kafka_python().roles[role].items()
        if isinstance(entry.default, (bool, int, float, str)) and not str(entry.default).startswith("<")
    }


@pytest.mark.parametrize("role", ["producer", "consumer", "admin"])
def test_kafka_python_accepts_every_catalog_key(kafka_cluster: KafkaTestCluster, role: str) -> None:
    config = plain_defaults(role)
    assert len(config) > 15
    config["bootstrap_servers"] = kafka_cluster.bootstrap_servers
    client = KAFKA_PYTHON[role](**config)
    client.close()


@pytest.mark.parametrize("role", ["producer", "consumer", "admin"])
def test_kafka_python_rejects_java_spellings_the_catalog_does_not_list(role: str) -> None:
    dotted = [
        key
        for key in catalog.known_keys(role, kafka_version=KAFKA_VERSION)
        if "." in key and not catalog.exists(key, role, client="kafka-python")
    ]
    assert len(dotted) > 20
    for key in dotted:
        # Before any network I/O. kafka-python 3.0.12's producer raises ValueError, the others KafkaConfigurationError.
        with pytest.raises((ValueError, KafkaConfigurationError), match="Unrecognized configs"):
            KAFKA_PYTHON[role](**{key: "1"})
