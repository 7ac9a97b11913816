"""Two sides' samples judged against their noise: each side's median, its noise half the spread of
its samples, and a verdict only when the difference is beyond the larger noise AND the samples of
one side rank beyond the other's more than chance would (an exact rank test, Mann-Whitney's U, at
5 % two-sided) — one rule for `verify` (metrics before and after) and `bench` (runs of each side),
so the same runs get the same verdict wherever they are judged.

Why both: the spread of two or three runs understates the noise. Two identical configurations
benchmarked A B A B (an A/A run) differ "beyond the larger half-spread" in about 45 % of figures
with two runs a side and 25 % with three (simulated; seen on the test cluster as a p99.9
"regression" between equal settings). The rank test needs four runs a side that all beat the
other side's four (p = 2/70) — with fewer, no verdict, whatever the medians."""

from __future__ import annotations

import math
import statistics
from functools import lru_cache
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
    chance = rank_p_value(before, after)
    if chance > SIGNIFICANCE:
        why = (f"the change ({difference:+.4g}) could be chance: the samples do not rank apart enough "
               f"(p = {chance:.2g} with {old.samples} and {new.samples}; {MIN_SAMPLES_FOR_A_VERDICT} a side that "
               "all beat the other's can)")  # fmt: skip
        return old, new, "inconclusive", why
    improved = (difference > 0) == (better == "up")
    change = f"{difference / old.median:+.0%}" if old.median else f"{difference:+.4g}"
    return old, new, "improved" if improved else "regressed", f"{change}, beyond the noise (±{noise:.4g})"


SIGNIFICANCE = 0.05
MIN_SAMPLES_FOR_A_VERDICT = 4  # 4 against 4, wholly apart: p = 2/70 ≈ 0.029
_EXACT_UP_TO = 40  # samples on both sides together; beyond, the normal approximation


def rank_p_value(before: list[float], after: list[float]) -> float:
    """Two-sided p of Mann-Whitney's U: how often samples ranked this far apart would arise if both
    sides came from one distribution. A tie counts half to each side."""
    n, m = len(before), len(after)
    u = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in after for b in before)
    extreme = max(u, n * m - u)  # the further tail, by symmetry
    if n + m <= _EXACT_UP_TO:
        counts = _u_counts(n, m)
        tail = sum(count for value, count in enumerate(counts) if value >= math.ceil(extreme))
        return min(1.0, 2 * tail / math.comb(n + m, n))
    mean, sd = n * m / 2, math.sqrt(n * m * (n + m + 1) / 12)
    z = (extreme - 0.5 - mean) / sd  # continuity-corrected
    return min(1.0, math.erfc(z / math.sqrt(2)))


@lru_cache(maxsize=1024)
def _u_counts(n: int, m: int) -> tuple[int, ...]:
    """How many of the C(n+m, n) orderings of n and m samples give each value of U (0 … n·m)."""
    if n == 0 or m == 0:
        return (1,)
    with_last_after = _u_counts(n, m - 1)  # the largest sample is an after one: it beats all n befores
    with_last_before = _u_counts(n - 1, m)
    counts = [0] * (n * m + 1)
    for value, count in enumerate(with_last_before):
        counts[value] += count
    for value, count in enumerate(with_last_after):
        counts[value + n] += count
    return tuple(counts)
