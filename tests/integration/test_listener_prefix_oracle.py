"""A listener's own copy of a broker key — listener.name.L.KEY, and listener.name.L.MECHANISM.KEY
for SASL — is parsed by a real Kafka 4.4 broker with KEY's definition when it builds the listener:
a value that definition refuses stops the broker. KB110 judges those keys so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from oracles import standalone_broker

from advisor.report.session import lint

pytestmark = pytest.mark.kafka


@pytest.mark.parametrize(
    ("key", "value", "starts"),
    [
        ("listener.name.plaintext.connections.max.idle.ms", "soon", False),
        ("listener.name.plaintext.plain.connections.max.reauth.ms", "10m", False),
        ("listener.name.plaintext.connections.max.idle.ms", "60000", True),
    ],
)
def test_a_listener_key_is_refused_as_its_base_key_is(tmp_path: Path, key: str, value: str, starts: bool) -> None:
    try:
        with standalone_broker(tmp_path, {key: value}, timeout=60):
            started = True
    except AssertionError:
        started = False
    assert started is starts
    if not starts:
        base = re.sub(r"^listener\.name\.plaintext\.(plain\.)?", "", key)
        assert f"Invalid value {value} for configuration {base}" in (tmp_path / "broker.log").read_text()
    config = tmp_path / "server.properties"  # the file the broker read
    judged = [f for f in lint([config]).findings if f.rule == "KB110" and key in f.message]
    assert bool(judged) is not starts
