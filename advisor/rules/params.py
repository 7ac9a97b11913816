"""Rule parameters: does a value fit a parameter's schema (type, minimum, maximum)? Shared by
the rule model (a default must fit) and the run session (the project config's `[params.ID]`);
import-light, so a lint run never loads pydantic for it."""

from __future__ import annotations

from advisor import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


def param_problem(param: Any, value: object) -> str | None:
    """Why `value` does not fit the parameter, or None."""
    kind = param["type"] if isinstance(param, dict) else param.type
    low = param.get("minimum") if isinstance(param, dict) else param.minimum
    high = param.get("maximum") if isinstance(param, dict) else param.maximum
    expected = {"integer": int, "number": (int, float), "string": str, "boolean": bool}[kind]
    if isinstance(value, bool) != (kind == "boolean") or not isinstance(value, expected):
        return f"must be a{'n' if kind == 'integer' else ''} {kind}"
    if low is not None and value < low:
        return f"must be at least {low:g}"
    if high is not None and value > high:
        return f"must be at most {high:g}"
    return None
