"""Dev or production from evidence: a cluster whose brokers clients reach on loopback only is a
laptop setup (the dev profile, said in a note); with nothing said, production — and the
findings the dev profile would quiet say so. --profile dev keeps multi-broker findings for
files that define two or more brokers."""

from __future__ import annotations

from pathlib import Path

from advisor.report.session import lint
from advisor.rules.dev_profile import DEV_QUIETS
from advisor.rules.findings import PROD_ASSUMED
from advisor.rules.registry import load_rules

OPEN_ACLS = "process.roles=broker,controller\nnode.id=1\nallow.everyone.if.no.acl.found=true\n"


def test_the_generated_dev_list_is_the_rules_that_skip_in_dev() -> None:
    assert tuple(sorted(r.definition.id for r in load_rules() if r.definition.skip_in_dev)) == DEV_QUIETS


def test_a_loopback_only_broker_is_judged_as_a_laptop_setup_and_says_so(tmp_path: Path) -> None:
    broker = tmp_path / "server.properties"
    broker.write_text(OPEN_ACLS + "listeners=PLAINTEXT://localhost:9092,CONTROLLER://localhost:9093\n"
                      "controller.listener.names=CONTROLLER\n")  # fmt: skip
    result = lint([broker])
    assert "KB118" not in {f.rule for f in result.findings}  # quieted by the inferred dev profile
    (note,) = result.notes
    assert note.kind == "note" and "only on loopback or compose-network names (localhost:9092)" in note.message
    said = lint([broker], profile="prod")  # the run says production: judged so, no note
    assert "KB118" in {f.rule for f in said.findings} and not said.notes


def test_with_nothing_said_a_broker_is_production_and_the_finding_says_it_was_assumed(tmp_path: Path) -> None:
    broker = tmp_path / "server.properties"
    broker.write_text(OPEN_ACLS + "listeners=PLAINTEXT://10.0.0.5:9092,CONTROLLER://10.0.0.5:9093\n")
    (open_acls,) = [f for f in lint([broker]).findings if f.rule == "KB118"]
    assert PROD_ASSUMED in open_acls.assumptions
    (stated,) = [f for f in lint([broker], profile="prod").findings if f.rule == "KB118"]
    assert PROD_ASSUMED not in stated.assumptions


def test_the_dev_profile_keeps_multi_broker_findings_for_files_with_several_brokers(tmp_path: Path) -> None:
    compose = tmp_path / "docker-compose.yml"
    services = "".join(
        f"  kafka-{n}:\n    image: apache/kafka:4.1.0\n    environment:\n      KAFKA_NODE_ID: {n}\n"
        "      KAFKA_PROCESS_ROLES: broker,controller\n"
        "      KAFKA_CONTROLLER_QUORUM_VOTERS: 1@kafka-1:9093,2@kafka-2:9093,3@kafka-3:9093\n"
        f"      KAFKA_LISTENERS: PLAINTEXT://kafka-{n}:9092,CONTROLLER://kafka-{n}:9093\n"
        "      KAFKA_CONTROLLER_LISTENER_NAMES: CONTROLLER\n"
        "      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 1\n"
        for n in (1, 2, 3)
    )
    compose.write_text("services:\n" + services)
    dev = {f.rule for f in lint([compose], profile="dev").findings}
    assert {"KB102", "KB134"} <= dev  # one copy on three brokers is a finding in dev too
    assert "KB119" not in dev  # a plaintext listener on a dev network is not
    assert "KB119" in {f.rule for f in lint([compose], profile="prod").findings}


def test_a_compose_stack_reached_by_service_names_is_a_laptop_setup_and_a_domain_is_not(tmp_path: Path) -> None:
    """Inside a compose project `kafka:9092` resolves only on its network; `kafka.prod.example` anywhere."""
    compose = tmp_path / "docker-compose.yml"
    service = (
        "services:\n  kafka:\n    image: apache/kafka:3.9.0\n    environment:\n      KAFKA_NODE_ID: 1\n"
        "      KAFKA_PROCESS_ROLES: broker,controller\n      KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND: 'true'\n"
        "      KAFKA_LISTENERS: PLAINTEXT://:9092,CONTROLLER://:9093\n"
        "      KAFKA_CONTROLLER_LISTENER_NAMES: CONTROLLER\n"
    )
    compose.write_text(service + "      KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://kafka:9092\n")
    laptop = lint([compose])
    assert "KB118" not in {f.rule for f in laptop.findings} and laptop.notes
    compose.write_text(service + "      KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://kafka.prod.example.com:9092\n")
    served = lint([compose])
    assert "KB118" in {f.rule for f in served.findings} and not served.notes
