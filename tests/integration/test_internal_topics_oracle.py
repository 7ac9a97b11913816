"""KB120/KB121 against a real single-node Kafka 4.4 broker: with the internal topics' replication
factors at their defaults (3), consumer groups and transactions never work; lowered to the
broker count, both do. The linter reads the same settings as a one-broker compose service."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition
from oracles import standalone_broker

from advisor.report.session import lint

LOWERED = {"offsets.topic.replication.factor": "1", "transaction.state.log.replication.factor": "1"}


def group_offsets_work(bootstrap: str) -> bool:
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "oracle"})
    try:
        consumer.committed([TopicPartition("oracle", 0)], timeout=10)
        return True
    except KafkaException:
        return False
    finally:
        consumer.close()


def transactions_work(bootstrap: str) -> bool:
    producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": "oracle"})
    try:
        producer.init_transactions(10)
        producer.begin_transaction()
        producer.produce("oracle-tx", b"x")
        producer.commit_transaction(10)
        return True
    except KafkaException:
        return False


def works_within(check: Callable[[str], bool], bootstrap: str, expected: bool) -> bool:
    """One 10 s attempt where failure is expected; where success is, retries for up to 90 s —
    creating a 50-partition internal topic can take a while on a loaded machine."""
    deadline = time.monotonic() + (90 if expected else 0)
    while not check(bootstrap):
        if time.monotonic() > deadline:
            return False
    return True


def verdicts(tmp_path: Path, settings: dict[str, str]) -> set[str]:
    environment = "".join(f"      KAFKA_{k.upper().replace('.', '_')}: '{v}'\n" for k, v in settings.items())
    compose = tmp_path / "docker-compose.yml"
    compose.write_text(
        "services:\n  kafka:\n    image: apache/kafka:4.4.0\n    environment:\n"
        "      KAFKA_NODE_ID: 1\n      KAFKA_PROCESS_ROLES: broker,controller\n" + environment
    )
    return {f.rule for f in lint([compose]).findings} & {"KB120", "KB121"}


@pytest.mark.parametrize(
    ("overrides", "works", "rules"),
    [({}, False, {"KB120", "KB121"}), (LOWERED, True, set())],
    ids=["defaults", "lowered"],
)
def test_internal_topic_rules_match_a_single_real_broker(
    tmp_path: Path, overrides: dict[str, str], works: bool, rules: set[str]
) -> None:
    with standalone_broker(tmp_path, overrides) as bootstrap:
        assert works_within(group_offsets_work, bootstrap, works) is works
        # With the lowered RF, transaction.state.log.min.isr stays at its default 2: from 3.7 the
        # effective min ISR is capped at the replica count, so transactions still work.
        assert works_within(transactions_work, bootstrap, works) is works
    if not works:
        assert "offsets.topic.replication.factor" in (tmp_path / "broker.log").read_text()
    assert verdicts(tmp_path, overrides) == rules


def test_a_default_replication_factor_above_the_broker_count_refuses_topics_created_without_one(
    tmp_path: Path,
) -> None:
    """KB141: a one-node broker with default.replication.factor=3 refuses a topic created without a
    factor; with 1 it creates it. The linter says so of a one-broker Strimzi cluster."""
    from confluent_kafka.admin import AdminClient, NewTopic

    for factor, created in (("3", False), ("1", True)):
        work = tmp_path / factor
        work.mkdir()
        with standalone_broker(work, {**LOWERED, "default.replication.factor": factor}) as bootstrap:
            admin = AdminClient({"bootstrap.servers": bootstrap})
            future = admin.create_topics([NewTopic("no-factor", num_partitions=1)], request_timeout=30)["no-factor"]
            try:
                future.result(60)
                error = None
            except KafkaException as raised:
                error = raised.args[0]
        assert (error is None) is created, error
        if not created:
            assert error.name() == "INVALID_REPLICATION_FACTOR", error
        strimzi = work / "kafka.yaml"
        strimzi.write_text(
            "apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata:\n  name: sandbox\nspec:\n  kafka:\n"
            f"    replicas: 1\n    config:\n      default.replication.factor: {factor}\n"
        )
        assert ("KB141" in {f.rule for f in lint([strimzi]).findings}) is not created
