"""KB144 and KT108 on real software: a ZooKeeper-mode 3.9.1 broker told
inter.broker.protocol.version=2.8 keeps log.message.format.version=0.10.2 and refuses idempotent
batches — the default Java 4.4 producer's and an idempotent librdkafka producer's — while a
non-idempotent producer writes; with the default protocol version the same setting is ignored
(KIP-724). A 2.8.2 broker keeps it with no protocol version written, and a topic's own
message.format.version=0.10.2 likewise."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic
from oracles import compile_java, zookeeper_broker

from advisor.report.session import lint

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import fetch_kafka

JAVA = Path(__file__).resolve().parents[1] / "java" / "ProducerSendOracle.java"
OLD_FORMAT = {"log.message.format.version": "0.10.2"}
pytestmark = pytest.mark.kafka


def _java_send(bootstrap: str, work: Path, *settings: str) -> dict:
    classpath = fetch_kafka.classpath(fetch_kafka.kafka_libs("4.4.0"))
    classes = compile_java(JAVA, work / "classes", classpath)
    command = [
        "java",
        "-cp",
        f"{classes}:{classpath}",
        "ProducerSendOracle",
        bootstrap,
        "formats",
        "3",
        "100",
        *settings,
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=180, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def _librdkafka_send(bootstrap: str, **settings: object) -> list[object]:
    delivered: list[object] = []
    producer = Producer({"bootstrap.servers": bootstrap, **settings})
    producer.produce("formats", b"x" * 100, on_delivery=lambda error, _: delivered.append(error))
    producer.flush(60)
    return delivered


def _topic(bootstrap: str, config: dict[str, str] | None = None) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic("formats", 1, 1, config=config or {})])["formats"].result(timeout=60)


def _linted(work: Path, overrides: dict[str, str], release: str = "3.9.1") -> set[str]:
    broker = work / "linted.properties"
    settings = {"broker.id": "0", "zookeeper.connect": "zk-1:2181", **overrides}
    broker.write_text("".join(f"{k}={v}\n" for k, v in settings.items()))
    return {f.rule for f in lint([broker], kafka_version=release).findings}


def test_an_old_format_kept_by_the_broker_refuses_idempotent_producers(tmp_path: Path) -> None:
    overrides = {**OLD_FORMAT, "inter.broker.protocol.version": "2.8"}
    with zookeeper_broker(tmp_path, overrides) as bootstrap:
        _topic(bootstrap)
        default_java = _java_send(bootstrap, tmp_path)
        assert default_java["acknowledged"] == 0
        assert default_java["errors"] == {"org.apache.kafka.common.errors.UnsupportedForMessageFormatException": 3}
        assert _java_send(bootstrap, tmp_path, "enable.idempotence=false")["acknowledged"] == 3
        (refused,) = _librdkafka_send(bootstrap, **{"enable.idempotence": True})
        assert "UNSUPPORTED_FOR_MESSAGE_FORMAT" in str(refused)
        assert _librdkafka_send(bootstrap) == [None]  # librdkafka is not idempotent by default
    assert "KB144" in _linted(tmp_path, overrides)


def test_the_format_is_ignored_with_the_default_protocol_version(tmp_path: Path) -> None:
    with zookeeper_broker(tmp_path, OLD_FORMAT) as bootstrap:
        _topic(bootstrap)
        assert _java_send(bootstrap, tmp_path)["acknowledged"] == 3
        assert _librdkafka_send(bootstrap, **{"enable.idempotence": True}) == [None]
    assert "KB144" not in _linted(tmp_path, OLD_FORMAT)


def test_a_2_8_broker_keeps_the_format_without_a_protocol_version(tmp_path: Path) -> None:
    with zookeeper_broker(tmp_path, OLD_FORMAT, release="2.8.2") as bootstrap:
        _topic(bootstrap)
        assert _java_send(bootstrap, tmp_path)["acknowledged"] == 0
    assert "KB144" in _linted(tmp_path, OLD_FORMAT, release="2.8.2")


def test_a_topics_own_old_format_refuses_idempotent_producers_on_2_8(tmp_path: Path) -> None:
    with zookeeper_broker(tmp_path, {}, release="2.8.2") as bootstrap:
        _topic(bootstrap, {"message.format.version": "0.10.2"})
        refused = _java_send(bootstrap, tmp_path)
        assert refused["errors"] == {"org.apache.kafka.common.errors.UnsupportedForMessageFormatException": 3}
        assert _java_send(bootstrap, tmp_path, "enable.idempotence=false")["acknowledged"] == 3
    script = tmp_path / "topics.sh"
    create = (
        "kafka-topics.sh --bootstrap-server kafka-1:9092 --create --topic formats --partitions 1 --replication-factor 3"
    )
    script.write_text(f"#!/bin/sh\n{create} --config message.format.version=0.10.2\n")
    assert "KT108" in {f.rule for f in lint([script], kafka_version="2.8.2").findings}
    script.write_text(f"#!/bin/sh\n{create} --config message.format.version=2.8\n")
    assert "KT108" not in {f.rule for f in lint([script], kafka_version="2.8.2").findings}
