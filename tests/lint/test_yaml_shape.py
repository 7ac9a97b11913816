"""The one-pass node count used for YAML without aliases refuses exactly what the alias-aware
walk refuses, at the same limits (the walk is the reference: it is what aliased files get)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from advisor.model.document import LoadError
from advisor.sources import limits
from advisor.sources.structured import _check_shape, _check_tree, read_yaml

REPO_ROOT = Path(__file__).resolve().parents[2]


def _document(rng: random.Random, depth: int) -> object:
    if depth == 0 or rng.random() < 0.3:
        return rng.choice(["a", 1, None, "x y"])
    if rng.random() < 0.5:
        return {f"k{i}": _document(rng, depth - 1) for i in range(rng.randint(0, 4))}
    return [_document(rng, depth - 1) for _ in range(rng.randint(0, 4))]


def _verdict(check, node) -> str:  # type: ignore[no-untyped-def]
    try:
        check(node, "f.yaml")
    except LoadError as error:
        return "nested" if "deeper" in error.message else "large"
    return "ok"


@pytest.mark.parametrize("seed", range(40))
def test_without_aliases_the_count_agrees_with_the_alias_aware_walk(seed: int) -> None:
    rng = random.Random(seed)
    text = yaml.safe_dump(_document(rng, rng.randint(1, 9)))
    assert "*" not in text
    node = yaml.compose(text, Loader=yaml.CSafeLoader)
    nodes, depth = rng.randint(1, 60), rng.randint(1, 8)
    # Each limit alone: the same verdict and reason. Both: the same verdict (which of the two
    # reasons is said first follows the walk's order).
    for bound in limits.Limits(yaml_nodes=nodes, depth=1000), limits.Limits(depth=depth), limits.DEFAULTS:
        with limits.using(bound):
            assert _verdict(_check_tree, node) == _verdict(_check_shape, node), (text, bound)
    with limits.using(limits.Limits(yaml_nodes=nodes, depth=depth)):
        assert (_verdict(_check_tree, node) == "ok") == (_verdict(_check_shape, node) == "ok"), text


def test_a_file_with_an_alias_is_still_measured_expanded() -> None:
    """One star in the text and the alias-aware walk judges it: an alias bomb stays refused."""
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{n}: &{n} [{', '.join(['*' + prev] * 10)}]\n" for prev, n in zip("abcde", "bcdef", strict=True)
    )
    with limits.using(limits.Limits(yaml_nodes=10_000)), pytest.raises(LoadError, match="alias bomb"):
        read_yaml(bomb, "bomb.yaml")
    with limits.using(limits.Limits(yaml_nodes=10)), pytest.raises(LoadError, match=r"limits\.yaml-nodes"):
        read_yaml("a: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]\n", "big.yaml")


def _shape(value: object) -> object:
    """A read value with every span, for comparing two reads exactly."""
    from advisor.sources.structured import Located, LocatedList

    if isinstance(value, Located):
        return ("map", value.line, [(k, _shape(v), value.key_spans[k], value.value_spans[k]) for k, v in value.items()],
                value.duplicates)  # fmt: skip
    if isinstance(value, LocatedList):
        return ("list", value.line, [_shape(v) for v in value], value.spans)
    return value


_TRICKY = """\
base: &base
  a: 1
  b: ~
  c: null
  d: "null"
  e: 'NULL'
  f:
  g: yes
  h: 0x1f
  i: 2024-01-02
  j: 1_000
  k: .inf
  l: !!null ""
  m: !!str 5
  n: <<
child:
  <<: *base
  a: 2
multi:
  <<: [*base]
  z: Null
list: [~, '', "", 0o7, -1.5e3, true]
empty_key:
  "": x
  ? ~
  : y
"""


@pytest.mark.parametrize("name", ["tricky", *sorted(
    str(p.relative_to(REPO_ROOT)) for p in (REPO_ROOT / "fixtures").rglob("*.y*ml"))])  # fmt: skip
def test_the_composer_reads_every_file_as_pyyaml_s_safe_loader_does(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """structured._composer resolves only null and merge tags: every value, span, merge and null
    comes out as with PyYAML's full resolver (the reference), for every YAML fixture."""
    from advisor.sources import structured

    text = _TRICKY if name == "tricky" else (REPO_ROOT / name).read_text(encoding="utf-8")
    try:
        ours = [_shape(d) for d in read_yaml(text, name)]
    except LoadError as error:
        ours = [("refused", error.line, error.message)]
    monkeypatch.setattr(structured, "_composer", lambda: yaml.CSafeLoader)
    try:
        reference = [_shape(d) for d in read_yaml(text, name)]
    except LoadError as error:
        reference = [("refused", error.line, error.message)]
    assert ours == reference
