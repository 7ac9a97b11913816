"""A compose cluster that advertises only compose names or loopback is a laptop setup — unless a
service publishes a PLAINTEXT listener's port on every interface: then other machines reach it,
it is judged as production, and the note and findings say which port made it so."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.report.session import lint
from advisor.sources.compose_ports import published
from advisor.sources.structured import read_yaml

COMPOSE = """\
services:
  kafka:
    image: {image}
    ports:
      - {ports}
    environment:
      KAFKA_NODE_ID: 1
      KAFKA_PROCESS_ROLES: broker,controller
      KAFKA_CONTROLLER_QUORUM_VOTERS: 1@kafka:9093
      KAFKA_CONTROLLER_LISTENER_NAMES: CONTROLLER
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: CONTROLLER:PLAINTEXT,INTERNAL:PLAINTEXT,OUTSIDE:{outside}
      KAFKA_INTER_BROKER_LISTENER_NAME: INTERNAL
      KAFKA_ADVERTISED_LISTENERS: INTERNAL://kafka:29092,OUTSIDE://localhost:9092
{listeners}"""
LISTENERS = "      KAFKA_LISTENERS: INTERNAL://:29092,CONTROLLER://:9093,OUTSIDE://:9092\n"


def _judged(tmp_path: Path, ports: str, *, outside: str = "PLAINTEXT", image: str = "apache/kafka:4.4.0",
            listeners: str = LISTENERS) -> tuple[list[str], set[str], list[list[str]]]:  # fmt: skip
    (tmp_path / "docker-compose.yml").write_text(COMPOSE.format(image=image, ports=ports, outside=outside,
                                                                listeners=listeners))  # fmt: skip
    result = lint([tmp_path / "docker-compose.yml"])
    kb119 = [f.assumptions for f in result.findings if f.rule == "KB119"]
    return [n.message for n in result.notes], {f.rule for f in result.findings}, kb119


@pytest.mark.parametrize("ports", ['"9092:9092"', '"0.0.0.0:9092:9092/tcp"', '"9092"', '"9090-9094:9090-9094"'])
def test_a_plaintext_port_published_everywhere_makes_the_cluster_production(tmp_path: Path, ports: str) -> None:
    notes, rules, kb119 = _judged(tmp_path, ports)
    assert "KB108" not in rules
    assert any(n.startswith("judged as production: service kafka publishes port 9092") and "line 5" in n
               for n in notes)  # fmt: skip
    (assumptions,) = kb119
    assert any("publishes port 9092 on every interface" in a for a in assumptions)


@pytest.mark.parametrize(
    ("ports", "outside"),
    [
        ('"127.0.0.1:9092:9092"', "PLAINTEXT"),
        ('"[::1]:9092:9092"', "PLAINTEXT"),
        ('"9092:9092"', "SSL"),
        ('"29093:29093"', "PLAINTEXT"),
    ],
)
def test_loopback_bindings_encrypted_or_unrelated_ports_stay_a_laptop_setup(
    tmp_path: Path, ports: str, outside: str
) -> None:
    notes, rules, kb119 = _judged(tmp_path, ports, outside=outside)
    assert "KB108" in rules and kb119 == []
    assert any(n.startswith("judged as a development setup") for n in notes)


def test_a_confluent_image_binds_its_advertised_ports_when_listeners_are_unset(tmp_path: Path) -> None:
    _, _, kb119 = _judged(tmp_path, '"9092:9092"', image="confluentinc/cp-kafka:7.6.1", listeners="")
    assert len(kb119) == 1


def test_long_syntax_and_variables(tmp_path: Path) -> None:
    (tmp_path / "c.yml").write_text(
        "services:\n  k:\n    ports:\n      - target: 9092\n        published: 19092\n"
        "      - target: 9093\n        host_ip: 127.0.0.1\n      - ${PORT}:9094\n"
    )
    (document,) = read_yaml((tmp_path / "c.yml").read_text(), "c.yml")
    service = document["services"]["k"]
    found = [(p.container_port, p.everywhere, p.line) for p in published(service)]
    assert found == [(9092, True, 4), (9093, False, 6)]  # a variable is no evidence either way
