"""Keys of spec.kafka.config that the Strimzi operator manages are left out of the brokers'
configuration by the operator (KafkaClusterSpec's forbidden prefixes): KB109 names them, and no
other rule judges them as if they applied."""

from __future__ import annotations

from pathlib import Path

from advisor.report.session import lint

KAFKA = """apiVersion: kafka.strimzi.io/v1beta2
kind: Kafka
metadata:
  name: ledger
spec:
  kafka:
    replicas: 5
    listeners:
      - {{name: scram, port: 9094, type: internal, tls: true, authentication: {{type: scram-sha-512}}}}
    config:
      default.replication.factor: 3
      min.insync.replicas: 2
      listener.name.scram-9094.connections.max.reauth.ms: 3600
      connections.max.reauth.ms: {reauth}
"""


def test_a_forbidden_key_is_named_where_it_is_and_judged_by_nothing_else(tmp_path: Path) -> None:
    resource = tmp_path / "kafka.yaml"
    resource.write_text(KAFKA.format(reauth=3600000))
    findings = lint([resource]).findings
    assert [(f.rule, f.location.line) for f in findings if "listener.name" in " ".join(f.keys)] == [("KB109", 13)]
    (broker,) = lint([resource]).document.config_sets
    assert "listener.name.scram-9094.connections.max.reauth.ms" not in broker.settings


def test_an_allowed_key_beside_it_is_still_judged(tmp_path: Path) -> None:
    resource = tmp_path / "kafka.yaml"
    resource.write_text(KAFKA.format(reauth=300))
    assert [f.location.line for f in lint([resource]).findings if f.rule == "KB143"] == [14]
