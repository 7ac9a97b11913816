"""Spring Cloud Stream's Kafka binder settings reach the clients it builds, by role."""

from __future__ import annotations

from pathlib import Path

from advisor.report.session import lint


def test_binder_maps_in_properties_form_are_client_settings_by_role(tmp_path: Path) -> None:
    config = tmp_path / "service.properties"
    config.write_text(
        "spring.cloud.stream.kafka.binder.brokers=k1,k2:9094\n"
        "spring.cloud.stream.kafka.binder.configuration.client.id=ledger\n"
        "spring.cloud.stream.kafka.binder.producer-properties.acks=0\n"
        "spring.cloud.stream.kafka.bindings.in-0.consumer.configuration.max.poll.interval.ms=600000\n"
        "spring.cloud.stream.kafka.binder.auto-create-topics=false\n"
    )
    result = lint([config])
    sets = {cs.component: cs for cs in result.document.config_sets}
    assert set(sets) == {"producer", "consumer"}
    assert sets["producer"].settings["bootstrap.servers"].value == "k1:9092,k2:9094"
    assert sets["producer"].settings["acks"].value == "0" and "acks" not in sets["consumer"].settings
    assert sets["consumer"].settings["max.poll.interval.ms"].location.line == 4
    assert all(cs.settings["client.id"].value == "ledger" for cs in sets.values())
    assert not any("auto-create-topics" in key for cs in sets.values() for key in cs.settings)
    assert [f.rule for f in result.findings if f.rule == "KP101"] == ["KP101"]


def test_each_binding_with_settings_of_its_own_is_a_client_of_its_own(tmp_path: Path) -> None:
    config = tmp_path / "service.properties"
    config.write_text(
        "spring.cloud.stream.kafka.binder.brokers=k1:9092\n"
        "spring.cloud.stream.kafka.binder.consumer-properties.max.poll.records=200\n"
        "spring.cloud.stream.bindings.orders-in-0.group=fulfilment\n"
        "spring.cloud.stream.bindings.orders-in-0.destination=orders\n"
        "spring.cloud.stream.kafka.bindings.audit-in-0.consumer.configuration.max.poll.records=50\n"
        "spring.cloud.stream.bindings.audit-in-0.group=audit\n"
    )
    result = lint([config])
    consumers = {cs.name: cs for cs in result.document.config_sets if cs.component == "consumer"}
    assert set(consumers) == {
        "spring.cloud.stream.kafka.bindings.orders-in-0.consumer",
        "spring.cloud.stream.kafka.bindings.audit-in-0.consumer",
    }
    orders, audit = (consumers[f"spring.cloud.stream.kafka.bindings.{b}-in-0.consumer"] for b in ("orders", "audit"))
    assert (orders.settings["group.id"].value, orders.settings["max.poll.records"].value) == ("fulfilment", "200")
    assert (audit.settings["group.id"].value, audit.settings["max.poll.records"].value) == ("audit", "50")
    assert audit.settings["max.poll.records"].location.line == 5  # the binding's own wins over the binder's
    assert all(cs.settings["bootstrap.servers"].value == "k1:9092" for cs in consumers.values())
