"""Kafka values as numbers: plain numbers, sizes with units (Spring, Helm), durations, booleans."""

from __future__ import annotations

import math
import re

from advisor import TYPE_CHECKING, lazy_re

if TYPE_CHECKING:
    from typing import Any

_SIZE = lazy_re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*([kmgt]?i?b?)?\s*$", re.IGNORECASE)
_SIZE_FACTORS = {"": 1, "b": 1, "k": 1024, "kb": 1024, "kib": 1024, "m": 1024**2, "mb": 1024**2, "mib": 1024**2}
_SIZE_FACTORS |= {"g": 1024**3, "gb": 1024**3, "gib": 1024**3, "t": 1024**4, "tb": 1024**4, "tib": 1024**4}
_DURATION = lazy_re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$", re.IGNORECASE)
_DURATION_FACTORS = {None: 1, "ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}


def to_number(value: Any) -> float | None:
    """A finite number, or None: nan, infinities, overflow (1e400) and Python-only spellings
    (1_000) are no number a Kafka setting takes (Java's parsers refuse the underscore)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, str):
        text = value.strip()
        if "_" in text:
            return None
        try:
            number = float(text)
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return None


def to_count(value: Any) -> int | None:
    """A whole number (replicas, broker ids, sizes as written), or None: never raises on
    templated, empty, fractional or non-finite values."""
    number = to_number(value)
    if number is None or number != int(number):
        return None
    return int(number)


def _finite(number: float) -> float | None:
    return number if math.isfinite(number) else None


def to_bytes(value: Any) -> float | None:
    """'1048576', '1MB', '512KiB' -> bytes (sizes in Spring and Helm use units)."""
    number = to_number(value)
    if number is not None or not isinstance(value, str):
        return number
    match = _SIZE.match(value)
    if not match or match.group(2).lower() not in _SIZE_FACTORS:
        return None
    return _finite(float(match.group(1)) * _SIZE_FACTORS[match.group(2).lower()])


def to_ms(value: Any) -> float | None:
    """'30000', '30s', '5m' -> milliseconds (plain numbers are already ms)."""
    number = to_number(value)
    if number is not None or not isinstance(value, str):
        return number
    match = _DURATION.match(value)
    if not match:
        return None
    return _finite(float(match.group(1)) * _DURATION_FACTORS[match.group(2).lower() if match.group(2) else None])


def to_bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return None
