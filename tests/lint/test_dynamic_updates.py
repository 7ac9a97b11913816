"""kafka-configs updates of running brokers (sources/shell.py `dynamic_update`): read in every
spelling of the entity, judged on what they write only, and applied over the broker files of
their cluster with the broker's own precedence (analysis/peers.py; the real broker's answer is in
tests/integration/test_dynamic_broker_configs.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.report.session import lint
from advisor.sources import shell

BS = "dyn-kafka-1:9092"


@pytest.mark.parametrize(
    ("entity", "expected"),
    [
        ("--entity-type brokers --entity-default", {"default": True, "broker": None}),
        ("--broker-defaults", {"default": True, "broker": None}),
        ("--entity-type brokers --entity-name 2", {"default": False, "broker": "2"}),
        ("--broker 2", {"default": False, "broker": "2"}),
    ],
)
def test_every_spelling_of_the_broker_entity_is_a_dynamic_update(entity: str, expected: dict, tmp_path: Path) -> None:
    script = tmp_path / "tune.sh"
    text = f"#!/bin/sh\nkafka-configs.sh --bootstrap-server {BS} {entity} --alter --add-config log.cleaner.threads=2\n"
    (config_set,) = shell.load(str(script), text, None, None)[1]
    assert config_set.component == "broker"
    assert config_set.facts["dynamic_update"] == expected
    assert config_set.facts["command"]["entity"]["type"] == "brokers"


def test_a_topic_given_with_the_short_option_is_a_topic(tmp_path: Path) -> None:
    script = tmp_path / "tune.sh"
    script.write_text(
        f"#!/bin/sh\nkafka-configs --bootstrap-server {BS} --topic orders --alter --add-config retention.ms=7d\n"
    )
    (config_set,) = shell.load(str(script), script.read_text(), None, None)[1]
    assert (config_set.component, config_set.name) == ("topic", "kafka-configs orders")
    assert "KT104" in {f.rule for f in lint([script]).findings}  # 7d is no number of milliseconds


def test_updates_are_judged_on_what_they_write_and_count_no_broker(tmp_path: Path) -> None:
    script = tmp_path / "tune.sh"
    lines = [
        f"kafka-configs.sh --bootstrap-server {BS} --broker {n} --alter --add-config log.cleaner.threads=2"
        for n in range(6)
    ]
    script.write_text("#!/bin/sh\n" + "\n".join(lines) + "\n")
    rules = {f.rule for f in lint([script], kafka_version="4.4").findings}
    # no broker defaults judged (auto-create, min ISR, default RF on "a cluster of 6 brokers")
    assert not rules & {"KB101", "KB102", "KB117"}, rules


def _project(tmp_path: Path, update: str, config: str) -> set[str]:
    """Two brokers whose files allow 500000 bytes, one dynamic update, a producer allowed 1 MB."""
    for node in (1, 2):
        (tmp_path / f"server-{node}.properties").write_text(
            f"process.roles=broker\nnode.id={node}\nadvertised.listeners=PLAINTEXT://dyn-kafka-{node}:9092\n"
            "message.max.bytes=500000\n"
        )
    command = f"kafka-configs.sh --bootstrap-server {BS} {update} --alter --add-config {config}"
    (tmp_path / "tune.sh").write_text(f"#!/bin/sh\n{command}\n")
    (tmp_path / "producer.properties").write_text(
        f"bootstrap.servers={BS},dyn-kafka-2:9092\nmax.request.size=1000000\n"
    )
    return {f.rule for f in lint(sorted(tmp_path.iterdir()), kafka_version="4.4").findings}


@pytest.mark.parametrize(
    ("update", "config", "fires"),
    [
        ("--entity-type brokers --entity-default", "message.max.bytes=2000000", False),  # every broker's limit
        ("--broker-defaults", "message.max.bytes=2000000", False),
        ("--broker 1", "message.max.bytes=2000000", True),  # broker 2 keeps its file's 500000
        (
            "--broker 1",
            "message.max.bytes=2000000 && kafka-configs --broker 2 --alter --add-config message.max.bytes=3000000",
            False,
        ),
        ("--broker-defaults", "message.max.bytes=100000", True),  # lowered below the producer's
        ("--broker-defaults", "log.cleaner.threads=2", True),  # nothing said of the limit
    ],
)
def test_a_dynamic_value_replaces_the_broker_files_own(update: str, config: str, fires: bool, tmp_path: Path) -> None:
    rules = _project(tmp_path, update, config)
    assert ("KX109" in rules) is fires, rules
