"""JMESPath functions for rule predicates: numbers, sizes, durations, booleans, lists.

Plain functions, used by the compiled predicates (rules/predicate.py); `OPTIONS` registers
the same functions with jmespath's interpreter (rule validation and rarely used node types),
built on first use.
"""

from __future__ import annotations

from functools import cache

from advisor import TYPE_CHECKING
from advisor.analysis.units import to_bool, to_bytes, to_ms, to_number

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "add",
    "csv",
    "div",
    "lower",
    "mul",
    "to_bool",
    "to_bytes",
    "to_ms",
    "to_number",
]  # and OPTIONS, built lazily


def lower(value: Any) -> str | None:
    return value.lower() if isinstance(value, str) else None


def add(left: Any, right: Any) -> float | None:
    a, b = to_number(left), to_number(right)
    return None if a is None or b is None else a + b


def mul(left: Any, right: Any) -> float | None:
    a, b = to_number(left), to_number(right)
    return None if a is None or b is None else a * b


def div(left: Any, right: Any) -> float | None:
    a, b = to_number(left), to_number(right)
    return None if a is None or not b else a / b


def csv(value: Any) -> list[Any]:
    """'a, b,c' -> ['a', 'b', 'c'] (Kafka LIST values)."""
    if isinstance(value, list):
        return value
    return [part.strip() for part in value.split(",") if part.strip()] if isinstance(value, str) else []


@cache
def _options() -> Any:
    """jmespath's interpreter with the rules' functions: for validation and the node types the
    compiled predicates leave to it. Built on first use: a lint imports no jmespath at all."""
    import jmespath
    from jmespath import functions

    class AdvisorFunctions(functions.Functions):
        @functions.signature({"types": []})
        def _func_num(self, value: Any) -> float | None:
            return to_number(value)

        @functions.signature({"types": []})
        def _func_bytes(self, value: Any) -> float | None:
            return to_bytes(value)

        @functions.signature({"types": []})
        def _func_ms(self, value: Any) -> float | None:
            return to_ms(value)

        @functions.signature({"types": []})
        def _func_bool(self, value: Any) -> bool | None:
            return to_bool(value)

        @functions.signature({"types": []})
        def _func_lower(self, value: Any) -> str | None:
            return lower(value)

        @functions.signature({"types": []}, {"types": []})
        def _func_add(self, left: Any, right: Any) -> float | None:
            return add(left, right)

        @functions.signature({"types": []}, {"types": []})
        def _func_mul(self, left: Any, right: Any) -> float | None:
            return mul(left, right)

        @functions.signature({"types": []}, {"types": []})
        def _func_div(self, left: Any, right: Any) -> float | None:
            return div(left, right)

        @functions.signature({"types": []})
        def _func_csv(self, value: Any) -> list[Any]:
            return csv(value)

    return jmespath.Options(custom_functions=AdvisorFunctions())


def __getattr__(name: str) -> Any:
    if name == "OPTIONS":
        return _options()
    raise AttributeError(name)
