"""Strimzi resources kept one per file belong to the cluster they name when they share a
directory; the same cluster name in another directory (another environment) is another cluster."""

from __future__ import annotations

from pathlib import Path

from advisor.report.session import lint
from advisor.sources import discover

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


POOL = """apiVersion: kafka.strimzi.io/v1beta2
kind: KafkaNodePool
metadata:
  name: {name}
  labels:
    strimzi.io/cluster: events
spec:
  replicas: {replicas}
  roles: [{role}]
"""


def test_node_pools_in_files_of_their_own_count_the_brokers(tmp_path: Path) -> None:
    pooled = KAFKA.replace("    replicas: 3\n", "")  # with node pools, the Kafka resource states no count
    (tmp_path / "kafka.yaml").write_text(pooled)
    (tmp_path / "clicks.yaml").write_text(TOPIC)  # asks for 4 replicas
    files = [tmp_path / "kafka.yaml", tmp_path / "clicks.yaml"]
    assert kt102(files) == []  # no broker count known: nothing is claimed

    (tmp_path / "controllers.yaml").write_text(POOL.format(name="controllers", replicas=3, role="controller"))
    (tmp_path / "brokers-a.yaml").write_text(POOL.format(name="brokers-a", replicas=2, role="broker"))
    files += [tmp_path / "controllers.yaml", tmp_path / "brokers-a.yaml"]
    assert kt102(files) == [str(tmp_path / "clicks.yaml")]  # 2 brokers (controllers do not count)

    (tmp_path / "brokers-b.yaml").write_text(POOL.format(name="brokers-b", replicas=2, role="broker"))
    assert kt102([*files, tmp_path / "brokers-b.yaml"]) == []  # 4 brokers hold 4 replicas


def test_topics_in_a_subfolder_join_their_clusters_folder_and_not_another_environment(tmp_path: Path) -> None:
    """GitOps layouts keep topics/ below the cluster's folder; dev/ and prod/ stay apart."""
    for env, replicas in (("dev", 1), ("prod", 3)):
        (tmp_path / env / "topics").mkdir(parents=True)
        (tmp_path / env / "kafka.yaml").write_text(
            "apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata:\n  name: main\n  namespace: kafka\n"
            f"spec:\n  kafka:\n    replicas: {replicas}\n    listeners: []\n"
        )
        (tmp_path / env / "topics" / "orders.yaml").write_text(
            "apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaTopic\nmetadata:\n  name: orders\n  namespace: kafka\n"
            "  labels:\n    strimzi.io/cluster: main\nspec:\n  partitions: 3\n  replicas: 2\n"
        )
    findings = lint(discover([tmp_path])[0]).findings
    short = [f for f in findings if f.rule == "KT105"]  # 2 replicas on 3 brokers: prod only
    assert [Path(f.path).relative_to(tmp_path).as_posix() for f in short] == ["prod/topics/orders.yaml"]
