"""A YAML mapping makes its spans from the nodes only when asked (spans.Located): asking one key
at a time gives what the whole span dicts give, a pickled or copied mapping carries the spans
(not the nodes), and merge keys and keys written twice keep the spans they had."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import pytest

from advisor.sources.spans import Located, LocatedList
from advisor.sources.structured import read_yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
YAML_FILES = sorted(p for p in (REPO_ROOT / "fixtures").rglob("*") if p.suffix in (".yaml", ".yml"))


def _mappings(value: object) -> list[Located]:
    found: list[Located] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Located):
            found.append(item)
            stack += list(item.values())
        elif isinstance(item, LocatedList):
            stack += list(item)
    return found


def _read(path: Path) -> list[object]:
    try:
        return read_yaml(path.read_text(), str(path))
    except Exception:  # noqa: BLE001 - fixtures of broken YAML are read elsewhere
        return []


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_one_key_at_a_time_gives_what_the_span_dicts_give(path: Path) -> None:
    asked = {}
    documents = _read(path)
    mappings = [m for document in documents for m in _mappings(document)]
    for mapping in mappings:
        assert mapping._key_spans is None  # nothing made yet
        asked[id(mapping)] = {key: (mapping.key_location(key, "p"), mapping.value_location(key, "p"),
                                    mapping.position(key)) for key in mapping}  # fmt: skip
    for mapping in mappings:
        made = {key: (mapping.key_spans[key].at("p"), mapping.value_spans[key].at("p"),
                      (mapping.key_spans[key].line, mapping.key_spans[key].column)) for key in mapping}  # fmt: skip
        assert asked[id(mapping)] == made
        assert set(mapping.key_spans) == set(mapping) == set(mapping.value_spans)
        assert mapping._nodes is None  # made once: the dicts are what is kept
        assert {key: mapping.key_location(key, "p") for key in mapping} == {k: v[0] for k, v in made.items()}


def test_pickled_and_copied_mappings_carry_their_spans_not_their_nodes() -> None:
    text = "base: &b\n  x: 1\n  y: [a, b]\nuse:\n  <<: *b\n  z: '3'\n"
    (document,) = read_yaml(text, "f.yaml")
    for clone in (pickle.loads(pickle.dumps(document)), copy.deepcopy(document)):
        assert clone == document
        assert "_nodes" not in vars(clone) or clone._nodes is None
        for original, cloned in zip(_mappings(document), _mappings(clone), strict=True):
            assert cloned.key_spans == original.key_spans and cloned.value_spans == original.value_spans
            assert cloned.line == original.line
    assert b"Mark" not in pickle.dumps(document)  # no yaml node or mark crossed


def test_merged_keys_point_at_the_anchor_and_a_key_written_twice_is_remembered() -> None:
    text = "base: &b\n  x: 1\nuse:\n  <<: *b\n  z: 2\n  z: 3\n"
    (document,) = read_yaml(text, "f.yaml")
    use = document["use"]
    assert use.position("x") == (2, 3)  # where the anchor wrote it
    assert use.value_location("z", "f.yaml").line == 6 and use["z"] == "3"
    assert [(key, span.line) for key, span in use.duplicates] == [("z", 5)]
    assert use.key_location("absent", "f.yaml").line == use.line == 4


def test_a_key_added_after_reading_is_located_at_its_mapping() -> None:
    (document,) = read_yaml("a:\n  b: 1\n", "f.yaml")
    inner = document["a"]
    inner["c"] = "2"  # as a reader filling a default in would
    assert inner.key_location("c", "f.yaml").line == inner.line == 2
    assert inner.value_location("c", "f.yaml") is None
