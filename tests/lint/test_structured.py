from __future__ import annotations

import pytest

from advisor.model.document import LoadError
from advisor.sources.structured import read_json, read_toml, read_yaml


def test_yaml_keys_know_their_positions_through_merge_keys() -> None:
    (data,) = read_yaml("base: &b\n  linger.ms: 5\n  acks: all\nsvc:\n  <<: *b\n  acks: 1\nempty: ~\n", "f.yaml")
    assert data["svc"] == {"linger.ms": "5", "acks": "1"}
    assert data["svc"].position("acks") == (6, 3)
    assert data["svc"].position("linger.ms") == (2, 3)  # where the anchor wrote it
    assert data["empty"] is None


def test_json_positions_survive_colons_inside_strings() -> None:
    data = read_json('{\n "a": "x: y",\n "b": {"c": true},\n "d": 1\n}', "f.json")
    assert data.positions == {"a": (2, 2), "b": (3, 2), "d": (4, 2)}
    assert data["b"].position("c") == (3, 8)
    assert data["b"]["c"] == "true" and data["d"] == "1"


def test_toml_sections_and_quoted_keys() -> None:
    data = read_toml('[producer]\n"linger.ms" = 5\nacks = "all"\n', "f.toml")
    assert data["producer"].positions == {"linger.ms": (2, 1), "acks": (3, 1)}


@pytest.mark.parametrize(
    ("reader", "text", "line"),
    [(read_yaml, "a: 1\nb: [1, 2\n", 3), (read_json, '{"a": 1,\n "b": }', 2), (read_toml, "a = 1\nb = \n", 2)],
)
def test_syntax_errors_name_the_line(reader, text: str, line: int) -> None:
    with pytest.raises(LoadError) as error:
        reader(text, "conf/x")
    assert error.value.line == line
    assert str(error.value).startswith(f"conf/x:{line}: invalid")
