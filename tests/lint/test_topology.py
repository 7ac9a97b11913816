"""Files are one cluster only on evidence: unrelated files linted in one run never judge each
other; a declared grouping, matching addresses or one file join them; a guess says so."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from advisor.report.session import lint as lint_files

REPO_ROOT = Path(__file__).resolve().parents[2]

TEAM_A_BROKER = """\
services:
  kafka:
    image: apache/kafka:4.4.0
    environment:
      KAFKA_NODE_ID: 1
      KAFKA_PROCESS_ROLES: broker,controller
      KAFKA_CONTROLLER_QUORUM_VOTERS: 1@kafka:9093
      KAFKA_ADVERTISED_LISTENERS: SASL_SSL://{host}:9092
      KAFKA_COMPRESSION_TYPE: zstd
      KAFKA_MESSAGE_MAX_BYTES: 100000
"""
TEAM_B_PRODUCER = """\
bootstrap.servers={host}:9092
compression.type=gzip
max.request.size=2097152
"""
CROSS = {"KP120", "KX109"}  # the producer judged against a broker's codec and message limit


def lint(*args: str, cwd: Path = REPO_ROOT) -> dict:
    result = subprocess.run(
        [sys.executable, "-m", "advisor", "lint", *args, "--output-format", "json"],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )
    assert result.returncode in (0, 1), result.stderr
    return json.loads(result.stdout)


def _teams(tmp_path: Path, broker_host: str, producer_host: str, producer_dir: str = "teamB") -> Path:
    (tmp_path / "teamA").mkdir(parents=True, exist_ok=True)
    (tmp_path / producer_dir).mkdir(parents=True, exist_ok=True)
    (tmp_path / "teamA" / "docker-compose.yml").write_text(TEAM_A_BROKER.format(host=broker_host))
    producer = tmp_path / producer_dir / "ingest.producer.properties"
    producer.write_text(TEAM_B_PRODUCER.format(host=producer_host))
    return producer


def _rules(report: dict) -> set[str]:
    return {f["rule"] for f in report["findings"]}


def _guesses(finding: dict) -> list[str]:
    """What a finding says of how its cluster was joined (not of its Kafka release)."""
    return [a for a in finding["assumptions"] if a.startswith("grouped by a guess")]


def test_unrelated_teams_linted_together_do_not_judge_each_other(tmp_path: Path) -> None:
    _teams(tmp_path, "kafka-a.internal", "kafka-b.internal")
    together = lint("teamA/", "teamB/", cwd=tmp_path)
    assert _rules(together) & CROSS == set()
    alone = lint("teamB/", cwd=tmp_path)
    assert {(f["rule"], f["line"]) for f in alone["findings"]} == {
        (f["rule"], f["line"]) for f in together["findings"] if f["path"].startswith("teamB")
    }


def test_a_declared_cluster_brings_the_cross_file_findings_back(tmp_path: Path) -> None:
    _teams(tmp_path, "kafka-a.internal", "kafka-b.internal")
    (tmp_path / ".kafka-advisor.toml").write_text('[clusters.shared]\npaths = ["teamA/*", "teamB/*"]\n')
    report = lint("teamA/", "teamB/", cwd=tmp_path)
    assert _rules(report) >= CROSS
    for finding in report["findings"]:
        assert _guesses(finding) == []  # declared: no guess


def test_matching_addresses_join_without_a_declaration(tmp_path: Path) -> None:
    _teams(tmp_path, "kafka-a.internal", "KAFKA-A.internal")  # host names do not care for case
    report = lint("teamA/", "teamB/", cwd=tmp_path)
    assert _rules(report) >= CROSS
    assert all(_guesses(f) == [] for f in report["findings"])


def test_loopback_joins_only_nearby_files_and_then_as_a_guess(tmp_path: Path) -> None:
    _teams(tmp_path, "localhost", "localhost")  # sibling folders: every laptop has localhost:9092
    assert _rules(lint("teamA/", "teamB/", cwd=tmp_path)) & CROSS == set()
    _teams(tmp_path / "nested", "localhost", "localhost", producer_dir="teamA/app")  # an app below the compose
    report = lint("nested/", cwd=tmp_path)
    cross = [f for f in report["findings"] if f["rule"] in CROSS]
    assert {f["rule"] for f in cross} == CROSS
    for finding in cross:
        (assumption,) = _guesses(finding)
        assert "localhost:9092" in assumption


def test_clusters_in_the_document(tmp_path: Path) -> None:
    producer = _teams(tmp_path, "kafka-a.internal", "kafka-a.internal")
    other = tmp_path / "teamC.consumer.properties"
    other.write_text("bootstrap.servers=kafka-c.internal:9092\ngroup.id=audit\n")
    document = lint_files([tmp_path / "teamA" / "docker-compose.yml", producer, other]).document
    (joined,) = [c for c in document.clusters.values() if len(c.members) == 2]
    assert [m.component for m in joined.members] == ["broker", "producer"]
    (alone,) = [c for c in document.clusters.values() if c.consumer_groups()]
    assert list(alone.consumer_groups()) == ["audit"] and len(alone.members) == 1


STRIMZI = """\
apiVersion: kafka.strimzi.io/v1beta2
kind: Kafka
metadata:
  name: events
  namespace: {namespace}
spec:
  kafka:
    version: 4.1.0
    replicas: 3
    listeners:
      - name: tls
        port: 9093
        type: internal
        tls: true
    config:
      compression.type: zstd
      message.max.bytes: 100000
"""


def test_a_client_naming_a_strimzi_bootstrap_service_joins_that_cluster(tmp_path: Path) -> None:
    (tmp_path / "deploy").mkdir()
    (tmp_path / "deploy" / "kafka.yaml").write_text(STRIMZI.format(namespace="streaming"))
    (tmp_path / "apps").mkdir()
    producer = tmp_path / "apps" / "ingest.producer.properties"
    for host, joined in [
        ("events-kafka-bootstrap.streaming.svc.cluster.local", True),
        ("events-kafka-bootstrap.streaming.svc", True),
        ("events-kafka-bootstrap.other.svc", False),  # the same name in another namespace
        ("events-kafka-bootstrap", False),  # a short name, not near the resource's folder
    ]:
        producer.write_text(TEAM_B_PRODUCER.replace("{host}:9092", f"{host}:9093"))
        assert bool(_rules(lint("deploy/", "apps/", cwd=tmp_path)) & CROSS) == joined, host


def test_compose_brokers_are_known_by_what_they_set_not_by_their_image(tmp_path: Path) -> None:
    from advisor.sources import compose

    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "rules" / "compose" / "by-content.docker-compose.yml"
    brokers = lint_files([fixture]).document.config_sets
    assert [b.name for b in brokers] == ["ledger-1", "ledger-2", "ledger-3"]  # not the init container
    assert {b.facts["broker_count"] for b in brokers} == {3}
    tools = tmp_path / "docker-compose.yml"
    tools.write_text("services:\n  topics:\n    image: apache/kafka:3.9.0\n    command: kafka-topics.sh --list\n")
    assert compose.sniff(tools, tools.read_text()) is None  # a tool alone is no Kafka configuration


def test_an_env_file_of_compose_variables_configures_no_broker(tmp_path: Path) -> None:
    from advisor.sources import compose

    variables = tmp_path / ".env"
    variables.write_text("KAFKA_IMAGE_TAG=3.9.0\nKAFKA_PORT=9092\nCOMPOSE_PROJECT_NAME=orders\n")
    assert compose.sniff(variables, variables.read_text()) is None
    broker = tmp_path / "broker.env"
    broker.write_text("export KAFKA_NODE_ID=1\nKAFKA_PROCESS_ROLES=broker,controller\n")
    assert compose.sniff(broker, broker.read_text()) == ("env", None)


def _compose_clusters(tmp_path: Path, services: dict[str, dict[str, str]]) -> dict[str, tuple[str | None, int]]:
    """service → (cluster id, broker count) of a compose file with these services' variables."""
    lines = ["services:"]
    for name, variables in services.items():
        lines += [f"  {name}:", "    image: apache/kafka:4.4.0", "    environment:"]
        lines += [f"      {variable}: '{value}'" for variable, value in variables.items()]
    (tmp_path / "compose.yaml").write_text("\n".join(lines) + "\n")
    result = lint_files([tmp_path / "compose.yaml"])
    return {s.name: (s.cluster, s.facts["broker_count"]) for s in result.document.config_sets}


def _combined(node: int, voters: str) -> dict[str, str]:
    listeners = "PLAINTEXT://:9092,CONTROLLER://:9093"
    return {"KAFKA_NODE_ID": str(node), "KAFKA_PROCESS_ROLES": "broker,controller",
            "KAFKA_CONTROLLER_QUORUM_VOTERS": voters, "KAFKA_LISTENERS": listeners}  # fmt: skip


def test_one_compose_file_with_two_quorums_runs_two_clusters(tmp_path: Path) -> None:
    two = {"source": _combined(1, "1@source:9093"), "target": _combined(1, "1@target:9093")}
    found = _compose_clusters(tmp_path, two)
    assert found["source"][1] == found["target"][1] == 1
    assert found["source"][0] != found["target"][0]


def test_overlapping_quorums_and_one_ensemble_stay_one_cluster(tmp_path: Path) -> None:
    voters = "1@k1:9093,2@k2:9093,3@k3:9093"
    three = {f"k{n}": _combined(n, voters) for n in (1, 2)}
    three["k3"] = {**_combined(3, ""), "KAFKA_CONTROLLER_QUORUM_BOOTSTRAP_SERVERS": "k3:9093,k1:9093"}
    del three["k3"]["KAFKA_CONTROLLER_QUORUM_VOTERS"]
    found = _compose_clusters(tmp_path, three)
    assert len({cluster for cluster, _ in found.values()}) == 1 and {n for _, n in found.values()} == {3}


def test_two_chroots_on_one_zookeeper_are_two_clusters(tmp_path: Path) -> None:
    def zk(node: int, connect: str) -> dict[str, str]:
        return {"KAFKA_BROKER_ID": str(node), "KAFKA_ZOOKEEPER_CONNECT": connect}

    found = _compose_clusters(tmp_path, {"a1": zk(1, "zk:2181/a"), "a2": zk(2, "zk:2181/a"), "b1": zk(1, "zk:2181/b")})
    assert found["a1"][0] == found["a2"][0] != found["b1"][0]
    assert (found["a1"][1], found["b1"][1]) == (2, 1)
