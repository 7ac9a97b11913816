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


def test_json_and_toml_spans_are_exact_with_duplicates_unicode_and_nesting() -> None:
    from advisor.sources.structured import read_json, read_toml

    text = '{\n  "a": {"é": "ü", "k": 1,\n    "k": [1, {"n": null}]},\n  "z": true\n}'
    data = read_json(text, "x.json")
    inner = data["a"]
    assert inner["k"][1]["n"] is None and data["z"] == "true"
    for mapping in (data, inner, inner["k"][1]):
        for key in mapping:
            key_span, value_span = mapping.key_spans[key], mapping.value_spans[key]
            assert text[key_span.offset : key_span.end_offset] == f'"{key}"'
            assert text.splitlines()[key_span.line - 1][key_span.column - 1 :].startswith(f'"{key}"')
            assert text[value_span.offset : value_span.end_offset].startswith(("{", "[", '"', "1", "null", "true"))
    assert inner.key_spans["k"].line == 3  # the last "k" wins, as json.loads decides ...
    assert [(key, span.line) for key, span in inner.duplicates] == [("k", 2)]  # ... the first is recorded
    assert text[inner.value_spans["é"].offset : inner.value_spans["é"].end_offset] == '"ü"'
    assert inner.key_spans["k"].column == 5 and inner.value_spans["é"].column == 14  # characters, not bytes

    toml = '[producer]\n  "client.id" = "ß"  # c\n  nested = { "x.y" = 1, z = [1,\n 2] }\n[[pools]]\nname = "a"\n'
    data = read_toml(toml, "x.toml")
    producer = data["producer"]
    assert toml[producer.value_spans["client.id"].offset : producer.value_spans["client.id"].end_offset] == '"ß"'
    nested = producer["nested"]
    assert (nested.key_spans["x.y"].line, nested.key_spans["x.y"].column) == (3, 14)
    z = nested.value_spans["z"]
    assert toml[z.offset : z.end_offset] == "[1,\n 2]" and (z.line, z.end_line) == (3, 4)
    assert data["pools"][0].key_spans["name"].line == 6


def test_json_is_read_as_strictly_as_json_loads() -> None:
    import json

    from advisor.sources.structured import read_json

    for text in ('{"a" 1}', "[1 2]", "[1,]", '{"a":1,}', "{,}", '{"a":1 "b":2}', "{1:2}", "[", '{"a":}', "1 2", ""):
        with pytest.raises(json.JSONDecodeError):
            json.loads(text)
        with pytest.raises(LoadError):
            read_json(text, "x.json")
