"""A rule's `when` predicate compiled from its JMESPath syntax tree into Python closures.

jmespath's tree interpreter dispatches on a dict per node and validates every function call's
arguments against a signature: two thirds of the rules' time on a large run. The closures do
the same work without either. Semantics are jmespath 1.1's (field access on non-objects gives
null, ordering only between two numbers or two strings, JMESPath equality where 0 and 1 are
not false and true, and/or/not by JMESPath truth), with one difference on purpose: where the
interpreter raises (a function given a value of the wrong type, a number ordered against a
string), the closure gives null, so a templated or malformed value makes a predicate unknown,
never a crash. Node types the rules do not use fall back to the interpreter for that subtree.
tests/lint/test_predicate.py compares both on every rule over every fixture's context.
"""

from __future__ import annotations

import operator
from collections.abc import Callable

from advisor import TYPE_CHECKING
from advisor.analysis.units import to_bool, to_bytes, to_ms, to_number
from advisor.rules.functions import add, csv, div, lower, mul

if TYPE_CHECKING:
    from typing import Any

Evaluate = Callable[["Any"], "Any"]

_ORDERING = {"lt": operator.lt, "gt": operator.gt, "lte": operator.le, "gte": operator.ge}


def _false(value: Any) -> bool:
    """JMESPath falsehood: empty string, list or object, null and false (0 is true)."""
    return value is None or value is False or value == "" or value == [] or value == {}


def _number(value: Any) -> bool:
    """A JMESPath number: an int or float, not a bool (rule contexts hold no other numbers)."""
    kind = type(value)
    return kind is int or kind is float or (isinstance(value, (int, float)) and kind is not bool)


def _equals(left: Any, right: Any) -> bool:
    """JMESPath equality: 0 and 1 never equal false and true (Python says they do)."""
    if type(left) is bool or type(right) is bool:
        return type(left) is type(right) and left == right
    return left == right


def _contains(subject: Any, search: Any) -> Any:
    if isinstance(subject, list):
        return search in subject
    if isinstance(subject, str) and isinstance(search, str):
        return search in subject
    return None


def _length(value: Any) -> Any:
    return len(value) if isinstance(value, (str, list, dict)) else None


def _extreme(pick: Callable[[list[Any]], Any]) -> Callable[[Any], Any]:
    def extreme(values: Any) -> Any:
        if not isinstance(values, list):
            return None
        if not values:
            return None
        if all(_number(v) for v in values) or all(isinstance(v, str) for v in values):
            return pick(values)
        return None

    return extreme


# name -> (function, number of arguments): the rules' own functions and the jmespath built-ins they use.
FUNCTIONS: dict[str, tuple[Callable[..., Any], int]] = {
    "num": (to_number, 1),
    "bytes": (to_bytes, 1),
    "ms": (to_ms, 1),
    "bool": (to_bool, 1),
    "lower": (lower, 1),
    "add": (add, 2),
    "mul": (mul, 2),
    "div": (div, 2),
    "csv": (csv, 1),
    "contains": (_contains, 2),
    "length": (_length, 1),
    "max": (_extreme(max), 1),
    "min": (_extreme(min), 1),
}


def compile_predicate(expression: str) -> Evaluate:
    import jmespath

    return compile_tree(jmespath.compile(expression).parsed)


def _field_path(node: dict[str, Any]) -> list[str] | None:
    """The field names of a subexpression made of fields alone (`a.b.c`), else None."""
    if node["type"] == "field":
        return [node["value"]]
    if node["type"] != "subexpression":
        return None
    names: list[str] = []
    for child in node.get("children", []):
        part = _field_path(child)
        if part is None:
            return None
        names += part
    return names


def _fields(names: list[str]) -> Evaluate:
    """`a.b…`: each field of the object before it; null once one is not an object."""
    if len(names) == 2:
        first, second = names

        def two_fields(value: Any) -> Any:
            if isinstance(value, dict):
                value = value.get(first)
                if isinstance(value, dict):
                    return value.get(second)
            return None

        return two_fields
    path = tuple(names)

    def fields(value: Any) -> Any:
        for name in path:
            if not isinstance(value, dict):
                return None
            value = value.get(name)
        return value

    return fields


def _compared_to_constant(comparator: str, left: Evaluate, constant: Any) -> Evaluate:
    """A comparison with a literal: as compile_tree's, the constant's type checked once."""
    if comparator == "eq":
        return lambda value: _equals(left(value), constant)
    if comparator == "ne":
        return lambda value: not _equals(left(value), constant)
    compare = _ORDERING[comparator]
    if _number(constant):

        def ordering_number(value: Any) -> Any:
            a = left(value)
            return compare(a, constant) if _number(a) else None

        return ordering_number
    if isinstance(constant, str):

        def ordering_string(value: Any) -> Any:
            a = left(value)
            return compare(a, constant) if isinstance(a, str) else None

        return ordering_string
    return lambda value: None  # an ordering with a constant neither number nor string: null


def compile_tree(node: dict[str, Any]) -> Evaluate:
    kind = node["type"]
    children = node.get("children", [])
    if kind == "field":
        name = node["value"]

        def field(value: Any) -> Any:
            return value.get(name) if isinstance(value, dict) else None

        return field
    if kind == "subexpression":
        names = _field_path(node)
        if names is not None:  # `effective."acks"`: one function, not a closure per step
            return _fields(names)
        steps = [compile_tree(child) for child in children]

        def subexpression(value: Any) -> Any:
            for step in steps:
                value = step(value)
            return value

        return subexpression
    if kind == "literal":
        constant = node["value"]
        return lambda value: constant
    if kind in ("identity", "current"):
        return lambda value: value
    if kind == "comparator":
        left, right = (compile_tree(child) for child in children)
        if children[1]["type"] == "literal":  # `... == 'all'`, `... < 2`: the constant taken as it is
            return _compared_to_constant(node["value"], left, children[1]["value"])
        if node["value"] == "eq":
            return lambda value: _equals(left(value), right(value))
        if node["value"] == "ne":
            return lambda value: not _equals(left(value), right(value))
        compare = _ORDERING[node["value"]]

        def ordering(value: Any) -> Any:
            a, b = left(value), right(value)
            if (_number(a) and _number(b)) or (isinstance(a, str) and isinstance(b, str)):
                return compare(a, b)
            return None

        return ordering
    if kind == "and_expression":
        first, second = (compile_tree(child) for child in children)

        def conjunction(value: Any) -> Any:
            matched = first(value)
            return matched if _false(matched) else second(value)

        return conjunction
    if kind == "or_expression":
        first, second = (compile_tree(child) for child in children)

        def disjunction(value: Any) -> Any:
            matched = first(value)
            return second(value) if _false(matched) else matched

        return disjunction
    if kind == "not_expression":
        (inner,) = (compile_tree(child) for child in children)

        def negation(value: Any) -> Any:
            result = inner(value)
            if _number(result) and result == 0:
                return False  # !0 is false: 0 is true in JMESPath
            return not result

        return negation
    if kind == "function_expression" and node["value"] in FUNCTIONS:
        function, arity = FUNCTIONS[node["value"]]
        if len(children) != arity:
            from jmespath.exceptions import ArityError

            raise ArityError(arity, len(children), node["value"])
        arguments = [compile_tree(child) for child in children]
        if arity == 1:
            (only,) = arguments
            return lambda value: function(only(value))
        first, second = arguments
        return lambda value: function(first(value), second(value))
    if kind == "multi_select_list":
        items = [compile_tree(child) for child in children]
        return lambda value: None if value is None else [item(value) for item in items]
    return _interpreted(node)


def _interpreted(node: dict[str, Any]) -> Evaluate:
    """A node type the rules hardly use (filters, projections): jmespath's own interpreter,
    imported when such a node is first evaluated, with its type errors turned into null like
    the compiled nodes."""
    interpreter: list[Any] = []

    def interpreted(value: Any) -> Any:
        from jmespath.exceptions import JMESPathTypeError

        if not interpreter:
            from jmespath.visitor import TreeInterpreter

            from advisor.rules.functions import OPTIONS

            interpreter.append(TreeInterpreter(OPTIONS))
        try:
            return interpreter[0].visit(node, value)
        except (JMESPathTypeError, TypeError):
            return None

    return interpreted
