"""Strimzi resources kept one per file belong to the cluster they name when they share a
directory; the same cluster name in another directory (another environment) is another cluster."""

from __future__ import annotations

from pathlib import Path

from advisor.pipeline import lint

KAFKA = """apiVersion: kafka.strimzi.io/v1beta2
kind: Kafka
metadata:
  name: events
spec:
  kafka:
    replicas: 3
    config:
      default.replication.factor: 3
"""
TOPIC = """apiVersion: kafka.strimzi.io/v1beta2
kind: KafkaTopic
metadata:
  name: clicks
  labels:
    strimzi.io/cluster: events
spec:
  partitions: 6
  replicas: 4
"""


def kt102(files: list[Path]) -> list[str]:
    return [f.path for f in lint(files).findings if f.rule == "KT102"]


def test_a_topic_in_its_own_file_joins_the_cluster_of_its_directory(tmp_path: Path) -> None:
    (tmp_path / "kafka.yaml").write_text(KAFKA)
    (tmp_path / "clicks.yaml").write_text(TOPIC)
    assert kt102([tmp_path / "kafka.yaml", tmp_path / "clicks.yaml"]) == [str(tmp_path / "clicks.yaml")]


def test_the_same_cluster_name_in_another_directory_is_another_cluster(tmp_path: Path) -> None:
    for environment in ("staging", "prod"):
        (tmp_path / environment).mkdir()
    (tmp_path / "prod" / "kafka.yaml").write_text(KAFKA)
    (tmp_path / "staging" / "clicks.yaml").write_text(TOPIC)
    assert kt102([tmp_path / "prod" / "kafka.yaml", tmp_path / "staging" / "clicks.yaml"]) == []
