"""The writer of YAML, JSON, TOML and `.env` files (fix/structured_writer.py) with its read-back
proof (fix/readback.py): a Change to a compose file, a Strimzi resource, Helm values, a Spring
file or a client dict becomes edits in the style the file is written in, and the edited text,
read again by the same loader, holds the changed values and nothing else changed. Where no edit
can be proven (a value that cannot be written there, an entry with no template), the change is
skipped and the file is never broken. Spring files are proven by Spring Boot itself in
tests/integration/test_spring_patch_oracle.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.fix import FilePlan, apply, plan_changes
from advisor.fix.readback import same_value
from advisor.model.changes import Change
from advisor.sources import LoadOptions, load


def patch(folder: Path, name: str, text: str, wanted: dict[str, str | None], component: str | None = None,
          newline: str = "\n") -> tuple[str, FilePlan, dict[str, dict[str, str]]]:  # fmt: skip
    """The file patched with `wanted` (None: remove) in every config set (of `component`), the
    plan, and every set's values read back from the patched text."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.replace("\n", newline).encode())
    document = load([path], LoadOptions())
    assert not document.errors, document.errors
    sets = [cs for cs in document.config_sets if component in (None, cs.component)]
    changes = [Change("remove" if value is None else "set", key, value, "unsafe", str(path), cs.name)
               for cs in sets for key, value in wanted.items()]  # fmt: skip
    (file_plan,) = plan_changes(changes, document, ("unsafe",), join_inserts=True)
    original = path.read_bytes().decode()
    patched = apply(original, file_plan.edits)
    path.write_bytes(patched.encode())
    again = load([path], LoadOptions())
    assert not again.errors, again.errors
    values = {cs.name: {k: s.value for k, s in cs.settings.items()} for cs in again.config_sets}
    before = {cs.name: {k: s.value for k, s in cs.settings.items()} for cs in document.config_sets}
    held = {change for change, _, _ in file_plan.held}
    made = {(c.subject, c.key) for c in changes if c not in file_plan.skipped and c not in held}
    for name_, settings in before.items():  # what no change named is as it was
        assert {k: v for k, v in values[name_].items() if (name_, k) not in made} == {
            k: v for k, v in settings.items() if (name_, k) not in made
        }
    for subject, key in made:
        value = wanted[key]
        assert (key not in values[subject]) if value is None else same_value(values[subject].get(key), value)
    return patched, file_plan, values


COMPOSE = """\
services:
  kafka:
    image: apache/kafka:4.1.0
    environment:
      KAFKA_NODE_ID: 1
      KAFKA_PROCESS_ROLES: "broker,controller"
      KAFKA_CONTROLLER_QUORUM_VOTERS: 1@kafka:9093
      KAFKA_MIN_INSYNC_REPLICAS: "1"   # one replica is enough in dev
      KAFKA_HEAP_OPTS: -Xmx1g
"""


def test_a_compose_mapping_keeps_its_quotes_and_gains_a_variable_after_its_last(tmp_path: Path) -> None:
    patched, plan, _ = patch(tmp_path, "docker-compose.yml", COMPOSE,
                             {"min.insync.replicas": "2", "num.partitions": "6"})  # fmt: skip
    assert plan.skipped == ()
    assert '      KAFKA_MIN_INSYNC_REPLICAS: "2"   # one replica is enough in dev\n' in patched
    assert '      KAFKA_NUM_PARTITIONS: "6"\n      KAFKA_HEAP_OPTS' in patched  # no comment copied


@pytest.mark.parametrize("quote", ["", '"'])
def test_a_compose_list_stays_a_list_of_the_same_quoting(tmp_path: Path, quote: str) -> None:
    text = f"""\
services:
  broker:
    image: bitnami/kafka:3.9
    environment:
      - {quote}KAFKA_CFG_NODE_ID=0{quote}
      - {quote}KAFKA_CFG_PROCESS_ROLES=controller,broker{quote}
      - {quote}KAFKA_CFG_LOG_RETENTION_HOURS=168{quote}
      - ALLOW_PLAINTEXT_LISTENER=yes
"""
    patched, plan, _ = patch(tmp_path, "docker-compose.yml", text, {"log.retention.hours": "72",
                                                                     "min.insync.replicas": "2"})  # fmt: skip
    assert plan.skipped == ()
    assert f"      - {quote}KAFKA_CFG_LOG_RETENTION_HOURS=72{quote}\n" in patched
    assert f"      - {quote}KAFKA_CFG_MIN_INSYNC_REPLICAS=2{quote}\n" in patched


def test_a_value_a_bare_string_cannot_hold_is_skipped_not_written(tmp_path: Path) -> None:
    text = "services:\n  kafka:\n    image: apache/kafka:4.1.0\n    environment:\n      - KAFKA_NODE_ID=1\n"
    patched, plan, _ = patch(tmp_path, "docker-compose.yml", text, {"node.id": "1 # two"})
    assert patched == text and len(plan.skipped) == 1


def test_an_environment_shared_by_an_anchor_is_held_back_never_edited(tmp_path: Path) -> None:
    """One edit would change every service that merges the anchor: a fix never makes it (#28)."""
    text = """\
x-kafka-env: &kafka-env
  KAFKA_PROCESS_ROLES: broker,controller
  KAFKA_CONTROLLER_QUORUM_VOTERS: 1@kafka-1:9093,2@kafka-2:9093
  KAFKA_MIN_INSYNC_REPLICAS: 1
services:
  kafka-1:
    image: apache/kafka:4.1.0
    environment:
      <<: *kafka-env
      KAFKA_NODE_ID: 1
  kafka-2:
    image: apache/kafka:4.1.0
    environment:
      <<: *kafka-env
      KAFKA_NODE_ID: 2
"""
    patched, plan, _ = patch(tmp_path, "compose.yaml", text, {"min.insync.replicas": "2"})
    assert patched == text and plan.edits == ()
    assert {why for _, _, why in plan.held} == {
        "its value is shared by 2 settings through a YAML anchor, alias or merge key"
    }


def test_an_inline_mapping_gets_no_edit_and_stays_as_it_was(tmp_path: Path) -> None:
    text = "services:\n  kafka:\n    image: apache/kafka:4.1.0\n    environment: {KAFKA_NODE_ID: 1}\n"
    patched, plan, _ = patch(tmp_path, "docker-compose.yml", text, {"num.partitions": "6"})
    assert patched == text and len(plan.skipped) == 1


def test_a_strimzi_kafka_and_topic_change_in_their_config_maps(tmp_path: Path) -> None:
    text = """\
apiVersion: kafka.strimzi.io/v1beta2
kind: Kafka
metadata:
  name: events
spec:
  kafka:
    version: 3.9.0
    replicas: 3
    config:
      default.replication.factor: 3
      min.insync.replicas: 1
  zookeeper:
    replicas: 3
---
apiVersion: kafka.strimzi.io/v1beta2
kind: KafkaTopic
metadata:
  name: clicks
  labels:
    strimzi.io/cluster: events
spec:
  partitions: 12
  replicas: 3
  config:
    retention.ms: 86400000
"""
    wanted = {"min.insync.replicas": "2", "unclean.leader.election.enable": "false"}
    patched, plan, _ = patch(tmp_path, "kafka.yaml", text, wanted)
    assert plan.skipped == ()
    assert "      min.insync.replicas: 2\n      unclean.leader.election.enable: false\n  zookeeper:" in patched
    assert "    retention.ms: 86400000\n    min.insync.replicas: 2\n" in patched


def test_helm_override_configuration_changes_in_place(tmp_path: Path) -> None:
    text = "controller:\n  replicaCount: 3\noverrideConfiguration:\n  min.insync.replicas: 1\n  num.partitions: 3\n"
    patched, plan, _ = patch(tmp_path, "values.yaml", text, {"min.insync.replicas": "2", "num.io.threads": "16"})
    assert plan.skipped == ()
    assert patched.endswith("  min.insync.replicas: 2\n  num.partitions: 3\n  num.io.threads: 16\n")


def test_kafka_python_keywords_are_written_as_python_types(tmp_path: Path) -> None:
    text = 'producer:\n  bootstrap_servers: "k1:9092"\n  acks: "1"\n'
    patched, plan, _ = patch(tmp_path, "ingest.kafka-python.yaml", text,
                             {"acks": "all", "linger.ms": "20", "enable.idempotence": "true"})  # fmt: skip
    assert plan.skipped == ()
    assert patched == text.replace('"1"', '"all"') + "  linger_ms: 20\n  enable_idempotence: true\n"


@pytest.mark.parametrize(("text", "expected"), [
    ('{"bootstrap.servers": "k:9092", "acks": "1"}',
     '{"bootstrap.servers": "k:9092", "acks": "all", "linger.ms": 20}'),
    ('{\n  "bootstrap.servers": "k:9092",\n  "acks": "1"\n}\n',
     '{\n  "bootstrap.servers": "k:9092",\n  "acks": "all",\n  "linger.ms": 20\n}\n'),
])  # fmt: skip
def test_a_librdkafka_json_object_gains_entries_in_its_own_layout(tmp_path: Path, text: str, expected: str) -> None:
    patched, plan, _ = patch(tmp_path, "producer.json", text, {"acks": "all", "linger.ms": "20"})
    assert plan.skipped == () and patched == expected


def test_toml_and_env_files(tmp_path: Path) -> None:
    toml = '[kafka]\n"bootstrap.servers" = "k:9092"\n"linger.ms" = 5\n'
    patched, plan, _ = patch(tmp_path, "config.toml", toml, {"linger.ms": "20", "compression.type": "lz4"})
    assert plan.skipped == () and patched == toml.replace("5", "20") + '"compression.type" = "lz4"\n'
    env = "KAFKA_NODE_ID=1\nKAFKA_PROCESS_ROLES=broker,controller\nKAFKA_CONTROLLER_QUORUM_VOTERS=1@k:9093\n"
    patched, plan, _ = patch(tmp_path, "broker.env", env, {"min.insync.replicas": "2"})
    assert plan.skipped == () and patched == env + "KAFKA_MIN_INSYNC_REPLICAS=2\n"


def test_crlf_lines_stay_crlf(tmp_path: Path) -> None:
    patched, plan, _ = patch(tmp_path, "docker-compose.yml", COMPOSE, {"num.partitions": "6"}, newline="\r\n")
    assert plan.skipped == () and '      KAFKA_NUM_PARTITIONS: "6"\r\n' in patched
    assert "\n" not in patched.replace("\r\n", "")


def test_a_removed_key_goes_with_its_line(tmp_path: Path) -> None:
    patched, plan, _ = patch(tmp_path, "docker-compose.yml", COMPOSE, {"min.insync.replicas": None})
    assert plan.skipped == () and "MIN_INSYNC" not in patched and patched.count("\n") == COMPOSE.count("\n") - 1
