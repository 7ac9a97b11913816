"""Claims about the Kafka CLI tools, proven by running them (kafka-tools 4.4.0 jars)."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from testbed import KafkaTestCluster, wait_for_topic, wait_until

from advisor.report.session import lint
from advisor.sources.shell import QUOTA_KEYS

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import fetch_kafka

REASSIGN = "org.apache.kafka.tools.reassign.ReassignPartitionsCommand"
CONFIGS = "org.apache.kafka.tools.ConfigCommand"
TOOLS = {
    "kafka-topics": ("org.apache.kafka.tools.TopicCommand", ["--list"]),
    "kafka-configs": ("org.apache.kafka.tools.ConfigCommand", ["--describe", "--entity-type", "topics"]),
    "kafka-reassign-partitions": (
        "org.apache.kafka.tools.reassign.ReassignPartitionsCommand",
        ["--verify", "--reassignment-json-file", "/dev/null"],
    ),
    "kafka-acls": ("org.apache.kafka.tools.AclCommand", ["--list"]),
}


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_kafka_4_tools_reject_zookeeper_and_the_linter_says_so(tool: str, tmp_path: Path) -> None:
    main_class, arguments = TOOLS[tool]
    classpath = fetch_kafka.classpath(fetch_kafka.kafka_libs("4.4.0"))
    result = subprocess.run(
        ["java", "-cp", classpath, main_class, "--zookeeper", "localhost:2181", *arguments],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "zookeeper is not a recognized option" in result.stdout + result.stderr

    script = tmp_path / "ops.sh"
    script.write_text(f"{tool}.sh --zookeeper localhost:2181 {' '.join(arguments)}\n")
    findings = lint([script], kafka_version="4.4").findings
    assert [f.rule for f in findings if f.rule == "KO102"] == ["KO102"]


def test_reassign_tool_refuses_duplicate_replicas_and_the_linter_says_so(tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text('{"version": 1, "partitions": [{"topic": "t", "partition": 0, "replicas": [1, 1, 2]}]}\n')
    classpath = fetch_kafka.classpath(fetch_kafka.kafka_libs("4.4.0"))
    command = ["java", "-cp", classpath, "org.apache.kafka.tools.reassign.ReassignPartitionsCommand"]
    # Port 1: nothing listens; the plan is refused before any connection is needed.
    arguments = ["--bootstrap-server", "127.0.0.1:1", "--execute", "--reassignment-json-file", str(plan)]
    result = subprocess.run([*command, *arguments], capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "Partition replica lists may not contain duplicate entries" in result.stdout + result.stderr
    assert [f.rule for f in lint([plan]).findings] == ["KO104"]


@pytest.mark.kafka
def test_a_finished_move_keeps_its_throttle_until_verify(kafka_cluster: KafkaTestCluster, tmp_path: Path) -> None:
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient, NewTopic

    bootstrap = kafka_cluster.bootstrap_servers
    admin = AdminClient({"bootstrap.servers": bootstrap})
    topic = f"throttle-{uuid.uuid4().hex[:8]}"
    admin.create_topics([NewTopic(topic, num_partitions=1, replica_assignment=[[1]])])[topic].result(60)
    wait_for_topic(admin, topic, 1)
    producer = Producer({"bootstrap.servers": bootstrap})
    for _ in range(100):
        producer.produce(topic, b"x" * 100)
    producer.flush(30)
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"version": 1, "partitions": [{"topic": topic, "partition": 0, "replicas": [2]}]}))
    classpath = fetch_kafka.classpath(fetch_kafka.kafka_libs("4.4.0"))

    def tool(main_class: str, *arguments: str) -> str:
        command = ["java", "-cp", classpath, main_class, "--bootstrap-server", bootstrap, *arguments]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
        return result.stdout + result.stderr

    def broker_throttle() -> bool:
        described = tool(CONFIGS, "--describe", "--entity-type", "brokers", "--entity-name", "1")
        return "leader.replication.throttled.rate=10000000" in described

    tool(REASSIGN, "--reassignment-json-file", str(plan), "--execute", "--throttle", "10000000")
    wait_until(lambda: admin.list_topics(topic, timeout=10).topics[topic].partitions[0].replicas == [2], 60, "the move")
    assert broker_throttle()  # the move is done, and the throttle is still there
    assert "Clearing broker-level throttles" in tool(REASSIGN, "--reassignment-json-file", str(plan), "--verify")
    assert not broker_throttle()

    script = tmp_path / "move.sh"
    reassign = f"kafka-reassign-partitions.sh --bootstrap-server {bootstrap} --reassignment-json-file plan.json"
    script.write_text(f"{reassign} --execute --throttle 10000000\n")
    assert "KO105" in {f.rule for f in lint([script]).findings}
    script.write_text(f"{reassign} --execute --throttle 10000000\n{reassign} --verify\n")
    assert "KO105" not in {f.rule for f in lint([script]).findings}


@pytest.mark.kafka
def test_a_plan_with_a_short_replica_list_lowers_the_replication_factor(
    kafka_cluster: KafkaTestCluster, tmp_path: Path
) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    bootstrap = kafka_cluster.bootstrap_servers
    admin = AdminClient({"bootstrap.servers": bootstrap})
    topic = f"shrink-{uuid.uuid4().hex[:8]}"
    admin.create_topics([NewTopic(topic, 2, 3)])[topic].result(60)
    wait_for_topic(admin, topic, 2)
    plan = tmp_path / "plan.json"
    moves = [
        {"topic": topic, "partition": 0, "replicas": [1, 2, 3]},
        {"topic": topic, "partition": 1, "replicas": [2, 3]},
    ]
    plan.write_text(json.dumps({"version": 1, "partitions": moves}))
    classpath = fetch_kafka.classpath(fetch_kafka.kafka_libs("4.4.0"))
    command = ["java", "-cp", classpath, REASSIGN, "--bootstrap-server", bootstrap]
    executed = subprocess.run(
        [*command, "--reassignment-json-file", str(plan), "--execute"], capture_output=True, text=True, timeout=120
    )
    assert "Successfully started partition reassignment" in executed.stdout, executed.stdout + executed.stderr

    def replicas(partition: int) -> list[int]:
        return admin.list_topics(topic, timeout=10).topics[topic].partitions[partition].replicas

    wait_until(lambda: len(replicas(1)) == 2, 60, "partition 1 to shrink to 2 replicas")
    assert len(replicas(0)) == 3
    assert [f.rule for f in lint([plan]).findings] == ["KO106"]


@pytest.mark.kafka
def test_a_plan_naming_an_unknown_broker_is_refused(kafka_cluster: KafkaTestCluster, tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"version": 1, "partitions": [{"topic": "t", "partition": 0, "replicas": [1, 2, 9]}]}))
    classpath = fetch_kafka.classpath(fetch_kafka.kafka_libs("4.4.0"))
    command = ["java", "-cp", classpath, REASSIGN, "--bootstrap-server", kafka_cluster.bootstrap_servers]
    result = subprocess.run(
        [*command, "--reassignment-json-file", str(plan), "--execute"], capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0 and "Unknown broker id 9" in result.stdout + result.stderr

    # The linter, given the cluster (node ids 1-3, as the test cluster has) beside the plan.
    compose = tmp_path / "docker-compose.yml"
    services = "".join(
        f"  kafka-{n}:\n    image: apache/kafka:4.4.0\n    environment:\n      KAFKA_NODE_ID: {n}\n" for n in (1, 2, 3)
    )
    compose.write_text("services:\n" + services)
    assert "KO107" in {f.rule for f in lint([compose, plan]).findings}
    plan.write_text(json.dumps({"version": 1, "partitions": [{"topic": "t", "partition": 0, "replicas": [1, 2, 3]}]}))
    assert "KO107" not in {f.rule for f in lint([compose, plan]).findings}


def test_the_linter_knows_exactly_the_client_quota_names_kafka_defines(tmp_path: Path) -> None:
    from oracles import compile_java

    classpath = fetch_kafka.classpath(fetch_kafka.kafka_libs("4.4.0"))
    classes = compile_java(Path(__file__).resolve().parents[1] / "java" / "QuotaNamesOracle.java", tmp_path)
    result = subprocess.run(
        ["java", "-cp", f"{classes}:{classpath}", "QuotaNamesOracle"], capture_output=True, text=True, timeout=120
    )
    assert set(result.stdout.split()) == set(QUOTA_KEYS), result.stderr


@pytest.mark.kafka
def test_kafka_configs_takes_the_quota_names_and_refuses_others(
    kafka_cluster: KafkaTestCluster, tmp_path: Path
) -> None:
    classpath = fetch_kafka.classpath(fetch_kafka.kafka_libs("4.4.0"))
    client = f"tenant-{uuid.uuid4().hex[:8]}"

    def add_config(pairs: str) -> subprocess.CompletedProcess[str]:
        command = ["java", "-cp", classpath, CONFIGS, "--bootstrap-server", kafka_cluster.bootstrap_servers]
        command += ["--alter", "--entity-type", "clients", "--entity-name", client, "--add-config", pairs]
        return subprocess.run(command, capture_output=True, text=True, timeout=120)

    accepted = add_config(",".join(f"{key}=1048576" if "rate" in key else f"{key}=50" for key in QUOTA_KEYS))
    assert accepted.returncode == 0 and "Completed updating config" in accepted.stdout, accepted.stderr
    refused = add_config("producer_bytes_rate=1048576")
    assert refused.returncode != 0
    assert "Only quota configs can be added for 'clients'" in refused.stdout + refused.stderr

    # The linter: three principals let in by ACLs; a quota script beside them silences it.
    acls = tmp_path / "onboard.sh"
    acls.write_text(
        "kafka-acls.sh --bootstrap-server k:9092 --add --allow-principal User:orders --operation Write --topic o\n"
        "kafka-acls.sh --bootstrap-server k:9092 --add --allow-principal User:billing --operation Read --topic o\n"
    )
    assert [f.line for f in lint([acls]).findings if f.rule == "KO108"] == [2]
    quotas = tmp_path / "quotas.sh"
    quotas.write_text(
        "kafka-configs.sh --bootstrap-server k:9092 --alter --entity-type users --entity-default "
        "--add-config producer_byte_rate=1048576\n"
    )
    assert "KO108" not in {f.rule for f in lint([acls, quotas]).findings}


def _topic_command(release: str) -> list[str]:
    """kafka-topics of a release: 4.4's runtime jars; 3.9's kafka-tools jar beside its broker jars
    (the tool left kafka.admin in 3.5); 2.8's broker jar, where it still lived."""
    if release == "4.4.0":
        return ["-cp", fetch_kafka.classpath(fetch_kafka.kafka_libs(release)), "org.apache.kafka.tools.TopicCommand"]
    classpath = fetch_kafka.classpath(fetch_kafka.kafka_core_libs(release))
    if release == "2.8.2":
        return ["-cp", classpath, "kafka.admin.TopicCommand"]
    tools = fetch_kafka.artifact_jar(f"org.apache.kafka:kafka-tools:{release}")
    return ["-cp", f"{classpath}:{tools}", "org.apache.kafka.tools.TopicCommand"]


@pytest.mark.parametrize("release", ["4.4.0", "3.9.1", "2.8.2"])
def test_kafka_topics_refuses_to_alter_a_replication_factor_and_the_linter_says_so(
    release: str, tmp_path: Path
) -> None:
    """KO109: every release's kafka-topics refuses --replication-factor with --alter, before it
    connects anywhere (port 1: nothing listens)."""
    arguments = ["--bootstrap-server", "127.0.0.1:1", "--alter", "--topic", "t", "--partitions", "6"]
    result = subprocess.run(
        ["java", *_topic_command(release), *arguments, "--replication-factor", "3"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "can't be used with option" in result.stdout + result.stderr and "alter" in result.stdout + result.stderr

    script = tmp_path / "raise-rf.sh"
    script.write_text(f"kafka-topics.sh {' '.join(arguments)} --replication-factor 3\n")
    findings = lint([script], kafka_version=release).findings
    assert [(f.rule, f.keys) for f in findings if f.rule == "KO109"] == [("KO109", ("--alter", "--replication-factor"))]
