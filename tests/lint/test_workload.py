"""Kubernetes workloads that run a broker: env, --override options, replicas as the broker count."""

from __future__ import annotations

from pathlib import Path

from advisor.report.session import lint

STATEFULSET = """\
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: kafka
spec:
  replicas: {replicas}
  template:
    spec:
      containers:
        - name: kafka
          image: confluentinc/cp-kafka:7.6.1
          env:
            - name: KAFKA_NODE_ID
              valueFrom:
                fieldRef:
                  fieldPath: metadata.annotations['node-id']
            - name: KAFKA_PROCESS_ROLES
              value: broker,controller
            - name: KAFKA_ADVERTISED_LISTENERS
              value: SASL_SSL://kafka-0.kafka-headless.data.svc.cluster.local:9094
            - name: KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR
              value: "1"
          resources:
            limits:
              memory: 4Gi
"""


def _findings(tmp_path: Path, text: str, name: str = "kafka.yaml") -> list:  # type: ignore[type-arg]
    manifest = tmp_path / name
    manifest.write_text(text)
    result = lint([manifest])
    assert not result.problems, result.problems
    return result.findings


def test_replicas_are_the_broker_count(tmp_path: Path) -> None:
    many = {f.rule for f in _findings(tmp_path, STATEFULSET.format(replicas=3))}
    one = {f.rule for f in _findings(tmp_path, STATEFULSET.format(replicas=1), "one.yaml")}
    assert "KB134" in many  # offsets topic at RF 1 on three brokers
    assert "KB134" not in one


def test_a_value_from_the_cluster_is_not_judged_and_the_workload_is_named(tmp_path: Path) -> None:
    manifest = tmp_path / "kafka.yaml"
    manifest.write_text(STATEFULSET.format(replicas=3))
    result = lint([manifest])
    (config_set,) = result.document.config_sets
    assert config_set.name == "StatefulSet/kafka/kafka"
    assert config_set.settings["node.id"].value.startswith("${")
    assert config_set.facts["memory_limit"] == {"value": "4Gi", "line": 25}
    assert config_set.kafka_version == "3.6"


def test_override_options_in_list_form_are_settings_at_their_line(tmp_path: Path) -> None:
    text = """\
apiVersion: v1
kind: Pod
metadata:
  name: broker-0
spec:
  containers:
    - name: broker
      image: apache/kafka:3.9.1
      command: ["/opt/kafka/bin/kafka-server-start.sh", "/opt/kafka/config/server.properties"]
      args:
        - --override
        - unclean.leader.election.enable=true
        - "--override"
        - "num.partitions=4"
"""
    (finding,) = [f for f in _findings(tmp_path, text) if f.rule == "KB103"]
    assert finding.locations[0].line == 12


def test_connect_and_tool_containers_are_not_brokers(tmp_path: Path) -> None:
    text = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: connect
spec:
  template:
    spec:
      containers:
        - name: connect
          image: confluentinc/cp-kafka-connect:7.6.1
          env:
            - name: KAFKA_HEAP_OPTS
              value: "-Xmx2g"
---
apiVersion: batch/v1
kind: Job
metadata:
  name: topics
spec:
  template:
    spec:
      containers:
        - name: create
          image: apache/kafka:3.9.1
          command: ["/opt/kafka/bin/kafka-topics.sh", "--create", "--topic", "orders"]
"""
    manifest = tmp_path / "tools.yaml"
    manifest.write_text(text)
    assert lint([manifest]).document.config_sets == []


def test_memory_quantities_are_read_as_kubernetes_writes_them() -> None:
    from advisor.rules.checks.jvm import memory_quantity

    assert memory_quantity("4Gi") == 4 * 2**30
    assert memory_quantity("4096M") == 4096 * 10**6
    assert memory_quantity("1.5Gi") == int(1.5 * 2**30)
    assert memory_quantity("129e6") == 129 * 10**6
    assert memory_quantity("2147483648") == 2**31
    assert memory_quantity("{{ .Values.memory }}") is None and memory_quantity("4 GB") is None
