"""Claims about the Kafka CLI tools, proven by running them (kafka-tools 4.4.0 jars)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from advisor.pipeline import lint

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import fetch_kafka

TOOLS = {
    "kafka-topics": ("org.apache.kafka.tools.TopicCommand", ["--list"]),
    "kafka-configs": ("org.apache.kafka.tools.ConfigCommand", ["--describe", "--entity-type", "topics"]),
    "kafka-reassign-partitions": (
        "org.apache.kafka.tools.reassign.ReassignPartitionsCommand",
        ["--verify", "--reassignment-json-file", "/dev/null"],
    ),
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
