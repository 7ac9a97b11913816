"""Which Kafka release judges a config set when the input does not say it outright: image tags
(Confluent Platform lines mapped to the Kafka release they ship, wurstmeister's <scala>-<kafka>
tags), ZooKeeper mode (at most 3.9), and what the findings say was assumed."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor import catalog
from advisor.report.session import lint
from advisor.sources.compose import _kafka_version


@pytest.mark.parametrize(
    ("image", "version"),
    [
        ("apache/kafka:4.1.0", "4.1.0"),
        ("bitnami/kafka:3.7.0-debian-12-r0", "3.7.0"),
        ("wurstmeister/kafka:2.13-2.8.1", "2.8.1"),  # Scala 2.13 build of Kafka 2.8.1
        ("wurstmeister/kafka:latest", None),
        ("confluentinc/cp-kafka:4.1.2", "1.1"),
        ("confluentinc/cp-kafka:5.0.0", "2.0"),
        ("confluentinc/cp-kafka:5.5.1", "2.5"),
        ("confluentinc/cp-server:6.1.0", "2.7"),
        ("confluentinc/cp-kafka:6.2.4", "2.8"),
        ("confluentinc/cp-kafka:7.6.1", "3.6"),
        ("confluentinc/cp-kafka:8.0.0", "4.0"),
        ("registry.example.com/kafka:${KAFKA_TAG}", None),
    ],
)
def test_image_tags_name_the_kafka_release(image: str, version: str | None) -> None:
    assert _kafka_version(image) == version


def _last_zookeeper_release() -> str:
    return [r for r in catalog.releases() if catalog.versions.parse(r) < (4, 0, 0)][-1]


@pytest.mark.parametrize(
    ("written", "how"),
    [
        ("zookeeper.connect=zk-1.example:2181/kafka\n", "zookeeper.connect"),
        ("broker.id=2\n", "broker.id without process.roles"),
    ],
)
def test_a_zookeeper_mode_broker_is_judged_as_the_last_zookeeper_release(
    written: str, how: str, tmp_path: Path
) -> None:
    broker = tmp_path / "server.properties"
    broker.write_text(
        f"{written}unclean.leader.election.enable=true\nzookeeper.connection.timeout.ms=18000\n"
        "log.message.format.version=2.8\n"
    )
    findings = lint([broker]).findings
    assert "KB100" not in {f.rule for f in findings}  # zookeeper.* are settings of a ZooKeeper-mode release
    last = _last_zookeeper_release()
    # A verdict another release could reach otherwise (a key deprecated in 3.0, removed in 4.0)
    # says which release it assumed; one every release shares (unclean election) does not.
    (stale,) = [f for f in findings if "log.message.format.version" in f.keys]
    assert stale.assumptions == (
        f"Kafka {last} assumed: the broker runs in ZooKeeper mode ({how}), which Kafka 4.0 removed",
    )
    assert (stale.kafka_version, stale.kafka_version_from) == (last, "assumed")
    (unclean,) = [f for f in findings if f.rule == "KB103"]
    assert (unclean.assumptions, unclean.kafka_version) == ((), None)
    # A version the input states wins, and then the removed keys are reported.
    broker.write_text("# kafka-advisor: kafka-version=4.0\n" + broker.read_text())
    assert "KB100" in {f.rule for f in lint([broker]).findings}


def test_a_kraft_broker_without_a_version_is_judged_as_the_newest_release(tmp_path: Path) -> None:
    broker = tmp_path / "server.properties"
    broker.write_text("process.roles=broker\nnode.id=2\nunclean.leader.election.enable=true\n")
    (unclean,) = [f for f in lint([broker]).findings if f.rule == "KB103"]
    assert unclean.assumptions == ()  # every release judges unclean election alike


def test_a_version_dependent_finding_says_which_release_and_where_it_came_from(tmp_path: Path) -> None:
    """session.timeout.ms defaulted to 10000 before 3.0 and 45000 since: a verdict comparing a
    value with the default depends on the release, so it names the release and its source."""
    consumer = tmp_path / "app.consumer.properties"
    consumer.write_text("bootstrap.servers=kafka:9092\nsession.timeout.ms=30000\n")
    (below,) = [f for f in lint([consumer]).findings if f.rule == "KC101"]
    newest = catalog.releases()[-1]
    assert below.kafka_version == newest and below.kafka_version_from == "assumed"
    (note,) = below.assumptions
    assert note.startswith(f"Kafka {newest}, the newest release: no version found") and "--kafka-version" in note

    consumer.write_text("# kafka-advisor: kafka-version=3.7\n" + consumer.read_text())
    (below,) = [f for f in lint([consumer]).findings if f.rule == "KC101"]
    assert below.assumptions == ()
    assert below.kafka_version.startswith("3.7.")
    assert below.kafka_version_from == "a '# kafka-advisor: kafka-version' line"

    given = next(f for f in lint([consumer], kafka_version="3.8").findings if f.rule == "KC101")
    assert given.kafka_version_from == "--kafka-version"


def test_an_image_tag_is_named_as_the_source_of_the_release(tmp_path: Path) -> None:
    compose = tmp_path / "docker-compose.yml"
    compose.write_text(
        "services:\n  kafka:\n    image: bitnami/kafka:3.6.1\n    environment:\n"
        "      KAFKA_CFG_PROCESS_ROLES: broker,controller\n"
        "      KAFKA_CFG_LOG_MESSAGE_FORMAT_VERSION: '3.0'\n"
    )
    (stale,) = [f for f in lint([compose]).findings if "log.message.format.version" in f.keys]
    assert stale.kafka_version.startswith("3.6.") and stale.kafka_version_from == "image bitnami/kafka:3.6.1"
    assert stale.assumptions == ()


def test_a_verdict_on_a_written_value_does_not_depend_on_the_default_it_replaces(tmp_path: Path) -> None:
    """acks defaulted to 1 before 3.0, but acks=1 written is acks=1 in every release: no release
    note. A rule that compares with the default (KC101) still carries one."""
    producer = tmp_path / "app.producer.properties"
    producer.write_text("bootstrap.servers=k:9092\nacks=1\n")
    (weak,) = [f for f in lint([producer]).findings if f.rule == "KP101"]
    assert (weak.kafka_version, weak.assumptions) == (None, ())


def test_a_chart_version_names_the_release_when_the_values_set_no_image_tag(tmp_path: Path) -> None:
    """An umbrella Chart.yaml depending on bitnami/kafka 26.x.x: Helm takes the newest 26 chart,
    which ships Kafka 3.6 (advisor/catalog/data/bitnami_kafka_chart.json, from the chart history)."""
    (tmp_path / "Chart.yaml").write_text(
        "apiVersion: v2\nname: platform\nversion: 1.0.0\ndependencies:\n"
        "  - name: kafka\n    version: 26.x.x\n    repository: oci://registry-1.docker.io/bitnamicharts\n"
    )
    values = tmp_path / "values.yaml"
    values.write_text(
        "kafka:\n  controller:\n    replicaCount: 3\n  extraConfig: |\n    log.message.format.version=2.8\n"
    )
    (stale,) = [f for f in lint([values]).findings if f.rule == "KB105"]
    assert stale.kafka_version.startswith("3.6.")
    assert stale.kafka_version_from.startswith("Bitnami kafka chart 26.") and stale.kafka_version_from.endswith(
        "in Chart.yaml"
    )


def test_the_chart_table_comes_from_the_chart_history() -> None:
    import json

    from advisor.sources.helm import chart_release

    data = json.loads((Path(catalog.__file__).parent / "data" / "bitnami_kafka_chart.json").read_text())
    assert data["source"].startswith("bitnami/charts")
    assert len(data["versions"]) > 500
    assert chart_release("~26.8.0")[0].startswith("26.8.") and chart_release("20.1.1") == ("20.1.1", "3.4.0")


def test_a_strimzi_metadata_version_names_the_release_when_spec_kafka_version_is_absent(tmp_path: Path) -> None:
    kafka = tmp_path / "kafka.yaml"
    kafka.write_text(
        "apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata:\n  name: k\nspec:\n  kafka:\n"
        "    metadataVersion: 3.7-IV4\n    replicas: 3\n    listeners: []\n    config:\n"
        "      log.message.format.version: '3.0'\n"
    )
    (stale,) = [f for f in lint([kafka]).findings if "log.message.format.version" in f.keys]
    assert stale.kafka_version.startswith("3.7.") and stale.kafka_version_from == "spec.kafka.metadataVersion"
