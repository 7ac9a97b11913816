"""Answers to `advise`'s questions, written the way people write them: `200B`, `1.5 MiB`, `40MB/s`,
`20k msg/s`, `10ms`, `none`. Each parser returns the profile field and its value, or raises
`BadAnswer` with what was expected — the prompt says it and asks again.

Sizes: B, kB/KB, MB, GB are powers of 1000 and KiB, MiB, GiB powers of 1024, as IEC 80000-13
and the load profile's MB/s (10^6 bytes) count them; a bare number is bytes (a rate: MB/s).
"""

from __future__ import annotations

import math
import re

from advisor import lazy_re

_NUMBER = r"(\d{1,15}(?:[.,]\d{1,15})?|[.,]\d{1,15})"
_ANSWER = lazy_re.compile(rf"^\s*{_NUMBER}\s*([a-z/ ]*?)\s*$", re.IGNORECASE)
_SI = {"": 1, "b": 1, "k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9, "t": 1e12, "tb": 1e12}
_IEC = {"kib": 1024, "mib": 1024**2, "gib": 1024**3, "tib": 1024**4}
_SIZES = {**_SI, **_IEC}
_RECORDS = {"msg/s", "msgs/s", "records/s", "record/s", "rec/s", "messages/s", "message/s", "rps"}
_RECORD_STEPS = {"": 1, "k": 1e3, "m": 1e6}
_DURATIONS = {"": 1.0, "ms": 1.0, "s": 1000.0, "sec": 1000.0, "m": 60_000.0, "min": 60_000.0}
NO_TARGET = ("none", "no", "-", "no target")


class BadAnswer(ValueError):
    """What was wrong with an answer and what is expected instead (shown before the question again)."""


def _split(text: str, expected: str) -> tuple[float, str]:
    """The number and the unit (lower case, spaces out) of an answer."""
    if text.strip().startswith("-"):
        raise BadAnswer(f"{text.strip()[:40]!r} is below 0{expected}")
    match = _ANSWER.match(text)
    if not match:
        raise BadAnswer(f"{text.strip()[:40]!r} is not a number{expected}")
    written = match.group(1)
    # 1,000 is a thousand (a separator before three digits); 1,5 MiB has a decimal comma.
    written = written.replace(",", "") if re.fullmatch(r"\d+,\d{3}", written) else written.replace(",", ".")
    number = float(written)
    if not math.isfinite(number):
        raise BadAnswer(f"{text.strip()[:40]!r} is not a finite number{expected}")
    return number, re.sub(r"\s+", "", match.group(2)).lower()


def _scaled(text: str, expected: str, units: dict[str, float], kind: str) -> float:
    """The answer's number in the base unit of `units`."""
    number, unit = _split(text, expected)
    factor = units.get(unit)
    if factor is None:
        raise BadAnswer(f"unknown {kind} unit {unit!r}{expected}")
    return number * factor


def size(text: str) -> int:
    """A record size in bytes: `200`, `200B`, `1.5 MiB`, `2kB`."""
    expected = " (a size: 200, 200B, 4 KiB, 1.5 MiB, 2 MB)"
    value = _scaled(text, expected, _SIZES, "size")
    if value < 1:
        raise BadAnswer(f"a record of {text.strip()} is less than one byte{expected}")
    return round(value)


def rate(text: str) -> tuple[str, float]:
    """The average rate in: (`rate_mb_s`, MB/s) from `40`, `40MB/s`, `500 KB/s`, `1.2 GiB/s`, or
    (`rate_msgs_s`, records/s) from `20000 msg/s`, `20k records/s`."""
    expected = " (a rate: 40, 40 MB/s, 500 KB/s, 20k msg/s)"
    number, unit = _split(text, expected)
    for step, factor in _RECORD_STEPS.items():  # 20k msg/s
        if unit.startswith(step) and unit[len(step) :] in _RECORDS:
            if number * factor <= 0:
                raise BadAnswer(f"a rate must be above 0{expected}")
            return "rate_msgs_s", number * factor
    per = unit.removesuffix("/s") or "mb"  # the question asks MB/s: a bare number, or `40 MB`, is that
    size = _SIZES.get(per)
    if size is None:
        raise BadAnswer(f"unknown rate unit {unit!r}{expected}")
    if number * size <= 0:
        raise BadAnswer(f"a rate must be above 0{expected}")
    return "rate_mb_s", number * size / 1e6


def duration_ms(text: str) -> float | None:
    """An end-to-end p99 target in ms: `10ms`, `1.5 s`, `250` (ms); None for no target (`none`)."""
    if text.strip().lower() in NO_TARGET:
        return None
    value = _scaled(text, " (a duration: 10ms, 250 ms, 1.5s — or none)", _DURATIONS, "duration")
    if value <= 0:
        raise BadAnswer("a p99 target must be above 0 ms (a duration: 10ms, 250 ms, 1.5s — or none)")
    return value


def choice(text: str, options: tuple[str, ...]) -> str:
    """One of `options`, or an unambiguous start of one (`thr` for throughput)."""
    word = text.strip().lower()
    found = [option for option in options if option == word] or [o for o in options if word and o.startswith(word)]
    if len(found) != 1:
        raise BadAnswer(f"{text.strip()!r} is not one of {', '.join(options)}")
    return found[0]
