"""`kafka-advisor audit` against the real test cluster: a broker's dynamic configuration and a topic
created with one replica are found where they live (`live://CLUSTER/broker:2`, its config source),
the brokers' request log shows the audit sent describe and list requests only, a command config's
secret never reaches any output, and a cluster that cannot be reached is a one-line error, exit 2."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import kafka_cluster as kafka_cluster_tool  # tools/, on the path through tests/conftest.py
import pytest
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, NewTopic, ResourceType
from kafka.admin import ConfigResource as LoggerResource
from kafka.admin import ConfigResourceType, KafkaAdminClient
from testbed import KafkaTestCluster

pytestmark = pytest.mark.kafka

REPO = Path(__file__).resolve().parents[2]
# What an audit may ask a broker: describe and list requests, and the handshakes before them.
READ_ONLY = frozenset({
    "API_VERSIONS", "METADATA", "SASL_HANDSHAKE", "SASL_AUTHENTICATE", "DESCRIBE_CLUSTER", "DESCRIBE_CONFIGS",
    "DESCRIBE_TOPIC_PARTITIONS", "LIST_GROUPS", "DESCRIBE_GROUPS", "CONSUMER_GROUP_DESCRIBE", "OFFSET_FETCH",
    "LIST_OFFSETS", "FIND_COORDINATOR", "DESCRIBE_ACLS", "DESCRIBE_CLIENT_QUOTAS", "DESCRIBE_USER_SCRAM_CREDENTIALS",
    "DESCRIBE_LOG_DIRS", "LIST_PARTITION_REASSIGNMENTS",
})  # fmt: skip


def audit(bootstrap: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "advisor", "audit", "--bootstrap-server", bootstrap, *args],
                          capture_output=True, text=True, cwd=REPO, timeout=180)  # fmt: skip


@pytest.fixture(scope="module")
def planted(kafka_cluster_handle: KafkaTestCluster) -> Iterator[str]:
    """A topic of one replica, and broker 2 allowing unclean elections by a dynamic update; undone after."""
    admin = AdminClient({"bootstrap.servers": kafka_cluster_handle.bootstrap_servers})
    topic = f"audit-rf1-{uuid.uuid4().hex[:8]}"
    admin.create_topics([NewTopic(topic, 2, 1)])[topic].result(timeout=60)
    entry = ConfigEntry("unclean.leader.election.enable", "true", incremental_operation=AlterConfigOpType.SET)
    broker = ConfigResource(ResourceType.BROKER, "2", incremental_configs=[entry])
    admin.incremental_alter_configs([broker])[broker].result(timeout=60)
    try:
        yield topic
    finally:
        undo = ConfigEntry("unclean.leader.election.enable", None, incremental_operation=AlterConfigOpType.DELETE)
        reset = ConfigResource(ResourceType.BROKER, "2", incremental_configs=[undo])
        admin.incremental_alter_configs([reset])[reset].result(timeout=60)
        admin.delete_topics([topic])[topic].result(timeout=60)


def test_live_values_are_judged_where_they_live(kafka_cluster: KafkaTestCluster, planted: str) -> None:
    result = audit(kafka_cluster.bootstrap_servers, "--output-format", "json")
    assert result.returncode in (0, 1), result.stderr
    findings = json.loads(result.stdout)["findings"]
    unclean = [f for f in findings if f["rule"] == "KB103"]
    assert unclean, findings
    assert unclean[0]["path"].endswith("/broker:2")
    assert unclean[0]["locations"][0]["source"] == "DYNAMIC_BROKER_CONFIG"
    single = [f for f in findings if f["rule"] == "KT105" and f["path"].endswith(f"/topic:{planted}")]
    assert single, [f["rule"] + " " + f["path"] for f in findings]


def test_a_consumer_group_is_read_with_its_offsets_and_nothing_joined(
    kafka_cluster: KafkaTestCluster, planted: str
) -> None:
    from confluent_kafka import Consumer, Producer

    from advisor.live import client

    producer = Producer({"bootstrap.servers": kafka_cluster.bootstrap_servers})
    for number in range(6):
        producer.produce(planted, str(number).encode(), partition=0)
    producer.flush(30)
    group = f"audit-group-{uuid.uuid4().hex[:8]}"
    consumer = Consumer({"bootstrap.servers": kafka_cluster.bootstrap_servers, "group.id": group,
                         "auto.offset.reset": "earliest", "enable.auto.commit": False})  # fmt: skip
    consumer.subscribe([planted])
    read = 0
    while read < 4:
        message = consumer.poll(10)
        assert message is not None, "no record came back"
        if not message.error():
            read += 1
            last = message
    consumer.commit(message=last, asynchronous=False)  # four of six read and committed on partition 0
    consumer.close()
    snapshot = client.read(kafka_cluster.bootstrap_servers, timeout=60)
    found = next(g for g in snapshot.groups if g.id == group)
    assert found.committed == {(planted, 0): 4} and found.members == 0 and found.state == "Empty"
    ends = {p.id: p.end_offset for t in snapshot.topics if t.name == planted for p in t.partitions}
    assert ends[0] == 6
    assert snapshot.not_seen == []


def _set_request_log(bootstrap: str, brokers: list[int], level: str) -> None:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        loggers = {"kafka.request.logger": level}
        admin.alter_configs(
            [LoggerResource(ConfigResourceType.BROKER_LOGGER, str(b), configs=loggers) for b in brokers]
        )
    finally:
        admin.close()


def test_an_audit_sends_describe_and_list_requests_only(kafka_cluster: KafkaTestCluster, planted: str) -> None:
    nodes = kafka_cluster.state.nodes
    logs = {node.node_id: kafka_cluster_tool._log_path(node) for node in nodes}
    sizes = {node: path.stat().st_size for node, path in logs.items()}
    _set_request_log(kafka_cluster.bootstrap_servers, list(logs), "DEBUG")
    try:
        result = audit(kafka_cluster.bootstrap_servers)
    finally:
        _set_request_log(kafka_cluster.bootstrap_servers, list(logs), "INFO")
    assert result.returncode in (0, 1), result.stderr
    sent: set[str] = set()
    for node, path in logs.items():
        with path.open("rb") as log:
            log.seek(sizes[node])
            for line in log.read().decode("utf-8", "replace").splitlines():
                if '"clientId":"kafka-advisor-audit"' in line:
                    sent |= set(re.findall(r'"requestApiKeyName":"(\w+)"', line))
    # what was read, logged (both clients: kafka-python reads feature levels from ApiVersions)
    assert {"METADATA", "DESCRIBE_CONFIGS", "LIST_OFFSETS", "LIST_GROUPS", "LIST_PARTITION_REASSIGNMENTS"} <= sent, sent
    assert sent <= READ_ONLY, sent - READ_ONLY


def test_a_command_config_secret_never_shows(kafka_cluster: KafkaTestCluster, tmp_path: Path) -> None:
    config = tmp_path / "client.properties"
    config.write_text("security.protocol=PLAINTEXT\nssl.key.password=CANARY-live01\nsasl.password=CANARY-live02\n")
    outputs = [audit(kafka_cluster.bootstrap_servers, "--command-config", str(config), "--output-format", fmt)
               for fmt in ("text", "json", "sarif")]  # fmt: skip
    for result in outputs:
        assert "CANARY-live" not in result.stdout + result.stderr
    sarif = json.loads(outputs[2].stdout)
    jsonschema.validate(sarif, json.loads((REPO / "tests" / "schemas" / "sarif-schema-2.1.0.json").read_text()))
    places = [loc["logicalLocations"][0]["fullyQualifiedName"] for r in sarif["runs"][0]["results"]
              for loc in r["locations"]]  # fmt: skip
    assert places and all(place.startswith("live://") for place in places)


def test_an_unreachable_cluster_is_one_clear_error() -> None:
    result = audit(f"127.0.0.1:{kafka_cluster_tool.port_base() + 97}", "--timeout", "5")
    assert result.returncode == 2
    said = [line for line in result.stderr.splitlines() if "DescribeCluster" in line]
    assert said and "127.0.0.1" in said[0], result.stderr


def test_a_saved_snapshot_audits_offline_as_the_cluster_did(kafka_cluster: KafkaTestCluster, planted: str,
                                                            tmp_path: Path) -> None:  # fmt: skip
    snapshot = tmp_path / "cluster.snapshot.json"
    live = audit(kafka_cluster.bootstrap_servers, "--save-snapshot", str(snapshot), "--output-format", "json")
    offline = subprocess.run([sys.executable, "-m", "advisor", "audit", "--snapshot", str(snapshot), "--output-format",
                              "json"], capture_output=True, text=True, cwd=REPO, timeout=120)  # fmt: skip
    assert live.returncode == offline.returncode == 1, live.stderr + offline.stderr

    def verdicts(result: subprocess.CompletedProcess[str]) -> list[tuple[str, str]]:
        return sorted((f["rule"], f["path"]) for f in json.loads(result.stdout)["findings"])

    assert verdicts(live) == verdicts(offline)
    assert ("KT105", f"live://{json.loads(snapshot.read_text())['cluster_id']}/topic:{planted}") in verdicts(offline)
