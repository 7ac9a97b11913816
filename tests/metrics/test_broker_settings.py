"""What the broker configurations beside metrics agree on: a value, where it is written, or nothing."""

from __future__ import annotations

from pathlib import Path

from advisor.analysis.broker_settings import BrokerSettings
from advisor.sources import LoadOptions, load


def settings(tmp_path: Path, *files: str) -> BrokerSettings:
    paths = []
    for number, text in enumerate(files, start=1):
        path = tmp_path / f"broker-{number}" / "server.properties"
        path.parent.mkdir(parents=True)
        path.write_text(f"process.roles=broker\nnode.id={number}\n{text}")
        paths.append(path)
    return BrokerSettings(load(paths, LoadOptions()), "4.0")


def test_one_value_everywhere_is_said_with_where_it_is_written(tmp_path: Path) -> None:
    view = settings(tmp_path, "num.io.threads=16\n", "num.io.threads = 16\n")
    agreed = view.agreed("num.io.threads")
    assert agreed is not None and agreed.value == "16" and agreed.default == "8" and len(agreed.written) == 2
    assert view.said("num.io.threads") == " (num.io.threads is 16 in server.properties)"


def test_the_default_everywhere_is_a_value_too(tmp_path: Path) -> None:
    view = settings(tmp_path, "", "num.io.threads=8\n")
    assert view.agreed("num.io.threads").value == "8"  # type: ignore[union-attr]
    assert settings(tmp_path / "x", "").said("num.io.threads") == " (num.io.threads is 8, its default)"


def test_disagreement_secrets_and_no_configuration_say_nothing(tmp_path: Path) -> None:
    assert settings(tmp_path, "num.io.threads=16\n", "").agreed("num.io.threads") is None
    secret = settings(tmp_path / "s", "ssl.keystore.password=hunter2\n")
    assert secret.agreed("ssl.keystore.password") is None and secret.said("ssl.keystore.password") == ""
    assert not BrokerSettings(None) and BrokerSettings(None).agreed("num.io.threads") is None


def test_a_node_is_judged_with_the_one_configuration_whose_listeners_name_its_host(tmp_path: Path) -> None:
    view = settings(
        tmp_path,
        "advertised.listeners=SSL://kafka-1.internal:9093\nnum.io.threads=24\n",
        "listeners=PLAINTEXT://ledger-kafka-1.ledger-kafka-brokers.streaming.svc:9092\n",
    )
    for node in ("http://kafka-1.internal:7071/metrics", "kafka-1.internal:9404", "KAFKA-1.internal"):
        assert view.bound(node) == 0, node
        assert view.agreed("num.io.threads", node).value == "24"  # type: ignore[union-attr]
    assert view.bound("ledger-kafka-1") == 1  # a pod name: the first label of its per-pod address
    assert view.agreed("num.io.threads", "ledger-kafka-1").value == "8"  # type: ignore[union-attr]
    assert "whose listeners name kafka-1.internal" in view.said("num.io.threads", "kafka-1.internal:9404")
    # No evidence, no binding: the configurations disagree, so nothing is said.
    for node in ("kafka-9.internal:9404", "http://127.0.0.1:7071/metrics", "metrics/kafka-1.internal", None):
        assert view.bound(node) is None and view.agreed("num.io.threads", node) is None, node


def test_two_configurations_naming_one_host_tie_neither(tmp_path: Path) -> None:
    view = settings(tmp_path, "advertised.listeners=SSL://kafka.internal:9093\nnum.io.threads=24\n",
                    "advertised.listeners=SSL://kafka.internal:9094\n")  # fmt: skip
    assert view.bound("kafka.internal:7071") is None
