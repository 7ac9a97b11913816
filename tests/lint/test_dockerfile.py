"""Dockerfiles read as the builder reads them: continuations, both ENV forms, ARG and stage
inheritance, and a broker's image told from a tool's or an application's by content."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.report.session import lint
from advisor.sources import dockerfile


def _broker(text: str, name: str = "Dockerfile"):  # type: ignore[no-untyped-def]
    payload = dockerfile.sniff(Path(name), text)
    assert payload is not None, "not read as a broker's Dockerfile"
    _, (config_set,) = dockerfile.load(name, text, payload, None)
    return config_set


def test_continuations_comments_and_both_env_forms() -> None:
    text = (
        "FROM apache/kafka:3.9.1\n"
        "ENV KAFKA_NODE_ID=2 \\\n"
        "    # a comment inside the instruction is dropped\n"
        '    KAFKA_LOG_RETENTION_HOURS="48" \\\n'
        "    KAFKA_NUM_PARTITIONS=6\n"
        "env KAFKA_HEAP_OPTS -Xmx3g -Xms3g\n"
    )
    config_set = _broker(text)
    assert config_set.kafka_version == "3.9.1"
    assert {k: s.value for k, s in config_set.settings.items()} == {
        "node.id": "2",
        "log.retention.hours": "48",
        "num.partitions": "6",
    }
    assert config_set.settings["num.partitions"].location.line == 5
    assert config_set.settings["log.retention.hours"].value_location.line == 4
    assert config_set.facts["jvm"]["KAFKA_HEAP_OPTS"] == {"value": "-Xmx3g -Xms3g", "line": 6}


def test_args_defaults_and_stages_are_substituted_as_the_builder_does() -> None:
    text = (
        "ARG TAG=7.6.1\n"
        "FROM confluentinc/cp-kafka:${TAG} AS broker\n"
        "ARG RETENTION=72\n"
        "ENV KAFKA_BROKER_ID=1 KAFKA_LOG_RETENTION_HOURS=${RETENTION}\n"
        "ENV KAFKA_LOG_DIRS=${DATA_DIR:-/var/lib/kafka/data} KAFKA_ZOOKEEPER_CONNECT=${ZK}\n"
        "FROM broker\n"
        "ENV KAFKA_NUM_PARTITIONS=3\n"
    )
    config_set = _broker(text)
    assert config_set.kafka_version == "3.6"  # Confluent Platform 7.6 ships Kafka 3.6
    values = {k: s.value for k, s in config_set.settings.items()}
    assert values["log.retention.hours"] == "72"
    assert values["log.dirs"] == "/var/lib/kafka/data"
    assert values["zookeeper.connect"] == "${ZK}"  # nothing sets it: a template, not judged
    assert values["num.partitions"] == "3" and values["broker.id"] == "1"  # the final stage inherits


def test_the_release_of_a_download_judges_a_broker_built_from_it() -> None:
    text = (
        "FROM eclipse-temurin:17-jre\n"
        "ARG KAFKA_VERSION=3.4.1\n"
        "RUN curl -fsSL https://archive.apache.org/dist/kafka/${KAFKA_VERSION}/kafka_2.13-${KAFKA_VERSION}.tgz \\\n"
        "    | tar xz\n"
        "ENV KAFKA_HOME=/opt/kafka KAFKA_HEAP_OPTS=-Xmx2g\n"
        'CMD ["/opt/kafka/bin/kafka-server-start.sh", "/opt/kafka/config/server.properties"]\n'
    )
    config_set = _broker(text)
    assert config_set.kafka_version == "3.4.1"
    assert config_set.settings == {}  # the start script reads no KAFKA_* but the JVM's
    assert "KAFKA_HEAP_OPTS" in config_set.facts["jvm"]


@pytest.mark.parametrize(
    "text",
    [
        'FROM confluentinc/cp-kafka:7.6.1\nENTRYPOINT ["kafka-topics", "--create", "--topic", "orders"]\n',
        "FROM python:3.12-slim\nENV KAFKA_BOOTSTRAP_SERVERS=kafka:9092\nCMD python app.py\n",
        "FROM confluentinc/cp-kafka-connect:7.6.1\nENV CONNECT_GROUP_ID=connect\n",
        "# just prose mentioning FROM apache/kafka\nsome text\n",
    ],
)
def test_tools_applications_and_prose_are_not_a_broker_s(text: str) -> None:
    assert dockerfile.sniff(Path("Dockerfile"), text) is None


def test_content_decides_whatever_the_name_and_a_builder_error_is_a_line(tmp_path: Path) -> None:
    image = tmp_path / "broker-image"
    image.write_text("FROM bitnami/kafka:3.7\nENV KAFKA_CFG_UNCLEAN_LEADER_ELECTION_ENABLE=true\n")
    assert [f.rule for f in lint([image]).findings] == ["KB103"]
    broken = tmp_path / "Dockerfile"
    broken.write_text("FROM apache/kafka:3.8.0\nENV KAFKA_NODE_ID=1 oops\n")
    problems = lint([broken]).problems
    assert [(p.line, p.kind) for p in problems] == [(2, "input")] and "has no '='" in problems[0].message


def test_the_release_a_dockerfile_downloads_judges_the_broker_file_it_copies(tmp_path: Path) -> None:
    """A release pinned beside a file (sources/pins.py): only for the file the build names, only
    for brokers and topics, and only when the builds naming it agree."""
    (tmp_path / "Dockerfile").write_text(
        "FROM eclipse-temurin:17-jre\nRUN curl -fsSL https://archive.apache.org/dist/kafka/3.6.2/kafka_2.13-3.6.2.tgz"
        " | tar -xz -C /opt\nCOPY server.properties /opt/kafka/config/\n"
        'ENTRYPOINT ["/opt/kafka_2.13-3.6.2/bin/kafka-server-start.sh", "/opt/kafka/config/server.properties"]\n'
    )
    (tmp_path / "server.properties").write_text("broker.id=1\nzookeeper.connect=zk:2181\n")
    (tmp_path / "other.server.properties").write_text("broker.id=2\nzookeeper.connect=zk:2181\n")
    (tmp_path / "app.producer.properties").write_text("bootstrap.servers=k:9092\nlinger.ms=5\n")
    document = lint(sorted(tmp_path.iterdir())).document
    judged = {Path(s.path).name: (s.kafka_version, s.kafka_version_from) for s in document.config_sets}
    assert judged["server.properties"][0] == "3.6.2"
    assert "kafka_2.13-3.6.2.tgz in Dockerfile, which names server.properties" in judged["server.properties"][1]
    assert judged["other.server.properties"] == (None, None)  # the build does not name it
    assert judged["app.producer.properties"] == (None, None)  # a client links its own library
