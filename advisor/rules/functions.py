"""JMESPath functions for rule predicates: numbers, sizes, durations, booleans, lists."""

from __future__ import annotations

from typing import Any

import jmespath
from jmespath import functions

from advisor.analysis.units import to_bool, to_bytes, to_ms, to_number

__all__ = ["OPTIONS", "to_bool", "to_bytes", "to_ms", "to_number"]


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
        return value.lower() if isinstance(value, str) else None

    @functions.signature({"types": []}, {"types": []})
    def _func_add(self, left: Any, right: Any) -> float | None:
        a, b = to_number(left), to_number(right)
        return None if a is None or b is None else a + b

    @functions.signature({"types": []}, {"types": []})
    def _func_mul(self, left: Any, right: Any) -> float | None:
        a, b = to_number(left), to_number(right)
        return None if a is None or b is None else a * b

    @functions.signature({"types": []}, {"types": []})
    def _func_div(self, left: Any, right: Any) -> float | None:
        a, b = to_number(left), to_number(right)
        return None if a is None or not b else a / b

    @functions.signature({"types": []})
    def _func_csv(self, value: Any) -> list[str]:
        """'a, b,c' -> ['a', 'b', 'c'] (Kafka LIST values)."""
        if isinstance(value, list):
            return value
        return [part.strip() for part in value.split(",") if part.strip()] if isinstance(value, str) else []


OPTIONS = jmespath.Options(custom_functions=AdvisorFunctions())


def compile_expression(expression: str) -> Any:
    return jmespath.compile(expression)
