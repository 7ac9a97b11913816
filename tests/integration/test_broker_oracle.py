"""Topic rules against the real brokers of the 3-node test cluster."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from confluent_kafka import KafkaError, KafkaException, Producer
from confluent_kafka.admin import AdminClient, NewTopic
from testbed import KafkaTestCluster, wait_for_topic, wait_until

from advisor.pipeline import lint

pytestmark = pytest.mark.kafka


def strimzi_topic(tmp_path: Path, replicas: int, min_isr: int | None = None) -> set[str]:
    config = f"  config:\n    min.insync.replicas: {min_isr}\n" if min_isr else ""
    resources = tmp_path / "topics.yaml"
    resources.write_text(
        "apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata:\n  name: test\nspec:\n  kafka:\n"
        "    replicas: 3\n---\napiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaTopic\nmetadata:\n  name: t\n"
        f"  labels:\n    strimzi.io/cluster: test\nspec:\n  partitions: 1\n  replicas: {replicas}\n{config}"
    )
    return {f.rule for f in lint([resources]).findings if f.rule.startswith("KT")}


def test_controller_refuses_more_replicas_than_brokers(kafka_cluster: KafkaTestCluster, tmp_path: Path) -> None:
    admin = AdminClient({"bootstrap.servers": kafka_cluster.bootstrap_servers})
    name = f"too-wide-{uuid.uuid4().hex[:8]}"
    with pytest.raises(KafkaException) as refused:
        admin.create_topics([NewTopic(name, 1, 4)], request_timeout=30)[name].result(timeout=60)
    assert refused.value.args[0].code() == KafkaError.INVALID_REPLICATION_FACTOR
    assert strimzi_topic(tmp_path, replicas=4) == {"KT102"}
    assert strimzi_topic(tmp_path, replicas=3) == set()


def produce_one(bootstrap: str, topic: str) -> KafkaError | None:
    outcome: list[KafkaError | None] = []
    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "retries": 0, "message.timeout.ms": 20000})
    producer.produce(topic, b"x", on_delivery=lambda error, _: outcome.append(error))
    producer.flush(30)
    return outcome[0]


@pytest.mark.parametrize(("min_isr", "accepted"), [(3, False), (2, True)])
def test_min_isr_equal_to_replicas_stops_writes_when_one_replica_is_down(
    kafka_cluster: KafkaTestCluster, tmp_path: Path, min_isr: int, accepted: bool
) -> None:
    admin = AdminClient({"bootstrap.servers": kafka_cluster.bootstrap_servers})
    name = f"min-isr-{min_isr}-{uuid.uuid4().hex[:8]}"
    admin.create_topics([NewTopic(name, 1, 3, config={"min.insync.replicas": str(min_isr)})])[name].result(60)
    wait_for_topic(admin, name, 1)
    stopped = 2
    try:
        with kafka_cluster.node_stopped(stopped):
            wait_until(
                lambda: all(
                    len(p.isrs) == 2 for p in admin.list_topics(name, timeout=10).topics[name].partitions.values()
                ),
                60,
                "the ISR to shrink to 2",
            )
            error = produce_one(kafka_cluster.bootstrap_without(stopped), name)
            if accepted:
                assert error is None
            else:
                assert error is not None and error.code() == KafkaError.NOT_ENOUGH_REPLICAS, error
    finally:
        admin.delete_topics([name], request_timeout=30)[name].result(timeout=60)
    assert strimzi_topic(tmp_path, replicas=3, min_isr=min_isr) == (set() if accepted else {"KT103"})
