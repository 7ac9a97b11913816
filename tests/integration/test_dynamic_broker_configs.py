"""What a running broker does with kafka-configs --alter on brokers, proven on a real Kafka 4.4
node: the keys it refuses and why (KO112), and that a cluster-wide dynamic value replaces the
broker file's own (the precedence analysis/peers.py applies, e.g. for KX109)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from confluent_kafka import KafkaException, Producer
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType
from oracles import standalone_broker

from advisor import catalog
from advisor.report.session import lint
from advisor.rules.checks.operations import REFUSALS, dynamic_refusal

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import fetch_kafka

RELEASE = "4.4.0"
CONFIGS = "org.apache.kafka.tools.ConfigCommand"
_REFUSED = re.compile("(?P<why>" + "|".join(map(re.escape, REFUSALS.values())) + r"): \[(?P<keys>[^\]]*)\]")
pytestmark = pytest.mark.kafka


def _keys_by_mode(mode: str) -> list[str]:
    keys = catalog.known_keys("broker", kafka_version=RELEASE)
    return [k for k in keys if catalog.lookup(k, "broker", kafka_version=RELEASE).dynamic == mode]  # type: ignore[union-attr]


def _valid_value(key: str) -> str | None:
    """A value of the key's type (the broker checks types before the per-broker rule)."""
    facts = catalog.lookup(key, "broker", kafka_version=RELEASE)
    assert facts is not None
    default = facts.default
    if isinstance(default, list):
        return ",".join(str(item) for item in default)
    if isinstance(default, bool):
        return str(default).lower()
    if default is not None:
        return str(default)
    return None if facts.type == "CLASS" else "x"


def _refusal(error: str) -> tuple[str, set[str]]:
    found = _REFUSED.search(error)
    assert found, error
    return found["why"], {key.strip() for key in found["keys"].split(",")}


def _alter_one_broker(admin: AdminClient, configs: dict[str, str]) -> str:
    entries = [ConfigEntry(k, v, incremental_operation=AlterConfigOpType.SET) for k, v in configs.items()]
    resource = ConfigResource(ResourceType.BROKER, "1", incremental_configs=entries)
    try:
        admin.incremental_alter_configs([resource])[resource].result(timeout=60)
    except KafkaException as error:  # the broker's answer is the point
        return str(error)
    return ""


def _alter_defaults(bootstrap: str, configs: dict[str, str], work: Path) -> subprocess.CompletedProcess[str]:
    """kafka-configs --broker-defaults --alter, as a script runs it (a properties file of values)."""
    values = work / "defaults.properties"
    values.write_text("".join(f"{k}={v}\n" for k, v in configs.items()))
    classpath = fetch_kafka.classpath(fetch_kafka.kafka_libs(RELEASE))
    command = [
        CONFIGS,
        "--bootstrap-server",
        bootstrap,
        "--broker-defaults",
        "--alter",
        "--add-config-file",
        str(values),
    ]
    return subprocess.run(["java", "-cp", classpath, *command], capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    work = tmp_path_factory.mktemp("dynamic")
    with standalone_broker(work, {"message.max.bytes": "300000"}) as bootstrap:
        yield bootstrap, work


def test_every_read_only_key_of_the_catalog_is_refused_at_run_time(broker: tuple[str, Path]) -> None:
    bootstrap, _ = broker
    read_only = _keys_by_mode("read-only")
    assert len(read_only) > 100  # the catalog was read
    admin = AdminClient({"bootstrap.servers": bootstrap})
    refused: set[str] = set()
    for start in range(0, len(read_only), 6):  # librdkafka cuts an error's text at 512 bytes
        why, names = _refusal(_alter_one_broker(admin, dict.fromkeys(read_only[start : start + 6], "1")))
        assert why == REFUSALS["read-only"]
        refused |= names
    assert refused == set(read_only)
    assert all(dynamic_refusal(key, RELEASE, cluster_default=False) == "read-only" for key in read_only)


def test_keystores_and_truststores_are_taken_only_per_listener(broker: tuple[str, Path]) -> None:
    bootstrap, _ = broker
    security = [k for k in _keys_by_mode("per-broker") if k.startswith("ssl.")]
    values = {k: v for k in security if (v := _valid_value(k)) is not None}
    admin = AdminClient({"bootstrap.servers": bootstrap})
    refused = set()
    for key, value in values.items():  # one at a time: the accepted ones are applied, harmlessly (defaults)
        error = _alter_one_broker(admin, {key: value})
        if error:
            assert _refusal(error) == (REFUSALS["listener-only"], {key})
            refused.add(key)
    assert refused == {k for k in values if dynamic_refusal(k, RELEASE, cluster_default=False) == "listener-only"}
    assert len(refused) >= 7
    # with the listener prefix one broker takes them
    prefixed = {f"listener.name.plaintext.{k}": values[k] for k in ("ssl.keystore.type", "ssl.truststore.type")}
    assert _alter_one_broker(admin, prefixed) == ""
    assert all(dynamic_refusal(k, RELEASE, cluster_default=False) is None for k in prefixed)


def test_per_broker_keys_are_refused_as_the_cluster_wide_default(broker: tuple[str, Path]) -> None:
    bootstrap, work = broker
    keys = [k for k in _keys_by_mode("per-broker") if dynamic_refusal(k, RELEASE, cluster_default=False) is None]
    values = {k: v for k in keys if (v := _valid_value(k)) is not None}
    values["listener.name.plaintext.ssl.cipher.suites"] = "TLS_AES_128_GCM_SHA256"
    values["listener.name.plaintext.max.connections"] = "1000"  # a listener's connection limit is cluster-wide
    result = _alter_defaults(bootstrap, values, work)
    assert result.returncode != 0
    why, refused = _refusal(result.stdout + result.stderr)
    assert why == REFUSALS["per-broker"]
    expected = {k for k in values if dynamic_refusal(k, RELEASE, cluster_default=True) == "per-broker"}
    assert refused == expected
    assert "listener.name.plaintext.max.connections" not in refused and len(expected) > 20


def test_a_cluster_wide_dynamic_value_replaces_the_broker_files_own(broker: tuple[str, Path], tmp_path: Path) -> None:
    bootstrap, work = broker
    assert _alter_defaults(bootstrap, {"message.max.bytes": "2000000"}, work).returncode == 0
    admin = AdminClient({"bootstrap.servers": bootstrap})
    resource = ConfigResource(ResourceType.BROKER, "1")
    entry = admin.describe_configs([resource])[resource].result(timeout=60)["message.max.bytes"]
    assert entry.value == "2000000"  # over the 300000 of its server.properties
    delivered: list[object] = []
    producer = Producer({"bootstrap.servers": bootstrap, "message.max.bytes": 5_000_000})
    producer.produce("dynamic-limit", b"x" * 1_000_000, on_delivery=lambda error, _: delivered.append(error))
    producer.flush(60)
    assert delivered == [None]  # a record the file's limit would refuse

    # the linter reads the same precedence: no KX109 for a producer allowed 1.5 MB
    (tmp_path / "server.properties").write_text("process.roles=broker\nnode.id=1\nmessage.max.bytes=300000\n"
                                                "advertised.listeners=PLAINTEXT://kafka-1:9092\n")  # fmt: skip
    (tmp_path / "producer.properties").write_text("bootstrap.servers=kafka-1:9092\nmax.request.size=1500000\n")
    files = [tmp_path / "server.properties", tmp_path / "producer.properties"]
    alone = {f.rule for f in lint(files, kafka_version=RELEASE).findings}
    assert "KX109" in alone
    (tmp_path / "tune.sh").write_text(
        "#!/bin/sh\nkafka-configs.sh --bootstrap-server kafka-1:9092 --entity-type brokers --entity-default"
        " --alter --add-config message.max.bytes=2000000\n"
    )
    together = lint([*files, tmp_path / "tune.sh"], kafka_version=RELEASE).findings
    assert "KX109" not in {f.rule for f in together}
