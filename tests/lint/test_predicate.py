"""The compiled predicates (advisor/rules/predicate.py) give what jmespath's interpreter gives,
for every rule, over the context of every config set in the fixtures — and over the same
contexts with hostile values written in (templated, empty, nan, huge, lists) — except where
the interpreter raises, where the compiled predicate is null instead of a crash."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import jmespath
import pytest

from advisor.report.session import RunRequest, run
from advisor.rules import context as rule_context
from advisor.rules.functions import OPTIONS
from advisor.rules.predicate import compile_predicate
from advisor.rules.registry import load_rules

REPO_ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ["${FETCH_MAX_BYTES}", "", "nan", "-Infinity", "1e400", "abc", "-1", "0", "9" * 40, "true", "[a, b]"]


@pytest.fixture(scope="module")
def contexts() -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    build = rule_context.build

    def recording(*args: Any, **kwargs: Any) -> dict[str, Any]:
        values = build(*args, **kwargs)
        seen.append(values)
        return values

    rule_context.build = recording  # type: ignore[assignment]
    try:
        for unit in ("rules", "realworld", "demo"):
            run(RunRequest(paths=(REPO_ROOT / "fixtures" / unit,)))
    finally:
        rule_context.build = build  # type: ignore[assignment]
    return [copy.deepcopy(values) for values in seen]


def _hostile(values: dict[str, Any], replacement: Any) -> dict[str, Any]:
    changed = copy.deepcopy(values)
    for section in ("set", "effective"):
        part = changed.get(section) or {}
        for key in part:
            part[key] = replacement
    return changed


def _agree(expression: str, compiled: Any, values: dict[str, Any]) -> None:
    try:
        expected = jmespath.search(expression, values, options=OPTIONS)
    except (jmespath.exceptions.JMESPathTypeError, TypeError):
        assert not compiled(values), expression  # unknown, never a verdict and never a crash
        return
    actual = compiled(values)
    assert (type(actual), actual) == (type(expected), expected), expression


def test_compiled_predicates_agree_with_the_interpreter(contexts: list[dict[str, Any]]) -> None:
    rules = [rule for rule in load_rules() if rule.definition.when]
    assert len(contexts) > 200 and len(rules) > 60
    held = 0
    for rule in rules:
        compiled = compile_predicate(rule.definition.when)
        for values in contexts:
            values = dict(values, params=rule.definition.param_values(None))
            _agree(rule.definition.when, compiled, values)
            held += bool(compiled(values))
    assert held > 50  # the contexts make rules hold, not only fail


@pytest.mark.parametrize("replacement", [*HOSTILE, 1e308, float("nan"), [], {"a": 1}, None, True, 7])
def test_hostile_values_agree_or_are_unknown(contexts: list[dict[str, Any]], replacement: Any) -> None:
    rules = [rule for rule in load_rules() if rule.definition.when]
    for values in contexts[::7]:
        changed = _hostile(values, replacement)
        for rule in rules:
            when = rule.definition.when
            _agree(when, compile_predicate(when), dict(changed, params=rule.definition.param_values(None)))


@pytest.mark.parametrize(
    ("expression", "data", "expected"),
    [
        ("a < b", {"a": 1, "b": "x"}, None),  # the interpreter raises TypeError here
        ("contains(a, `1`)", {"a": "text"}, None),  # and here
        ("length(a)", {"a": 5}, None),
        ("max(a)", {"a": [1, "x"]}, None),
        ("!a", {"a": 0}, False),  # 0 is true in JMESPath
        ("a == `true`", {"a": 1}, False),  # and 1 is not true
        ("a || b", {"a": [], "b": "x"}, "x"),
        ("a && b", {"a": {}, "b": "x"}, {}),
        ("x.y.z", {"x": {"y": "s"}}, None),
        ("[a, b]", {"a": 1}, [1, None]),
        ("items[?v > `1`].v", {"items": [{"v": 1}, {"v": 2}]}, [2]),
    ],
)
def test_jmespath_semantics_kept_and_type_errors_unknown(expression: str, data: Any, expected: Any) -> None:
    assert compile_predicate(expression)(data) == expected
