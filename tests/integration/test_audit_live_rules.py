"""The live rules against states the real test cluster is put in: a broker stopped (its only-replica
partition offline, others under-replicated, a reassignment onto it stuck and unthrottled, the audit
partial and said so, exit 2), a throttle the real kafka-reassign-partitions leaves behind until
--verify, a group of consumers on the eager range assignor, and a group whose committed offset
retention (here DeleteRecords) has passed."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import fetch_kafka  # tools/, on the path through tests/conftest.py
import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient
from kafka import TopicPartition as KafkaTopicPartition
from kafka.admin import KafkaAdminClient, NewTopic
from testbed import KafkaTestCluster, commit_offset, reassign_partitions, wait_until

pytestmark = pytest.mark.kafka

REPO = Path(__file__).resolve().parents[2]


def audit(bootstrap: str, *args: str, cwd: Path = REPO) -> tuple[int, dict]:
    result = subprocess.run([sys.executable, "-m", "advisor", "audit", "--bootstrap-server", bootstrap,
                             "--output-format", "json", *args], capture_output=True, text=True, cwd=cwd,
                            timeout=180)  # fmt: skip
    assert result.stdout, result.stderr
    return result.returncode, json.loads(result.stdout)


def at(report: dict, rule: str) -> set[str]:
    """The live resources a rule's findings are at (`topic:orders`, `broker:2`, `group:billing`)."""
    return {loc["path"].split("/", 3)[-1] for f in report["findings"] if f["rule"] == rule for loc in f["locations"]}


@pytest.fixture
def topics(kafka_cluster: KafkaTestCluster) -> Iterator[dict[str, str]]:
    """Topics placed by hand: `offline` only on broker 3, `short` on all three, `move` on 1 and 2."""
    suffix = uuid.uuid4().hex[:8]
    names = {"offline": f"live-offline-{suffix}", "short": f"live-short-{suffix}", "move": f"live-move-{suffix}"}
    admin = KafkaAdminClient(bootstrap_servers=kafka_cluster.bootstrap_servers.split(","))
    placed = {"offline": [3], "short": [1, 2, 3], "move": [1, 2]}
    admin.create_topics([NewTopic(names[k], -1, -1, replica_assignments={0: placed[k]}) for k in names])
    admin.close()
    try:
        yield names
    finally:
        cleanup = KafkaAdminClient(bootstrap_servers=kafka_cluster.bootstrap_servers.split(","))
        cleanup.delete_topics(list(names.values()))
        cleanup.close()


def test_a_stopped_broker_is_seen_in_partitions_offline_under_replicated_and_a_stuck_move(
    kafka_cluster: KafkaTestCluster, topics: dict[str, str]
) -> None:
    bootstrap = kafka_cluster.bootstrap_without(3)
    confluent = AdminClient({"bootstrap.servers": bootstrap})

    def isr(topic: str) -> list[int]:
        return list(confluent.list_topics(topic, timeout=10).topics[topic].partitions[0].isrs)

    with kafka_cluster.node_stopped(3):
        wait_until(lambda: 3 not in isr(topics["short"]), 60, "broker 3 out of the ISR")
        mover = KafkaAdminClient(bootstrap_servers=bootstrap.split(","))  # made now: it must not pick broker 3
        partition = KafkaTopicPartition(topics["move"], 0)
        mover.alter_partition_reassignments({partition: [1, 3]})  # broker 3 is down: the move cannot finish
        try:
            code, report = audit(bootstrap)
        finally:
            mover.alter_partition_reassignments({partition: None})
            mover.close()
    assert f"topic:{topics['offline']}" in at(report, "KT110"), report["findings"]
    assert f"topic:{topics['short']}" in at(report, "KT109")
    assert f"topic:{topics['move']}" not in at(report, "KT109")  # the replica being added is not yet in the ISR
    assert f"topic:{topics['move']}" in at(report, "KO114")
    # The broker that is down was not read: the audit says it is partial, and fails.
    assert code == 2
    partial = [e["message"] for e in report["errors"] if e["kind"] == "live"]
    assert any("broker 3" in message and "not among the cluster's running brokers" in message for message in partial)


def _admin_with_topic(bootstrap: str, prefix: str, **placement: object) -> tuple[KafkaAdminClient, str]:
    topic = f"{prefix}-{uuid.uuid4().hex[:8]}"
    admin = KafkaAdminClient(bootstrap_servers=bootstrap.split(","))
    admin.create_topics([NewTopic(topic, **placement)])  # type: ignore[arg-type]
    return admin, topic


def test_a_throttle_left_behind_is_found_until_verify_removes_it(
    kafka_cluster: KafkaTestCluster, tmp_path: Path
) -> None:
    bootstrap = kafka_cluster.bootstrap_servers
    admin, topic = _admin_with_topic(bootstrap, "live-throttle", num_partitions=-1, replication_factor=-1,
                                     replica_assignments={0: [1]})  # fmt: skip
    confluent = AdminClient({"bootstrap.servers": bootstrap})
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"version": 1, "partitions": [{"topic": topic, "partition": 0, "replicas": [2]}]}))

    def reassign(*arguments: str) -> str:
        return reassign_partitions(bootstrap, plan, *arguments)

    try:
        reassign("--execute", "--throttle", "10000000")
        wait_until(lambda: list(confluent.list_topics(topic, timeout=10).topics[topic].partitions[0].replicas)
                   == [2], 60, "the move")  # fmt: skip
        wait_until(lambda: not admin.list_partition_reassignments(), 60, "no reassignment running")
        _, left = audit(bootstrap)
        places = at(left, "KO113")
        assert {"broker:1", "broker:2", f"topic:{topic}"} <= places, places
        sources = {loc.get("source") for f in left["findings"] if f["rule"] == "KO113" for loc in f["locations"]}
        assert "DYNAMIC_BROKER_CONFIG" in sources and "DYNAMIC_TOPIC_CONFIG" in sources
        assert "Clearing broker-level throttles" in reassign("--verify")
        _, cleared = audit(bootstrap)
        assert not at(cleared, "KO113"), at(cleared, "KO113")
        assert "KO113" in cleared["rules"]  # judged, and quiet
    finally:
        admin.delete_topics([topic])
        admin.close()


def test_groups_on_the_eager_assignor_and_behind_the_log_start_are_found(
    kafka_cluster: KafkaTestCluster, tmp_path: Path
) -> None:
    bootstrap = kafka_cluster.bootstrap_servers
    admin, topic = _admin_with_topic(bootstrap, "live-groups", num_partitions=2, replication_factor=3)
    confluent = AdminClient({"bootstrap.servers": bootstrap})
    wait_until(lambda: topic in confluent.list_topics(timeout=10).topics, 30, "the topic")
    producer = Producer({"bootstrap.servers": bootstrap})
    for number in range(100):
        producer.produce(topic, str(number).encode(), partition=0)
    producer.flush(30)
    eager, behind = f"eager-{topic}", f"behind-{topic}"
    members = [Consumer({"bootstrap.servers": bootstrap, "group.id": eager, "partition.assignment.strategy": "range",
                         "session.timeout.ms": 10000}) for _ in range(2)]  # fmt: skip
    try:
        for member in members:
            member.subscribe([topic])
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not all(m.assignment() for m in members):
            for member in members:
                member.poll(0.2)
        assert all(m.assignment() for m in members), "the two members never shared the partitions"
        commit_offset(bootstrap, behind, topic, 0, 10)
        deleted = confluent.delete_records([TopicPartition(topic, 0, 50)])  # as retention would
        for future in deleted.values():
            future.result(30)
        (tmp_path / ".kafka-advisor.toml").write_text("[params.KC117]\nmembers = 2\n")
        _, report = audit(bootstrap, cwd=tmp_path)
        for member in members:
            member.poll(0.1)  # still members while the audit ran
    finally:
        for member in members:
            member.close()
        admin.delete_topics([topic])
        admin.close()
    assert f"group:{eager}" in at(report, "KC117"), report["findings"]
    eager_finding = next(f for f in report["findings"] if f["rule"] == "KC117" and eager in f["path"])
    assert "range" in eager_finding["message"]
    assert f"group:{behind}" in at(report, "KC119")
    behind_finding = next(f for f in report["findings"] if f["rule"] == "KC119" and behind in f["path"])
    assert "40 records deleted unread" in behind_finding["message"]


def test_a_read_cut_short_by_its_timeout_is_partial_and_says_what_was_left(kafka_cluster: KafkaTestCluster) -> None:
    code, report = audit(kafka_cluster.bootstrap_servers, "--timeout", "0.01")
    assert code == 2
    partial = [e["message"] for e in report["errors"] if e["kind"] == "live"]
    assert any("--timeout 0.01 s reached" in message and "not read" in message for message in partial), partial


def test_a_progress_bar_shows_on_a_terminal_and_never_in_a_pipe(kafka_cluster: KafkaTestCluster) -> None:
    import pexpect

    command = [sys.executable, "-m", "advisor", "audit", "--bootstrap-server", kafka_cluster.bootstrap_servers,
               "--output-format", "json"]  # fmt: skip
    terminal = pexpect.spawn(command[0], command[1:], cwd=str(REPO), env={"TERM": "xterm", "PATH": "/usr/bin:/bin",
                             "COLUMNS": "100"}, encoding="utf-8", timeout=120)  # fmt: skip
    terminal.expect(pexpect.EOF)
    steps = r"reading (the cluster|brokers' configuration|topics|offsets|consumer groups|reassignments)"
    assert re.search(steps, terminal.before or ""), terminal.before
    piped = subprocess.run(command, capture_output=True, text=True, cwd=REPO, timeout=120)
    assert "reading" not in piped.stderr and "\x1b[" not in piped.stderr + piped.stdout
    json.loads(piped.stdout)


def test_drift_between_the_files_and_the_running_cluster_names_both_places(
    kafka_cluster: KafkaTestCluster, tmp_path: Path
) -> None:
    """A dynamic update of one broker against the file that sets the key, a key set at runtime no
    file holds, and a topic changed by kafka-configs against its KafkaTopic: each found, the file's
    line first, the running place beside it; undone after."""
    from confluent_kafka.admin import AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType

    bootstrap = kafka_cluster.bootstrap_servers
    admin, topic = _admin_with_topic(bootstrap, "live-drift", num_partitions=2, replication_factor=3)
    confluent = AdminClient({"bootstrap.servers": bootstrap})

    def alter(kind: ResourceType, name: str, key: str, value: str | None) -> None:
        operation = AlterConfigOpType.SET if value is not None else AlterConfigOpType.DELETE
        entry = ConfigEntry(key, value, incremental_operation=operation)
        resource = ConfigResource(kind, name, incremental_configs=[entry])
        confluent.incremental_alter_configs([resource])[resource].result(30)

    (tmp_path / "server.properties").write_text("process.roles=broker,controller\nlog.retention.ms=604800000\n")
    (tmp_path / "topic.yaml").write_text(
        "apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaTopic\nmetadata:\n  name: " + topic + "\n  labels:\n"
        "    strimzi.io/cluster: test\nspec:\n  partitions: 2\n  replicas: 3\n  config:\n    retention.ms: 86400000\n"
    )
    changes = [(ResourceType.BROKER, "3", "log.retention.ms", "259200000"),
               (ResourceType.BROKER, "2", "log.cleaner.backoff.ms", "30000"),
               (ResourceType.TOPIC, topic, "retention.ms", "3600000")]  # fmt: skip
    try:
        for kind, name, key, value in changes:
            alter(kind, name, key, value)
        _, report = audit(bootstrap, str(tmp_path / "server.properties"), str(tmp_path / "topic.yaml"))
    finally:
        for kind, name, key, _ in changes[:2]:
            alter(kind, name, key, None)
        admin.delete_topics([topic])
        admin.close()
    retention = next(f for f in report["findings"] if f["rule"] == "KX114" and "log.retention.ms" in f["message"])
    assert retention["path"].endswith("server.properties") and retention["line"] == 2
    assert [loc["path"].rsplit("/", 1)[-1] for loc in retention["locations"][1:]] == ["broker:3"]
    assert retention["locations"][1]["source"] == "DYNAMIC_BROKER_CONFIG"
    runtime = next(f for f in report["findings"] if f["rule"] == "KX115" and "log.cleaner.backoff.ms" in f["message"])
    assert runtime["path"].endswith("/broker:2") and runtime["locations"][1]["path"].endswith("server.properties")
    changed = next(f for f in report["findings"] if f["rule"] == "KX116" and topic in f["message"])
    assert "retention.ms=3600000" in changed["message"] and changed["path"].endswith("topic.yaml")


def test_acls_quotas_and_scram_users_are_read_and_judged(kafka_cluster: KafkaTestCluster, tmp_path: Path) -> None:
    """Real bindings, a real default quota and a real SCRAM user, read back: User:* allowed to write
    a topic is found where it is; two principals without a quota are, until a default user quota
    is set (by the real kafka-configs); the SCRAM user is kept by name and mechanism only."""
    from confluent_kafka.admin import (
        AclBinding,
        AclBindingFilter,
        AclOperation,
        AclPermissionType,
        ResourcePatternType,
        ResourceType,
        ScramCredentialInfo,
        ScramMechanism,
        UserScramCredentialDeletion,
        UserScramCredentialUpsertion,
    )

    bootstrap = kafka_cluster.bootstrap_servers
    confluent = AdminClient({"bootstrap.servers": bootstrap})
    topic, suffix = f"live-wild-{uuid.uuid4().hex[:8]}", uuid.uuid4().hex[:6]
    users = [f"tenant-a-{suffix}", f"tenant-b-{suffix}"]
    bindings = [AclBinding(ResourceType.TOPIC, topic, ResourcePatternType.LITERAL, "User:*", "*", AclOperation.WRITE,
                           AclPermissionType.ALLOW)] + [
        AclBinding(ResourceType.TOPIC, topic, ResourcePatternType.LITERAL, f"User:{user}", "*", AclOperation.READ,
                   AclPermissionType.ALLOW) for user in users]  # fmt: skip
    scram_user = f"scram-{suffix}"
    classpath = fetch_kafka.classpath(fetch_kafka.kafka_libs("4.4.0"))

    configs = ["java", "-cp", classpath, "org.apache.kafka.tools.ConfigCommand", "--bootstrap-server", bootstrap]

    def default_quota(*arguments: str) -> None:
        command = [*configs, "--alter", "--entity-type", "users", "--entity-default", *arguments]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr

    # Other tests throttle clients of their own and leave the quotas: this one needs a cluster with none.
    for kind in ("clients", "users"):
        described = subprocess.run([*configs, "--describe", "--entity-type", kind], capture_output=True, text=True,
                                   timeout=120).stdout  # fmt: skip
        for name, values in re.findall(r"for (?:client-id|user-principal) '([^']+)' are (.+)", described):
            keys = ",".join(pair.split("=")[0] for pair in values.split(", "))
            subprocess.run([*configs, "--alter", "--entity-type", kind, "--entity-name", name, "--delete-config", keys],
                           capture_output=True, text=True, timeout=120, check=True)  # fmt: skip
    for future in confluent.create_acls(bindings).values():
        future.result(30)
    upsert = UserScramCredentialUpsertion(scram_user, ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192),
                                          b"not-a-real-secret-01")  # fmt: skip
    for future in confluent.alter_user_scram_credentials([upsert]).values():
        future.result(30)
    try:
        _, without = audit(bootstrap, "--save-snapshot", str(tmp_path / "without.json"))
        default_quota("--add-config", "producer_byte_rate=1048576000")
        _, with_quota = audit(bootstrap, "--save-snapshot", str(tmp_path / "with.json"))
    finally:
        default_quota("--delete-config", "producer_byte_rate")
        filters = [AclBindingFilter(b.restype, b.name, b.resource_pattern_type, b.principal, b.host, b.operation,
                                    b.permission_type) for b in bindings]  # fmt: skip
        for future in confluent.delete_acls(filters).values():
            future.result(30)
        deletion = UserScramCredentialDeletion(scram_user, ScramMechanism.SCRAM_SHA_512)
        for future in confluent.alter_user_scram_credentials([deletion]).values():
            future.result(30)
    assert f"acl:topic:{topic}" in at(without, "KO115")
    saved = json.loads((tmp_path / "without.json").read_text())
    assert saved["scram_users"][scram_user] == ["SCRAM_SHA_512"]
    assert "not-a-real-secret" not in (tmp_path / "without.json").read_text()
    assert saved["quotas"] == []  # the leftovers were removed above
    assert "cluster" in at(without, "KO116")
    assert {"user": None} in [q["entity"] for q in json.loads((tmp_path / "with.json").read_text())["quotas"]]
    assert not at(with_quota, "KO116") and "KO116" in with_quota["rules"]


def test_a_group_falling_behind_between_two_reads_is_found(kafka_cluster: KafkaTestCluster, tmp_path: Path) -> None:
    """A producer writes all along an audit with --lag-interval; a group that committed once and
    consumes nothing falls further behind, and is found; the read never joins it."""
    import threading

    bootstrap = kafka_cluster.bootstrap_servers
    admin, topic = _admin_with_topic(bootstrap, "live-lag", num_partitions=1, replication_factor=3)
    group = f"idle-{topic}"
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
    producer.produce(topic, b"first")
    producer.flush(30)
    commit_offset(bootstrap, group, topic, 0, 1)
    stop = threading.Event()

    def write() -> None:
        while not stop.is_set():
            for _ in range(50):
                producer.produce(topic, b"x" * 100)
            producer.poll(0)
            time.sleep(0.02)
        producer.flush(30)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        (tmp_path / ".kafka-advisor.toml").write_text("[params.KC120]\ngrowth = 100\n")
        _, report = audit(bootstrap, "--lag-interval", "3", cwd=tmp_path)
    finally:
        stop.set()
        writer.join(60)
        admin.delete_topics([topic])
        admin.close()
    assert f"group:{group}" in at(report, "KC120"), report["findings"]
    growing = next(f for f in report["findings"] if f["rule"] == "KC120" and group in f["path"])
    assert "(Empty)" in growing["message"] and "committed 0" in growing["message"]


def test_a_plan_is_judged_against_the_running_cluster_by_lint(kafka_cluster: KafkaTestCluster, tmp_path: Path) -> None:
    """lint --bootstrap-server: a plan naming a broker the cluster lacks, one dropping a replica, and
    the bytes a move copies (the partitions' sizes on disk, from the brokers) with its time at the
    script's throttle; the cluster itself is context, not judged."""
    bootstrap = kafka_cluster.bootstrap_servers
    admin, topic = _admin_with_topic(bootstrap, "live-plan", num_partitions=-1, replication_factor=-1,
                                     replica_assignments={0: [1, 2], 1: [2, 3]})  # fmt: skip
    producer = Producer({"bootstrap.servers": bootstrap})
    for _ in range(2000):
        producer.produce(topic, b"p" * 1000, partition=0)
    producer.flush(30)
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"version": 1, "partitions": [
        {"topic": topic, "partition": 0, "replicas": [1, 3]},
        {"topic": topic, "partition": 1, "replicas": [9]}]}, indent=1))  # fmt: skip
    (tmp_path / "move.sh").write_text(f"kafka-reassign-partitions.sh --bootstrap-server {bootstrap} "
                                      "--reassignment-json-file plan.json --execute --throttle 1000000\n")  # fmt: skip
    try:
        result = subprocess.run([sys.executable, "-m", "advisor", "lint", str(plan), str(tmp_path / "move.sh"),
                                 "--bootstrap-server", bootstrap, "--output-format", "json"],
                                capture_output=True, text=True, cwd=REPO, timeout=180)  # fmt: skip
    finally:
        admin.delete_topics([topic])
        admin.close()
    report = json.loads(result.stdout)
    rules = {f["rule"] for f in report["findings"]}
    assert {"KO117", "KO118", "KO119"} <= rules, report["findings"]
    unknown = next(f for f in report["findings"] if f["rule"] == "KO117")
    assert "no broker 9" in unknown["message"] and unknown["path"].endswith("plan.json")
    copies = next(f for f in report["findings"] if f["rule"] == "KO119")["message"]
    assert re.search(r"copies 2\.\d MB \(broker 3 2\.\d MB\); about \d+ s at the script's --throttle 1\.0 MB/s", copies)
    # The cluster is context: none of its own findings (a live broker's defaults) are reported.
    assert not [f for f in report["findings"] if f["path"].startswith("live://") and f["rule"][:2] in ("KB", "KT")]


def test_a_broker_stopped_mid_audit_makes_it_partial_and_says_which_request(
    kafka_cluster: KafkaTestCluster,
) -> None:
    """The audit reads the offsets twice (--lag-interval); broker 3 is stopped between the reads.
    The second read of a partition only broker 3 holds fails: the audit still ends, with that
    request and partition named, marked partial, exit 2."""
    bootstrap = kafka_cluster.bootstrap_without(3)
    admin, topic = _admin_with_topic(bootstrap, "live-midway", num_partitions=-1, replication_factor=-1,
                                     replica_assignments={0: [3]})  # fmt: skip
    admin.close()  # its metadata would lose broker 3: the topic is deleted by a client made after
    wait_until(lambda: topic in AdminClient({"bootstrap.servers": bootstrap}).list_topics(timeout=10).topics, 30,
               "the topic")  # fmt: skip
    command = [sys.executable, "-m", "advisor", "audit", "--bootstrap-server", bootstrap, "--lag-interval", "20",
               "--output-format", "json", "--timeout", "30"]  # fmt: skip
    started = time.monotonic()
    running = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)
    try:
        time.sleep(3)  # the first read is done in about a second; stopping broker 3 takes several more
        with kafka_cluster.node_stopped(3):
            out, _ = running.communicate(timeout=120)
            took = time.monotonic() - started
    finally:
        running.kill()  # a no-op once it ended
        # Left behind, a partition only broker 3 holds would go offline in every later test stopping it.
        cleanup = AdminClient({"bootstrap.servers": kafka_cluster.bootstrap_servers})
        cleanup.delete_topics([topic])[topic].result(60)
    assert took < 20 + 30 + 5, took  # bounded: the interval, then --timeout at most
    assert running.returncode == 2
    report = json.loads(out)
    partial = [e["message"] for e in report["errors"] if e["kind"] == "live"]
    # every partition broker 3 led fails alike: one line, the first five named, the rest counted
    assert any("ListOffsets (end, again):" in m and "no offset came back" in m for m in partial), partial
    assert report["findings"], "what was read is still judged"
