"""A refused value is told what it most likely meant — never the default in its place, which
would silently change what the setting was written to do."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.report.session import lint


def _recommended(tmp_path: Path, name: str, text: str, rule: str, kafka_version: str = "4.4") -> list[str]:
    config = tmp_path / name
    config.write_text(text)
    return [f.recommended for f in lint([config], kafka_version=kafka_version).findings if f.rule == rule]


@pytest.mark.parametrize(
    ("line", "meant"),
    [
        ("auto.offset.reset=earlist", "earliest"),
        ("isolation.level=read-committed", "read_committed"),
        ("isolation.level=READ_COMMITTED", "read_committed"),
        ("auto.offset.reset=by_duration:PT-1H", "one of latest, earliest, none"),  # the choices, not latest
        ("max.poll.interval.ms=5m", "300000"),
        ("enable.auto.commit=yes", "true"),
        ("fetch.min.bytes=one", "a whole number of 0 or more"),
        ("max.poll.records=0", "a whole number of 1 or more"),
    ],
)
def test_java_consumer_values(tmp_path: Path, line: str, meant: str) -> None:
    assert _recommended(tmp_path, "app.consumer.properties", f"group.id=g\n{line}\n", "KX104") == [meant]


@pytest.mark.parametrize(
    ("line", "meant"),
    [
        ("auto.offset.reset=earlist", "earliest"),  # librdkafka's default, largest, is the opposite
        ("isolation.level=read-committed", "read_committed"),
        ("compression.codec=zstandard", "zstd"),
    ],
)
def test_librdkafka_values(tmp_path: Path, line: str, meant: str) -> None:
    role = "producer" if line.startswith("compression") else "consumer"
    text = f"# kafka-advisor: client=librdkafka\ngroup.id=g\n{line}\n"
    assert _recommended(tmp_path, f"app.{role}.properties", text, "KX105") == [meant]


def test_a_topic_list_value_is_judged_element_by_element(tmp_path: Path) -> None:
    script = "kafka-configs.sh --bootstrap-server b:9092 --alter --entity-type topics --entity-name audit"
    assert _recommended(tmp_path, "topics.sh", f"{script} --add-config cleanup.policy=compacted\n", "KT104") == [
        "compact"
    ]
    text = "# kafka-advisor: as=topic\ncleanup.policy=delete,compacted\n"
    assert _recommended(tmp_path, "audit.properties", text, "KT104") == ["delete,compact"]
    text = "# kafka-advisor: as=topic\ncleanup.policy=compact,delete\n"
    assert _recommended(tmp_path, "fine.properties", text, "KT104") == []


def test_a_duration_strategy_is_only_accepted_where_the_release_has_it(tmp_path: Path) -> None:
    text = "group.id=g\nauto.offset.reset=by_duration:P1D\n"
    assert _recommended(tmp_path, "new.consumer.properties", text, "KX104", "4.0") == []
    assert _recommended(tmp_path, "old.consumer.properties", text, "KX104", "3.9") == ["one of latest, earliest, none"]


@pytest.mark.parametrize(
    "value", ["%@BROKER_ID@%", "@BROKER_ID@", "<broker id>", "{{ broker_id }}", "{% id %}", "${ID}"]
)
def test_placeholders_a_deployment_fills_in_are_not_refused(tmp_path: Path, value: str) -> None:
    text = f"process.roles=broker\nnode.id={value}\nnum.io.threads=eight\n"
    config = tmp_path / "server.properties"
    config.write_text(text)
    refused = [f.locations[0].line for f in lint([config]).findings if f.rule == "KB110"]
    assert refused == [3]  # the placeholder is left alone; the word is still refused
