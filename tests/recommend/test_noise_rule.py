"""The rule `verify` and `bench` judge two sides by (advisor/analysis/noise.py): identical sides
(an A/A comparison) get a verdict at most at the test's 5 %, however few the samples — the
half-spread rule alone called ~45 % of A/A pairs of two samples "improved" or "regressed"."""

from __future__ import annotations

import itertools
import math
import random

from advisor.analysis.noise import compared, rank_p_value


def test_identical_sides_rarely_get_a_verdict() -> None:
    rng = random.Random(29)
    for samples in (2, 3, 4, 6):
        verdicts = 0
        for _ in range(3000):
            a = [rng.lognormvariate(0, 0.6) for _ in range(samples)]
            b = [rng.lognormvariate(0, 0.6) for _ in range(samples)]
            verdicts += compared(a, b, "up")[2] != "inconclusive"
        assert verdicts / 3000 <= 0.05, (samples, verdicts)
        if samples < 4:
            assert verdicts == 0


def test_exact_p_value_matches_enumeration() -> None:
    """Against a count over every way of ordering the pooled samples."""
    before, after = [3.0, 5.0, 9.0], [4.0, 8.0, 10.0, 11.0]
    pooled = before + after
    observed = sum(a > b for a in after for b in before)
    extreme = max(observed, len(before) * len(after) - observed)
    count = 0
    for chosen in itertools.combinations(range(len(pooled)), len(after)):
        rest = [pooled[i] for i in range(len(pooled)) if i not in chosen]
        u = sum(pooled[i] > b for i in chosen for b in rest)
        count += u >= extreme or u <= len(before) * len(after) - extreme
    assert math.isclose(rank_p_value(before, after), count / math.comb(len(pooled), len(after)))


def test_a_real_shift_is_found() -> None:
    rng = random.Random(5)
    before = [rng.gauss(100, 3) for _ in range(5)]
    after = [x * 1.5 for x in before]
    assert compared(before, after, "up")[2] == "improved"
    assert compared(before, after, "down")[2] == "regressed"
    many = [rng.gauss(100, 5) for _ in range(60)], [rng.gauss(130, 5) for _ in range(60)]
    assert compared(*many, "up")[2] == "improved" and rank_p_value(*many) < 1e-6  # the normal approximation
