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
