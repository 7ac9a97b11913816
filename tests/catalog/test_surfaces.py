from __future__ import annotations

import pytest

from advisor import catalog
from advisor.catalog import surfaces


@pytest.mark.parametrize("image", ["apache", "confluent"])
def test_every_broker_key_round_trips_through_the_image_env_convention(image: str) -> None:
    unreachable = []
    for key in catalog.known_keys("broker"):
        variable = surfaces.property_to_env(image, key)
        if variable is None:
            unreachable.append(key)
        else:
            assert surfaces.env_to_property(image, variable) == key, (image, key, variable)
    # Only apache/kafka loses keys: it removes "KAFKA_" wherever it occurs in the variable.
    expected = [k for k in catalog.known_keys("broker") if k.startswith("kafka.")] if image == "apache" else []
    assert unreachable == expected
    assert image == "confluent" or "kafka.metrics.reporters" in unreachable


def test_bitnami_cannot_express_keys_with_underscores_or_dashes() -> None:
    assert surfaces.env_to_property("bitnami", "KAFKA_CFG_MIN_INSYNC_REPLICAS") == "min.insync.replicas"
    assert surfaces.property_to_env("bitnami", "min.insync.replicas") == "KAFKA_CFG_MIN_INSYNC_REPLICAS"
    assert surfaces.property_to_env("bitnami", "listener.name.client_1.ssl.keystore.location") is None
    assert surfaces.env_to_property("bitnami", "KAFKA_MIN_INSYNC_REPLICAS") is None


def test_apache_image_strips_every_kafka_prefix_occurrence() -> None:
    # A property whose name contains "kafka_" cannot be set through the apache/kafka image.
    assert surfaces.env_to_property("apache", "KAFKA_FOO_KAFKA_BAR") == "foo.bar"
    assert surfaces.env_to_property("confluent", "KAFKA_FOO_KAFKA_BAR") == "foo.kafka.bar"


@pytest.mark.parametrize("image", ["apache", "confluent"])
def test_jvm_variables_are_not_properties(image: str) -> None:
    for variable in surfaces.JVM_VARIABLES:
        assert surfaces.env_to_property(image, variable) is None


def test_strimzi_forbids_operator_managed_keys_but_allows_the_exceptions() -> None:
    assert surfaces.strimzi_forbidden("listeners")
    assert surfaces.strimzi_forbidden("ssl.keystore.location")
    assert surfaces.strimzi_forbidden("node.id")
    assert not surfaces.strimzi_forbidden("ssl.cipher.suites")
    assert not surfaces.strimzi_forbidden("controller.quorum.fetch.timeout.ms")
    assert not surfaces.strimzi_forbidden("min.insync.replicas")


def test_spring_relaxed_binding_finds_the_canonical_property() -> None:
    for spelling in (
        "spring.kafka.producer.batch-size",
        "spring.kafka.producer.batchSize",
        "spring.kafka.producer.batch_size",
    ):
        record = surfaces.spring_property(spelling)
        assert record["name"] == "spring.kafka.producer.batch-size"
        assert record["sets"] == {"producer": ["batch.size"]}


@pytest.mark.parametrize("boot", surfaces.spring_boot_releases())
def test_spring_typed_surface_as_spring_itself_reports_it(boot: str) -> None:
    """kafka-facts.md §4c, checked against each Boot release's own KafkaProperties."""
    for missing in ("linger-ms", "enable-idempotence", "delivery-timeout", "max-in-flight", "max-request-size"):
        assert surfaces.spring_property(f"spring.kafka.producer.{missing}", boot) is None
    assert surfaces.spring_property("spring.kafka.consumer.session-timeout", boot) is None
    assert surfaces.spring_property("spring.kafka.producer.retries", boot)["sets"] == {"producer": ["retries"]}
    assert surfaces.spring_property("spring.kafka.consumer.fetch-min-size", boot)["sets"] == {
        "consumer": ["fetch.min.bytes"]
    }
    prefix = surfaces.spring_property("spring.kafka.producer.transaction-id-prefix", boot)
    assert prefix["status"] == "none"  # Spring itself derives transactional.id from it
    assert surfaces.spring_property("spring.kafka.producer.properties", boot)["status"] == "passthrough"


def test_every_mapped_spring_property_sets_a_real_kafka_key() -> None:
    for boot in surfaces.spring_boot_releases():
        data = surfaces._spring()["boot"][boot]["properties"]
        for name, record in data.items():
            for client, keys in record.get("sets", {}).items():
                if client == "streams" or keys == ["*"]:
                    continue
                for key in keys:
                    assert catalog.owners(key, kafka_version="4.4") or catalog.owners(key, kafka_version="3.9"), (
                        boot,
                        name,
                        key,
                    )
