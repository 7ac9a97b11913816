"""Broker value rules against the real KafkaConfig: the constructor the broker runs at
startup (kafka.server.KafkaConfig.fromProps) builds each case, for Kafka 4.4.0, 3.9.1 and
2.8.2, and the linter's verdict must agree. Topic values are checked by the real 4.4
brokers of the test cluster (CreateTopics with validate_only)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from oracles import compile_java, definition_cases, refused_by_definition, run_batch
from testbed import KafkaTestCluster

from advisor.report.session import lint
from advisor.sources import LoadOptions

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tools"))
import fetch_kafka  # noqa: E402

ORACLE = REPO_ROOT / "tests" / "java" / "BrokerConfigOracle.java"
VERSIONS = ("4.4.0", "3.9.1", "2.8.2")
BASE_KEYS = {"process.roles", "node.id", "controller.quorum.voters", "listeners", "controller.listener.names"}


@pytest.fixture(scope="module")
def oracle_classes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_java(ORACLE, tmp_path_factory.mktemp("broker-oracle"))


def build_configs(classes: Path, version: str, cases: list[dict[str, str]]) -> list[dict]:
    """One KafkaConfig per case, all in one JVM."""
    classpath = f"{classes}:{fetch_kafka.classpath(fetch_kafka.kafka_core_libs(version))}"
    return run_batch(classpath, ["BrokerConfigOracle"], cases, timeout=300)


def findings(tmp_path: Path, version: str, settings: dict[str, str], component: str = "broker") -> set[str]:
    config = tmp_path / "server.properties"
    config.write_text("".join(f"{k}={v}\n" for k, v in settings.items()))
    result = lint([config], LoadOptions(component=component), kafka_version=version)
    assert not result.document.errors
    return {f.rule for f in result.findings}


@pytest.mark.parametrize("version", VERSIONS)
def test_broker_value_rule_matches_kafka_config(oracle_classes: Path, tmp_path: Path, version: str) -> None:
    cases = definition_cases("broker", version, skip=BASE_KEYS)
    assert len(cases) > 100, "the catalog should define ranges and choices for many broker keys"
    outcomes = build_configs(oracle_classes, version, [{key: value} for key, value, _ in cases])
    disagreements = []
    for (key, value, refused), outcome in zip(cases, outcomes, strict=True):
        definition_refused = refused_by_definition(key, outcome)
        fired = "KB110" in findings(tmp_path, version, {key: value})
        if definition_refused != refused or fired != refused:
            disagreements.append((key, value, outcome, fired))
    assert not disagreements, disagreements[:10]


REQUIREMENT_CASES = [
    # (settings, fragment of KafkaConfig's refusal or None, the rules that must fire)
    (
        {"replica.lag.time.max.ms": "5000", "replica.fetch.wait.max.ms": "8000"},
        "prevent frequent changes in ISR",
        {"KB111", "KB114"},
    ),
    ({"replica.fetch.wait.max.ms": "30000"}, None, set()),
    ({"replica.socket.timeout.ms": "200"}, "prevent unnecessary socket timeouts", {"KB112"}),
    (
        {"replica.fetch.wait.max.ms": "40000", "replica.socket.timeout.ms": "60000"},
        "prevent frequent changes in ISR",
        {"KB111"},
    ),
    ({"queued.max.request.bytes": "52428800"}, "must be larger or equal to socket.request.max.bytes", {"KB113"}),
    ({"queued.max.request.bytes": "104857600"}, None, set()),
    ({"queued.max.request.bytes": "0"}, None, set()),
    ({"replica.lag.time.max.ms": "2000"}, None, {"KB114"}),
]


@pytest.mark.parametrize("version", VERSIONS)
def test_startup_requirements_match_kafka_config(oracle_classes: Path, tmp_path: Path, version: str) -> None:
    outcomes = build_configs(oracle_classes, version, [settings for settings, _, _ in REQUIREMENT_CASES])
    for (settings, refusal, rules), outcome in zip(REQUIREMENT_CASES, outcomes, strict=True):
        if refusal is None:
            assert outcome["ok"], (settings, outcome)
        else:
            assert not outcome["ok"] and refusal in outcome["message"], (settings, outcome)
        assert findings(tmp_path, version, settings) & {"KB111", "KB112", "KB113", "KB114"} == rules, settings


def test_zookeeper_keys_are_ignored_not_refused_by_4x(oracle_classes: Path) -> None:
    """Settles a question kafka-facts.md left open: a 4.x broker starts with zookeeper.connect
    (it is ignored), so KB100 calls it removed, not refused."""
    outcome = build_configs(oracle_classes, "4.4.0", [{"zookeeper.connect": "zk-1:2181"}])[0]
    assert outcome["ok"], outcome


ZOOKEEPER_MODE = {
    "!process.roles": "",
    "!node.id": "",
    "!controller.quorum.voters": "",
    "!controller.listener.names": "",
    "listeners": "PLAINTEXT://127.0.0.1:0",
    "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT",
    "broker.id": "1",
    "zookeeper.connect": "zk-1:2181",
}


def test_zookeeper_mode_is_refused_by_4x_and_read_by_3x(oracle_classes: Path, tmp_path: Path) -> None:
    """KB135: a ZooKeeper-mode broker config (no process.roles) is what 3.9 runs and what 4.x
    refuses; the linter calls it an upgrade note on the release it runs, and KB100 names the
    removed keys when told the release is 4.x."""
    refused = build_configs(oracle_classes, "4.4.0", [ZOOKEEPER_MODE])[0]
    assert not refused["ok"] and "process.roles" in refused["message"], refused
    accepted = build_configs(oracle_classes, "3.9.1", [ZOOKEEPER_MODE])[0]
    assert accepted["ok"], accepted
    written = {k: v for k, v in ZOOKEEPER_MODE.items() if not k.startswith("!")}
    assert "KB135" in findings(tmp_path, "3.9", written)
    assert {"KB100"} <= findings(tmp_path, "4.4", written) and "KB135" not in findings(tmp_path, "4.4", written)


def test_an_override_for_an_unknown_listener_is_accepted_and_does_nothing(oracle_classes: Path, tmp_path: Path) -> None:
    """KB133: KafkaConfig takes listener.name.<X>.* for a listener X it does not define without
    a word (the override is never read)."""
    settings = {"listener.name.external.ssl.keystore.location": "/nonexistent/external.jks"}
    for version in VERSIONS:
        assert build_configs(oracle_classes, version, [settings])[0]["ok"], version
    written = {
        "listeners": "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093",
        "controller.listener.names": "CONTROLLER",
        **settings,
    }
    assert "KB133" in findings(tmp_path, "4.4", written)


TOPIC_CASES = [
    ({"segment.bytes": "524288"}, True),
    ({"segment.bytes": "1048576"}, False),
    ({"retention.ms": "7d"}, True),
    ({"min.insync.replicas": "0"}, True),
    ({"compression.type": "zstandard"}, True),
    ({"compression.type": "zstd"}, False),
    ({"unclean.leader.election.enable": "yes"}, True),
    ({"max.message.bytes": "2097152"}, False),
    ({"cleanup.policy": "compacted"}, True),
    ({"cleanup.policy": "compact,deleted"}, True),
    ({"cleanup.policy": "compact,delete"}, False),
    ({"cleanup.policy": "delete"}, False),
]


@pytest.mark.kafka
def test_topic_value_rule_matches_the_brokers(kafka_cluster: KafkaTestCluster, tmp_path: Path) -> None:
    from confluent_kafka import KafkaException
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": kafka_cluster.bootstrap_servers})
    for settings, refused in TOPIC_CASES:
        topic = NewTopic("oracle-values", num_partitions=1, replication_factor=3, config=settings)
        try:
            admin.create_topics([topic], validate_only=True)["oracle-values"].result(timeout=30)
            outcome = None
        except KafkaException as error:
            outcome = error.args[0]
        assert (outcome is not None) is refused, (settings, outcome)
        if refused:
            assert outcome.name() in ("INVALID_CONFIG", "POLICY_VIOLATION"), outcome
        assert ("KT104" in findings(tmp_path, "4.4", settings, component="topic")) is refused, settings
