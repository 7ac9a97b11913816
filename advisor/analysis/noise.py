"""Two sides' samples judged against their noise: each side's median, its noise half the spread of
its samples, and a verdict only when the difference is beyond the larger noise and each side has two
samples or more — one rule for `verify` (metrics before and after) and `bench` (runs of each side),
so the same runs get the same verdict wherever they are judged."""

from __future__ import annotations

import statistics
from typing import Any

from advisor.named_tuple import NamedTuple


class Side(NamedTuple):
    median: float
    noise: float  # half the spread of the samples
    samples: int

    def to_dict(self) -> dict[str, Any]:
        return self._asdict()


def _side(samples: list[float]) -> Side | None:
    if not samples:
        return None
    return Side(statistics.median(samples), (max(samples) - min(samples)) / 2, len(samples))


def compared(before: list[float], after: list[float], better: str) -> tuple[Side | None, Side | None, str, str]:
    """Two sides' samples judged (`better`: up or down): each side's median and noise, the verdict
    and why. One rule for `verify` and `bench`, so that the same runs get the same verdict."""
    old, new = _side(before), _side(after)
    if old is None or new is None:
        return (
            old,
            new,
            "not measured",
            "the metric is missing on " + ("both sides" if old is None and new is None else "one side"),
        )
    if old.samples < 2 or new.samples < 2:
        return old, new, "inconclusive", ("fewer than two samples on a side: no noise bound "
                                          "(capture several scrapes or dumps on each side)")  # fmt: skip
    difference = new.median - old.median
    noise = max(old.noise, new.noise)
    if abs(difference) <= noise:
        return old, new, "inconclusive", f"the change ({difference:+.4g}) is within the noise (±{noise:.4g})"
    improved = (difference > 0) == (better == "up")
    change = f"{difference / old.median:+.0%}" if old.median else f"{difference:+.4g}"
    return old, new, "improved" if improved else "regressed", f"{change}, beyond the noise (±{noise:.4g})"
