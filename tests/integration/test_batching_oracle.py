"""Batching and fetching rules against real Java clients (kafka-clients 4.4) on the 3-node test
cluster: what batch.size does beside max.request.size and buffer.memory, and what
max.poll.records does (and does not) bound in a consumer, and what a client quota does to a
producer above it."""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from confluent_kafka.admin import AdminClient, NewTopic
from oracles import compile_java, run_once
from testbed import KafkaTestCluster, wait_for_topic

from advisor.report.session import lint

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tools"))
import fetch_kafka  # noqa: E402

pytestmark = pytest.mark.kafka


@pytest.fixture(scope="module")
def harnesses(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A classpath with ProducerSendOracle and ConsumerFetchOracle built against Kafka 4.4."""
    libs = fetch_kafka.classpath(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION))
    out = tmp_path_factory.mktemp("harnesses")
    for name in ("ProducerSendOracle", "ConsumerFetchOracle"):
        compile_java(REPO_ROOT / "tests" / "java" / f"{name}.java", out, libs)
    return f"{out}:{libs}"


def send(classpath: str, bootstrap: str, topic: str, count: int, size: int, settings: dict[str, str]) -> dict:
    pairs = (f"{k}={v}" for k, v in settings.items())
    return run_once(classpath, "ProducerSendOracle", bootstrap, topic, str(count), str(size), *pairs)


def new_topic(kafka_cluster: KafkaTestCluster, config: dict[str, str] | None = None) -> str:
    admin = AdminClient({"bootstrap.servers": kafka_cluster.bootstrap_servers})
    topic = f"batching-{uuid.uuid4().hex[:8]}"
    admin.create_topics([NewTopic(topic, 1, 3, config=config or {})])[topic].result(60)
    wait_for_topic(admin, topic, 1)
    return topic


def rules_for(tmp_path: Path, settings: dict[str, str], role: str = "producer") -> set[str]:
    config = tmp_path / f"app.{role}.properties"
    config.write_text("".join(f"{k}={v}\n" for k, v in settings.items()))
    return {f.rule for f in lint([config]).findings}


# 300 records of 10 kB sent while a 2 s linger holds them: about 3 MB accumulate for one partition.
LINGERING = {"linger.ms": "2000", "delivery.timeout.ms": "60000"}


def test_max_request_size_does_not_cap_batches(kafka_cluster: KafkaTestCluster, harnesses: str, tmp_path: Path) -> None:
    settings = {**LINGERING, "batch.size": "4000000"}  # max.request.size stays at 1048576
    # A topic that accepts 8 MB batches: the 3 MB batch goes out as one request of 3 MB.
    roomy = new_topic(kafka_cluster, {"max.message.bytes": "8000000"})
    outcome = send(harnesses, kafka_cluster.bootstrap_servers, roomy, 300, 10_000, settings)
    assert outcome["acknowledged"] == 300 and outcome["thrown"] is None, outcome
    assert outcome["metrics"]["request-size-max"] > 2 * 1048576, outcome
    assert outcome["metrics"]["batch-split-total"] == 0, outcome

    # At the broker's default limit the batch is refused, split and sent again.
    default = new_topic(kafka_cluster)
    outcome = send(harnesses, kafka_cluster.bootstrap_servers, default, 300, 10_000, settings)
    assert outcome["acknowledged"] == 300, outcome
    assert outcome["metrics"]["batch-split-total"] > 0, outcome
    assert outcome["metrics"]["record-send-total"] > 300, outcome  # records went out more than once

    # With batch.size under max.request.size, batches stay below it and nothing is split.
    outcome = send(harnesses, kafka_cluster.bootstrap_servers, default, 300, 10_000, {**LINGERING})
    assert outcome["metrics"]["request-size-max"] <= 1048576 and outcome["metrics"]["batch-split-total"] == 0

    assert "KP121" in rules_for(tmp_path, settings)
    assert "KP121" not in rules_for(tmp_path, {**settings, "max.request.size": "4000000"})
    assert "KP121" not in rules_for(tmp_path, {"batch.size": "200000"})


def test_a_batch_size_above_buffer_memory_fails_every_send(
    kafka_cluster: KafkaTestCluster, harnesses: str, tmp_path: Path
) -> None:
    topic = new_topic(kafka_cluster)
    settings = {"batch.size": "2000000", "buffer.memory": "1000000"}
    outcome = send(harnesses, kafka_cluster.bootstrap_servers, topic, 3, 100, settings)
    assert outcome["acknowledged"] == 0, outcome
    assert outcome["thrown"].startswith("java.lang.IllegalArgumentException: Attempt to allocate 2000000 bytes")
    assert "KP122" in rules_for(tmp_path, settings)

    fitting = {"batch.size": "1000000", "buffer.memory": "1000000"}
    assert send(harnesses, kafka_cluster.bootstrap_servers, topic, 3, 100, fitting)["acknowledged"] == 3
    assert "KP122" not in rules_for(tmp_path, fitting)


def first_poll(classpath: str, bootstrap: str, topic: str, settings: dict[str, str]) -> dict:
    pairs = (f"{k}={v}" for k, v in settings.items())
    return run_once(classpath, "ConsumerFetchOracle", bootstrap, topic, *pairs)


def test_max_poll_records_does_not_bound_what_a_consumer_fetches(
    kafka_cluster: KafkaTestCluster, harnesses: str, tmp_path: Path
) -> None:
    topic = new_topic(kafka_cluster)
    written = send(harnesses, kafka_cluster.bootstrap_servers, topic, 2000, 1000, {"linger.ms": "20"})
    assert written["acknowledged"] == 2000, written  # 2 MB on one partition

    bootstrap = kafka_cluster.bootstrap_servers
    one_record = first_poll(harnesses, bootstrap, topic, {"max.poll.records": "1"})
    default = first_poll(harnesses, bootstrap, topic, {})
    bounded = first_poll(harnesses, bootstrap, topic, {"max.poll.records": "1", "max.partition.fetch.bytes": "20000"})
    assert one_record["polled"] == 1 and default["polled"] == 500
    # One record handed out, yet a full partition fetch (max.partition.fetch.bytes, 1 MiB) received:
    assert one_record["incoming-byte-total"] > 1_000_000, one_record
    assert one_record["incoming-byte-total"] >= 0.9 * default["incoming-byte-total"], (one_record, default)
    # The fetch sizes are what bound it.
    assert bounded["incoming-byte-total"] < 100_000, bounded

    assert "KC116" in rules_for(tmp_path, {"max.poll.records": "1"}, "consumer")
    sized = {"max.poll.records": "1", "max.partition.fetch.bytes": "20000"}
    assert "KC116" not in rules_for(tmp_path, sized, "consumer")


def test_a_producer_over_its_quota_is_throttled_not_refused(kafka_cluster: KafkaTestCluster, harnesses: str) -> None:
    client = f"tenant-{uuid.uuid4().hex[:8]}"
    libs = fetch_kafka.classpath(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION))
    command = ["java", "-cp", libs, "org.apache.kafka.tools.ConfigCommand"]
    command += ["--bootstrap-server", kafka_cluster.bootstrap_servers, "--alter", "--entity-type", "clients"]
    command += ["--entity-name", client, "--add-config", "producer_byte_rate=20480"]
    subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    topic = new_topic(kafka_cluster)
    # The rate is measured over the quota window (11 one-second samples, at least 10 s), so
    # 300 kB at a 20 kB/s quota is over it: the broker holds back responses for seconds.
    outcome = send(harnesses, kafka_cluster.bootstrap_servers, topic, 300, 1000, {"client.id": client})
    assert outcome["acknowledged"] == 300 and not outcome["errors"], outcome
    assert outcome["metrics"]["produce-throttle-time-max"] > 0, outcome
