"""KB124 against the KRaft controller's own replica placer (StripedReplicaPlacer, Kafka 4.4):
a broker without broker.rack in an otherwise racked cluster is not refused; it is treated as
a rack of its own, so replicas land beside others of the zone it is really in."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from oracles import compile_java, run_once

from advisor.report.session import lint

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tools"))
import fetch_kafka  # noqa: E402

ZONES = {1: "zone-a", 2: "zone-b", 3: "zone-c", 4: "zone-a"}  # where the four brokers really are


@pytest.fixture(scope="module")
def placer(tmp_path_factory: pytest.TempPathFactory) -> str:
    libs = fetch_kafka.classpath(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION))
    classes = compile_java(REPO_ROOT / "tests" / "java" / "PlacementOracle.java", tmp_path_factory.mktemp("p"), libs)
    return f"{classes}:{libs}"


def place(classpath: str, partitions: int, replicas: int, racks: dict[int, str]) -> list[list[int]]:
    brokers = (f"{broker}:{rack}" for broker, rack in racks.items())
    return run_once(classpath, "PlacementOracle", str(partitions), str(replicas), *brokers)


def sharing_a_zone(assignments: list[list[int]]) -> list[list[int]]:
    return [replicas for replicas in assignments if len({ZONES[b] for b in replicas}) < len(replicas)]


def test_an_unracked_broker_is_placed_as_a_zone_of_its_own(placer: str, tmp_path: Path) -> None:
    declared = place(placer, 24, 3, ZONES)
    assert not sharing_a_zone(declared)  # every partition spans three zones

    blind = place(placer, 24, 3, {**ZONES, 4: ""})  # broker 4 states no rack: accepted, no error
    assert len(blind) == 24
    assert sharing_a_zone(blind)  # some partitions now keep two copies in zone-a

    compose = tmp_path / "docker-compose.yml"
    services = "".join(
        f"  kafka-{n}:\n    image: apache/kafka:4.4.0\n    environment:\n      KAFKA_NODE_ID: {n}\n"
        + (f"      KAFKA_BROKER_RACK: {ZONES[n]}\n" if n != 4 else "")
        for n in ZONES
    )
    compose.write_text("services:\n" + services)
    flagged = [f for f in lint([compose]).findings if f.rule == "KB124"]
    service_starts = compose.read_text().splitlines().index("  kafka-4:") + 1
    assert len(flagged) == 1 and flagged[0].line > service_starts  # on broker 4, the last service
