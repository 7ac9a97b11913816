"""The permissions docs/audit.md gives are all an audit needs: the documented kafka-acls commands,
run by the real tool, let a SASL principal on the test bed's SASL listener (where the authorizer's
ACLs bite) read every part — brokers' configuration, topics with their configuration and offsets,
groups with their commits, reassignments, feature levels — with nothing not seen and nothing failed.
A principal with no ACL is told apart: each part it may not describe is said as not seen."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import uuid
from pathlib import Path

import fetch_kafka  # tools/, on the path through tests/conftest.py
import kafka_cluster as kafka_cluster_tool
import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic
from testbed import KafkaTestCluster, commit_offset, wait_for_topic

pytestmark = pytest.mark.kafka

REPO = Path(__file__).resolve().parents[2]
ACLS = "org.apache.kafka.tools.AclCommand"


def documented_acl_commands() -> list[list[str]]:
    """The kafka-acls command lines of docs/audit.md's Permissions section, as written."""
    text = (REPO / "docs" / "audit.md").read_text()
    block = re.search(r"## Permissions.*?```sh\n(.*?)```", text, re.S)
    assert block, "docs/audit.md has no Permissions command block"
    joined = block.group(1).replace("\\\n", " ")
    return [shlex.split(line) for line in joined.splitlines() if line.strip()]


def run_acls(bootstrap: str, arguments: list[str]) -> str:
    classpath = fetch_kafka.classpath(fetch_kafka.kafka_libs("4.4.0"))
    done = subprocess.run(["java", "-cp", classpath, ACLS, "--bootstrap-server", bootstrap, *arguments],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def as_the_super_user(command: list[str]) -> list[str]:
    """A documented command's arguments, without the address and admin file it names as examples
    (the test bed's PLAINTEXT listener is the super user's)."""
    assert command[0] == "kafka-acls.sh"
    arguments, skip = [], False
    for argument in command[1:]:
        if skip:
            skip = False
        elif argument in ("--bootstrap-server", "--command-config"):
            skip = True
        else:
            arguments.append(argument)
    return arguments


def command_config(folder: Path, user: str) -> Path:
    password = kafka_cluster_tool.SASL_USERS[user]
    path = folder / f"{user}.properties"
    path.write_text("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"
                    "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
                    f'username="{user}" password="{password}";\n')  # fmt: skip
    return path


def audit_saved(bootstrap: str, config: Path, folder: Path) -> tuple[subprocess.CompletedProcess[str], dict]:
    saved = folder / f"{config.stem}.snapshot.json"
    command = [sys.executable, "-m", "advisor", "audit", "--bootstrap-server", bootstrap, "--command-config",
               str(config), "--save-snapshot", str(saved), "--output-format", "json", "--timeout", "60"]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, cwd=REPO, timeout=180)
    return result, json.loads(saved.read_text())


def test_the_documented_acls_are_all_an_audit_needs(kafka_cluster: KafkaTestCluster, tmp_path: Path) -> None:
    plain = kafka_cluster.bootstrap_servers
    sasl = ",".join(node.sasl_bootstrap for node in kafka_cluster.state.nodes)
    topic, group = f"acl-audit-{uuid.uuid4().hex[:8]}", f"acl-audit-group-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": plain})
    admin.create_topics([NewTopic(topic, 2, 3, config={"retention.ms": "86400000"})])[topic].result(60)
    commands = [as_the_super_user(command) for command in documented_acl_commands()]
    assert len(commands) == 3
    try:
        wait_for_topic(admin, topic, 2)
        producer = Producer({"bootstrap.servers": plain})
        for number in range(5):
            producer.produce(topic, str(number).encode(), partition=0)
        producer.flush(30)
        commit_offset(plain, group, topic, 0, 3)
        for arguments in commands:
            run_acls(plain, arguments)
        result, snapshot = audit_saved(sasl, command_config(tmp_path, "auditor"), tmp_path)
        assert result.returncode in (0, 1), result.stdout + result.stderr
        assert snapshot["not_seen"] == [] and snapshot["failed"] == []
        assert sorted(snapshot["broker_configs"]) == ["1", "2", "3"]
        read = next(t for t in snapshot["topics"] if t["name"] == topic)
        assert read["configs"]["retention.ms"]["value"] == "86400000"
        assert [p["end_offset"] for p in read["partitions"]] == [5, 0]
        commits = next(g for g in snapshot["groups"] if g["id"] == group)["committed"]
        assert commits == [[topic, 0, 3]]
        assert snapshot["reassignments"] == [] and snapshot["features"]["metadata.version"] > 0

        refused, nothing = audit_saved(sasl, command_config(tmp_path, "outsider"), tmp_path)
        said = " ".join(e["message"] for e in json.loads(refused.stdout)["skipped"])
        assert "DescribeConfigs: broker 1" in said and "ListPartitionReassignments" in said
        assert "may not Describe it" in said
        assert nothing["topics"] == [] and nothing["reassignments"] is None and nothing["failed"] == []
    finally:
        for arguments in commands:
            run_acls(plain, ["--remove", "--force", *arguments[1:]])
        admin.delete_topics([topic])[topic].result(60)


def test_a_wrong_password_is_one_clear_error_and_never_shown(kafka_cluster: KafkaTestCluster, tmp_path: Path) -> None:
    sasl = ",".join(node.sasl_bootstrap for node in kafka_cluster.state.nodes)
    config = tmp_path / "wrong.properties"
    config.write_text("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"
                      "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
                      'username="auditor" password="CANARY-wrong-pw-7";\n')  # fmt: skip
    for output in ("text", "json"):
        result = subprocess.run([sys.executable, "-m", "advisor", "audit", "--bootstrap-server", sasl,
                                 "--command-config", str(config), "--timeout", "15", "--output-format", output],
                                capture_output=True, text=True, cwd=REPO, timeout=120)  # fmt: skip
        assert result.returncode == 2
        said = result.stdout + result.stderr
        assert "CANARY" not in said
        assert re.search(r"DescribeCluster: .*(SASL authentication|Authentication failed)", said, re.I), said
