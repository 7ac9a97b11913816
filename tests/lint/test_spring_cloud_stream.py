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
