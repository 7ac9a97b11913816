"""Proof that the test bed is a real, replicated Kafka cluster.

Real brokers (3-node KRaft on loopback), real confluent-kafka clients, the real
Prometheus JMX exporter. If the cluster is down these tests fail under CI.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from confluent_kafka import Consumer, KafkaException, Producer
from confluent_kafka.admin import AdminClient, NewTopic
from testbed import KafkaTestCluster, describe_topic_configs, parse_samples, wait_for_topic, wait_until

pytestmark = pytest.mark.kafka

RECORDS = 10_000
URP = "kafka_server_replicamanager_underreplicatedpartitions"


@pytest.fixture(scope="module")
def admin(kafka_cluster_handle: KafkaTestCluster) -> AdminClient:
    return AdminClient({"bootstrap.servers": kafka_cluster_handle.bootstrap_servers})


@pytest.fixture(scope="module")
def replicated_topic(admin: AdminClient) -> Iterator[str]:
    """A topic with RF=3 and min.insync.replicas=2, deleted afterwards."""
    name = f"smoke-{uuid.uuid4().hex[:8]}"
    new_topic = NewTopic(name, num_partitions=3, replication_factor=3, config={"min.insync.replicas": "2"})
    admin.create_topics([new_topic], request_timeout=30)[name].result(timeout=60)
    wait_for_topic(admin, name, 3)
    yield name
    admin.delete_topics([name], request_timeout=30)[name].result(timeout=60)


def produce(bootstrap: str, topic: str, values: list[bytes]) -> list[str]:
    """Produce with acks=all; returns the delivery errors (empty when all were acknowledged)."""
    errors: list[str] = []
    delivered = 0

    def on_delivery(error, _message) -> None:  # type: ignore[no-untyped-def]
        nonlocal delivered
        if error is not None:
            errors.append(str(error))
        else:
            delivered += 1

    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "enable.idempotence": True})
    for value in values:
        while True:
            try:
                producer.produce(topic, value=value, key=value[-2:], on_delivery=on_delivery)
                break
            except BufferError:
                producer.poll(0.1)
        producer.poll(0)
    remaining = producer.flush(60)
    assert remaining == 0, f"{remaining} records still queued after 60 s"
    assert delivered + len(errors) == len(values)
    return errors


def isr_sizes(admin: AdminClient, topic: str) -> list[int]:
    metadata = admin.list_topics(topic, timeout=10)
    return sorted(len(p.isrs) for p in metadata.topics[topic].partitions.values())


def test_admin_client_sees_three_brokers_with_racks(kafka_cluster: KafkaTestCluster, admin: AdminClient) -> None:
    cluster = admin.describe_cluster(request_timeout=10).result(timeout=20)
    assert sorted(node.id for node in cluster.nodes) == [1, 2, 3]
    assert sorted(node.rack for node in cluster.nodes) == ["rack-a", "rack-b", "rack-c"]
    assert all(node.host == "127.0.0.1" for node in cluster.nodes)


def test_topic_is_replicated_with_min_isr_two(admin: AdminClient, replicated_topic: str) -> None:
    metadata = admin.list_topics(replicated_topic, timeout=10).topics[replicated_topic]
    assert len(metadata.partitions) == 3
    assert all(sorted(p.replicas) == [1, 2, 3] for p in metadata.partitions.values())
    configs = describe_topic_configs(admin, replicated_topic)
    assert configs["min.insync.replicas"].value == "2"


def test_ten_thousand_records_round_trip(kafka_cluster: KafkaTestCluster, replicated_topic: str) -> None:
    values = [f"record-{i:05d}".encode() for i in range(RECORDS)]
    assert produce(kafka_cluster.bootstrap_servers, replicated_topic, values) == []

    consumer = Consumer(
        {
            "bootstrap.servers": kafka_cluster.bootstrap_servers,
            "group.id": f"smoke-{uuid.uuid4().hex[:8]}",
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )
    consumer.subscribe([replicated_topic])
    received: set[bytes] = set()
    try:
        wait_until(lambda: _consume_into(consumer, received) >= RECORDS, 90, f"{RECORDS} records", interval=0)
    finally:
        consumer.close()
    assert received == set(values)


def _consume_into(consumer: Consumer, received: set[bytes]) -> int:
    for message in consumer.consume(num_messages=1000, timeout=1.0):
        if message.error():
            raise KafkaException(message.error())
        received.add(message.value())
    return len(received)


def test_every_node_serves_broker_metrics(kafka_cluster: KafkaTestCluster) -> None:
    for node_id in kafka_cluster.node_ids:
        text = kafka_cluster.scrape(node_id)
        assert parse_samples(text, URP), f"node {node_id} does not serve {URP}"
        assert parse_samples(text, "kafka_server_replicamanager_underminisrpartitioncount")
        assert parse_samples(text, "kafka_server_replicamanager_partitioncount")[0][1] > 0


def test_acks_all_survives_one_node_down_and_node_rejoins(
    kafka_cluster: KafkaTestCluster, admin: AdminClient, replicated_topic: str
) -> None:
    stopped = 3
    survivors = [n for n in kafka_cluster.node_ids if n != stopped]
    with kafka_cluster.node_stopped(stopped):
        wait_until(lambda: isr_sizes(admin, replicated_topic) == [2, 2, 2], 60, "the ISR to shrink to 2")
        # ISR 2 >= min.insync.replicas 2: acks=all writes must still succeed.
        values = [f"degraded-{i:04d}".encode() for i in range(1000)]
        assert produce(kafka_cluster.bootstrap_without(stopped), replicated_topic, values) == []
        wait_until(
            lambda: sum(kafka_cluster.metric(n, URP) for n in survivors) > 0,
            60,
            "a surviving node to report under-replicated partitions",
        )
    # node_stopped restarted the node; it must catch up and rejoin every ISR.
    wait_until(lambda: isr_sizes(admin, replicated_topic) == [3, 3, 3], 120, "the restarted node to rejoin the ISR")
    wait_until(
        lambda: all(kafka_cluster.metric(n, URP) == 0 for n in kafka_cluster.node_ids),
        120,
        "under-replicated partitions to return to 0",
    )
