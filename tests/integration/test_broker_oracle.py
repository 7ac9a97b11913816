"""Topic rules against the real brokers of the 3-node test cluster."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, Producer
from confluent_kafka.admin import AdminClient, ConfigResource, NewTopic
from oracles import compile_java
from testbed import KafkaTestCluster, wait_for_topic, wait_until

from advisor.report.session import lint

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tools"))
import fetch_kafka  # noqa: E402

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


def test_a_topic_without_its_own_min_isr_takes_the_brokers_and_stops_with_one_replica_down(
    kafka_cluster: KafkaTestCluster, tmp_path: Path
) -> None:
    """KT107: the brokers' min.insync.replicas=2 applies to a 2-replica topic
    that sets none: with one replica down, acks=all writes fail with NOT_ENOUGH_REPLICAS."""
    admin = AdminClient({"bootstrap.servers": kafka_cluster.bootstrap_servers})

    def cluster_default(value: int) -> None:
        # The cluster-wide default entity, through the real kafka-configs: Kafka 4 with ELR refuses a
        # per-broker value and the removal of the cluster's (so it is set back to 1, the default), and
        # librdkafka cannot name the default entity.
        libs = fetch_kafka.classpath(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION))
        command = ["java", "-cp", libs, "org.apache.kafka.tools.ConfigCommand", "--bootstrap-server",
                   kafka_cluster.bootstrap_servers, "--alter", "--entity-type", "brokers", "--entity-default",
                   "--add-config", f"min.insync.replicas={value}"]  # fmt: skip
        subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)

    name = f"inherits-min-isr-{uuid.uuid4().hex[:8]}"
    cluster_default(2)
    try:
        admin.create_topics([NewTopic(name, num_partitions=1, replica_assignment=[[1, 2]])])[name].result(60)
        wait_for_topic(admin, name, 1)
        with kafka_cluster.node_stopped(2):
            wait_until(lambda: all(len(p.isrs) == 1 for p in admin.list_topics(name, timeout=10).topics[name]
                                   .partitions.values()), 60, "the ISR to shrink to 1")  # fmt: skip
            error = produce_one(kafka_cluster.bootstrap_without(2), name)
            assert error is not None and error.code() == KafkaError.NOT_ENOUGH_REPLICAS, error
    finally:
        cluster_default(1)
        admin.delete_topics([name], request_timeout=30)[name].result(timeout=60)
    (tmp_path / "kafka.yaml").write_text(
        "apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata:\n  name: test\nspec:\n  kafka:\n"
        "    replicas: 3\n    config:\n      min.insync.replicas: 2\n"
    )
    (tmp_path / "topic.yaml").write_text(
        "apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaTopic\nmetadata:\n  name: t\n"
        "  labels:\n    strimzi.io/cluster: test\nspec:\n  partitions: 1\n  replicas: 2\n"
    )
    assert "KT107" in {f.rule for f in lint([tmp_path / "kafka.yaml", tmp_path / "topic.yaml"]).findings}


def records_seen(bootstrap: str, topic: str, isolation: str) -> list[bytes]:
    """Everything the consumer receives up to the committed record, the topic's last."""
    consumer = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"oracle-{uuid.uuid4().hex[:8]}",
            "auto.offset.reset": "earliest",
            "isolation.level": isolation,
            "enable.auto.commit": False,
        }
    )
    consumer.subscribe([topic])
    seen: list[bytes] = []
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and b"committed" not in seen:
            message = consumer.poll(1.0)
            if message is not None and message.error() is None:
                seen.append(message.value())
        return seen
    finally:
        consumer.close()


def test_read_uncommitted_consumers_see_aborted_transactions(kafka_cluster: KafkaTestCluster, tmp_path: Path) -> None:
    admin = AdminClient({"bootstrap.servers": kafka_cluster.bootstrap_servers})
    topic = f"tx-{uuid.uuid4().hex[:8]}"
    admin.create_topics([NewTopic(topic, 1, 3)])[topic].result(60)
    wait_for_topic(admin, topic, 1)
    producer = Producer({"bootstrap.servers": kafka_cluster.bootstrap_servers, "transactional.id": topic})
    producer.init_transactions(90)  # the first use creates __transaction_state
    for value, commit in ((b"aborted", False), (b"committed", True)):
        producer.begin_transaction()
        producer.produce(topic, value)
        producer.flush(30)
        if commit:
            producer.commit_transaction(30)
        else:
            producer.abort_transaction(30)
    assert records_seen(kafka_cluster.bootstrap_servers, topic, "read_uncommitted") == [b"aborted", b"committed"]
    assert records_seen(kafka_cluster.bootstrap_servers, topic, "read_committed") == [b"committed"]

    # The linter: a transactional producer and a consumer at the Java default, both of this
    # cluster (they name its bootstrap servers: loopback, so joined as a guess, which the finding says).
    bootstrap = f"bootstrap.servers={kafka_cluster.bootstrap_servers}\n"
    producer_file = tmp_path / "ledger.producer.properties"
    producer_file.write_text(f"{bootstrap}transactional.id={topic}\n")
    consumer = tmp_path / "audit.consumer.properties"
    consumer.write_text(f"{bootstrap}group.id=audit\n")
    (finding,) = [f for f in lint([producer_file, consumer]).findings if f.rule == "KC113"]
    assert "grouped by a guess" in finding.assumptions[0]
    consumer.write_text(f"{bootstrap}group.id=audit\nisolation.level=read_committed\n")
    assert "KC113" not in {f.rule for f in lint([producer_file, consumer]).findings}


def librdkafka_partitions(bootstrap: str, topic: str, keys: list[str], partitioner: str | None) -> list[int]:
    config = {"bootstrap.servers": bootstrap, **({"partitioner": partitioner} if partitioner else {})}
    producer = Producer(config)
    placed: dict[str, int] = {}
    for key in keys:
        producer.produce(
            topic, b"x", key=key.encode(), on_delivery=lambda _e, m: placed.update({m.key().decode(): m.partition()})
        )
    producer.flush(30)
    return [placed[key] for key in keys]


def java_partitions(tmp_path: Path, partitions: int, keys: list[str]) -> list[int]:
    classes = compile_java(REPO_ROOT / "tests" / "java" / "PartitionOracle.java", tmp_path / "classes")
    libs = fetch_kafka.classpath(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION))
    command = ["java", "-cp", f"{classes}:{libs}", "PartitionOracle", str(partitions), *keys]
    return json.loads(subprocess.run(command, capture_output=True, text=True, check=True, timeout=120).stdout)


def test_librdkafka_default_partitioner_is_not_javas(kafka_cluster: KafkaTestCluster, tmp_path: Path) -> None:
    admin = AdminClient({"bootstrap.servers": kafka_cluster.bootstrap_servers})
    topic = f"keys-{uuid.uuid4().hex[:8]}"
    admin.create_topics([NewTopic(topic, 12, 3)])[topic].result(60)
    wait_for_topic(admin, topic, 12)
    keys = [f"order-{n}" for n in range(40)]
    java = java_partitions(tmp_path, 12, keys)
    default = librdkafka_partitions(kafka_cluster.bootstrap_servers, topic, keys, None)
    compatible = librdkafka_partitions(kafka_cluster.bootstrap_servers, topic, keys, "murmur2_random")
    assert compatible == java
    assert sum(a != b for a, b in zip(default, java, strict=True)) > len(keys) // 2

    # The linter: a project with a Java producer and a librdkafka producer.
    (tmp_path / "orders.producer.properties").write_text("bootstrap.servers=k:9092\n")
    cart = tmp_path / "cart.producer.json"
    for partitioner, fires in ((None, True), ("murmur2_random", False)):
        cart.write_text(
            json.dumps({"bootstrap.servers": "k:9092", **({"partitioner": partitioner} if partitioner else {})})
        )
        found = {f.rule for f in lint([tmp_path / "orders.producer.properties", cart]).findings}
        assert ("KP117" in found) is fires


def send_large(bootstrap: str, topic: str, size: int) -> KafkaError | None:
    outcome: list[KafkaError | None] = []
    producer = Producer({"bootstrap.servers": bootstrap, "message.max.bytes": 5_000_000, "message.timeout.ms": 20000})
    producer.produce(topic, b"x" * size, on_delivery=lambda error, _: outcome.append(error))
    producer.flush(30)
    return outcome[0]


def test_brokers_refuse_records_above_their_limit_whatever_the_producer_allows(
    kafka_cluster: KafkaTestCluster, tmp_path: Path
) -> None:
    admin = AdminClient({"bootstrap.servers": kafka_cluster.bootstrap_servers})
    default_topic, raised_topic = f"big-{uuid.uuid4().hex[:8]}", f"bigger-{uuid.uuid4().hex[:8]}"
    admin.create_topics(
        [NewTopic(default_topic, 1, 3), NewTopic(raised_topic, 1, 3, config={"max.message.bytes": "5242880"})]
    )[raised_topic].result(60)
    wait_for_topic(admin, default_topic, 1)
    wait_for_topic(admin, raised_topic, 1)
    refused = send_large(kafka_cluster.bootstrap_servers, default_topic, 2_000_000)
    assert refused is not None and refused.code() == KafkaError.MSG_SIZE_TOO_LARGE, refused
    assert send_large(kafka_cluster.bootstrap_servers, raised_topic, 2_000_000) is None

    # The linter: a producer allowed 5 MB beside a broker at the default limit ...
    broker = tmp_path / "server.properties"
    broker.write_text("process.roles=broker\nnode.id=1\nadvertised.listeners=SASL_SSL://k:9092\n")
    producer = tmp_path / "media.producer.json"
    producer.write_text(json.dumps({"bootstrap.servers": "k:9092", "message.max.bytes": 5_000_000}))
    assert "KX109" in {f.rule for f in lint([broker, producer]).findings}
    # ... and beside a topic that accepts it.
    topic = tmp_path / "topics.sh"
    topic.write_text(
        f"kafka-topics.sh --bootstrap-server k:9092 --create --topic {raised_topic} "
        "--config max.message.bytes=5242880\n"
    )
    assert "KX109" not in {f.rule for f in lint([broker, producer, topic]).findings}


def stored_codec(kafka_cluster: KafkaTestCluster, topic: str, node_id: int) -> str:
    """The codec of the first batch in the partition's log on `node_id`, read by DumpLogSegments."""
    segment = next((Path(kafka_cluster.state.data_dir) / f"node-{node_id}" / "data" / f"{topic}-0").glob("*.log"))
    libs = fetch_kafka.classpath(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION))
    command = ["java", "-cp", libs, "org.apache.kafka.tools.DumpLogSegments", "--files", str(segment)]
    dump = subprocess.run(command, capture_output=True, text=True, check=True, timeout=120).stdout
    return dump.split("compresscodec: ", 1)[1].split()[0]


@pytest.mark.parametrize(("topic_codec", "stored"), [("zstd", "zstd"), ("producer", "gzip")])
def test_a_topic_codec_other_than_the_producers_is_applied_by_the_broker(
    kafka_cluster: KafkaTestCluster, tmp_path: Path, topic_codec: str, stored: str
) -> None:
    admin = AdminClient({"bootstrap.servers": kafka_cluster.bootstrap_servers})
    topic = f"codec-{uuid.uuid4().hex[:8]}"
    config = {"compression.type": topic_codec}
    admin.create_topics([NewTopic(topic, num_partitions=1, replica_assignment=[[1]], config=config)])[topic].result(60)
    wait_for_topic(admin, topic, 1)
    producer = Producer({"bootstrap.servers": kafka_cluster.bootstrap_servers, "compression.type": "gzip"})
    for n in range(50):
        producer.produce(topic, b"reading %d" % n)
    assert producer.flush(30) == 0
    assert stored_codec(kafka_cluster, topic, node_id=1) == stored

    # The linter: the same producer beside a topic with that codec.
    script = tmp_path / "topics.sh"
    script.write_text(
        f"kafka-topics.sh --bootstrap-server k:9092 --create --topic {topic} --config compression.type={topic_codec}\n"
    )
    client = tmp_path / "gateway.producer.json"
    client.write_text(json.dumps({"bootstrap.servers": "k:9092", "compression.type": "gzip"}))
    fired = "KP120" in {f.rule for f in lint([script, client]).findings}
    assert fired is (stored != "gzip")


def project_findings(tmp_path: Path, client_file: str, text: str) -> set[str]:
    """Lint one client file beside a broker at the defaults (the test cluster's own bounds): the
    client names the address the broker advertises, so they are one cluster."""
    broker = tmp_path / "server.properties"
    broker.write_text("process.roles=broker\nnode.id=1\nadvertised.listeners=SASL_SSL://k:9092\n")
    client = tmp_path / client_file
    client.write_text(f"bootstrap.servers=k:9092\n{text}")
    return {f.rule for f in lint([broker, client]).findings}


@pytest.mark.parametrize(("timeout_ms", "refused"), [(1_000_000, True), (600_000, False)])
def test_brokers_refuse_a_transaction_timeout_above_their_maximum(
    kafka_cluster: KafkaTestCluster, tmp_path: Path, timeout_ms: int, refused: bool
) -> None:
    transactional_id = f"limits-{uuid.uuid4().hex[:8]}"
    producer = Producer(
        {
            "bootstrap.servers": kafka_cluster.bootstrap_servers,
            "transactional.id": transactional_id,
            "transaction.timeout.ms": timeout_ms,
            "message.timeout.ms": min(timeout_ms, 300_000),
        }
    )
    try:
        producer.init_transactions(90)  # the first use creates __transaction_state
        outcome = None
    except KafkaException as error:
        outcome = error.args[0]
    assert (outcome is not None and outcome.code() == KafkaError.INVALID_TRANSACTION_TIMEOUT) is refused, outcome
    text = f"transactional.id={transactional_id}\ntransaction.timeout.ms={timeout_ms}\n"
    assert ("KX110" in project_findings(tmp_path, "tx.producer.properties", text)) is refused


@pytest.mark.parametrize(("session_ms", "refused"), [(5000, True), (45000, False)])
def test_brokers_refuse_a_session_timeout_outside_their_range(
    kafka_cluster: KafkaTestCluster, tmp_path: Path, session_ms: int, refused: bool
) -> None:
    admin = AdminClient({"bootstrap.servers": kafka_cluster.bootstrap_servers})
    topic = f"session-{uuid.uuid4().hex[:8]}"
    admin.create_topics([NewTopic(topic, 1, 3)])[topic].result(60)
    wait_for_topic(admin, topic, 1)
    group = f"session-{uuid.uuid4().hex[:8]}"
    consumer = Consumer(
        {
            "bootstrap.servers": kafka_cluster.bootstrap_servers,
            "group.id": group,
            "session.timeout.ms": session_ms,
            "heartbeat.interval.ms": 1000,
        }
    )
    consumer.subscribe([topic])
    error = None
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and error is None and not consumer.assignment():
            message = consumer.poll(0.5)
            error = message.error() if message is not None else None
    finally:
        consumer.close()
    assert (error is not None and error.code() == KafkaError.INVALID_SESSION_TIMEOUT) is refused, error
    text = f"group.id={group}\nsession.timeout.ms={session_ms}\nheartbeat.interval.ms=1000\n"
    assert ("KX111" in project_findings(tmp_path, "c.consumer.properties", text)) is refused


def test_followers_replicate_a_batch_larger_than_replica_fetch_max_bytes(
    kafka_cluster: KafkaTestCluster, tmp_path: Path
) -> None:
    """KIP-74: the test brokers keep replica.fetch.max.bytes at 1 MiB; with min.insync.replicas=3
    an acks=all write of 2 MB succeeds only once both followers have fetched it."""
    admin = AdminClient({"bootstrap.servers": kafka_cluster.bootstrap_servers})
    topic = f"large-{uuid.uuid4().hex[:8]}"
    config = {"max.message.bytes": "5242880", "min.insync.replicas": "3"}
    admin.create_topics([NewTopic(topic, 1, 3, config=config)])[topic].result(60)
    wait_for_topic(admin, topic, 1)
    outcome: list[KafkaError | None] = []
    producer = Producer(
        {
            "bootstrap.servers": kafka_cluster.bootstrap_servers,
            "acks": "all",
            "message.max.bytes": 5_000_000,
            "message.timeout.ms": 20000,  # below replica.lag.time.max.ms: no ISR shrink can help
        }
    )
    producer.produce(topic, b"x" * 2_000_000, on_delivery=lambda error, _: outcome.append(error))
    producer.flush(30)
    assert outcome == [None]
    broker = tmp_path / "server.properties"
    broker.write_text("process.roles=broker\nnode.id=1\nmessage.max.bytes=5242880\n")
    findings = lint([broker]).findings
    assert [f.severity for f in findings if f.rule == "KB123"] == ["info"]


def test_a_topic_created_without_a_count_gets_the_brokers_num_partitions(
    kafka_cluster: KafkaTestCluster, tmp_path: Path
) -> None:
    admin = AdminClient({"bootstrap.servers": kafka_cluster.bootstrap_servers})
    topic = f"uncounted-{uuid.uuid4().hex[:8]}"
    admin.create_topics([NewTopic(topic, replication_factor=3)])[topic].result(60)  # no partition count
    configs = admin.describe_configs([ConfigResource(ConfigResource.Type.BROKER, "1")])
    broker_default = int(next(iter(configs.values())).result(60)["num.partitions"].value)
    assert broker_default == 1  # the test cluster leaves num.partitions at its default
    wait_for_topic(admin, topic, broker_default)
    assert len(admin.list_topics(topic, timeout=10).topics[topic].partitions) == 1

    broker = tmp_path / "server.properties"
    broker.write_text(
        "process.roles=broker,controller\ncontroller.quorum.voters=1@k1:9093,2@k2:9093,3@k3:9093\nnum.partitions=1\n"
    )
    assert "KB129" in {f.rule for f in lint([broker]).findings}
