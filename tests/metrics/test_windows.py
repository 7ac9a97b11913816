"""Rates from counters, cluster sums, and conditions judged over a window with hysteresis."""

from __future__ import annotations

from advisor.metrics import windows
from advisor.model.observations import Point, Series
from advisor.model.provenance import Location


def series(values: list[tuple[float | None, float]], reading: str = "value", scale: float = 1.0) -> Series:
    found = Series("m", reading, "node", None, (), "m", scale)
    found.points = [Point(t, v, Location("f.prom", line)) for line, (t, v) in enumerate(values, start=1)]
    return found


def above(limit: float):  # type: ignore[no-untyped-def]
    return (lambda v: v > limit), (lambda v: v <= limit)


def test_a_counter_s_rates_apply_its_unit_and_give_none_across_a_restart() -> None:
    counter = series([(0, 100), (10, 150), (20, 30), (30, 30)], reading="count", scale=0.5)
    # 150 -> 30: the broker restarted between 10 s and 20 s, at a moment the samples do not tell
    assert [(s.time, s.value) for s in windows.rates(counter)] == [(10, 2.5), (30, 0.0)]
    assert windows.increase(counter).value == (50 + 30 + 0) * 0.5  # type: ignore[union-attr]  # events still count
    assert windows.rates(series([(None, 5)], reading="count")) == []


def test_a_condition_must_last_its_window_at_the_end() -> None:
    fires, clears = above(0)
    lasting = windows.signal(series([(0, 0), (30, 2), (60, 2), (90, 3)]))
    verdict = windows.judge(lasting, fires, clears, 60)
    assert verdict is not None and verdict.sustained and verdict.held == 60 and verdict.value == 3
    assert verdict.place.line == 4  # the last sample judged
    assert windows.judge(lasting, fires, clears, 61) is None  # began at 30 s of a 90 s capture: not yet
    cleared = windows.signal(series([(0, 2), (30, 2), (60, 0)]))
    assert windows.judge(cleared, fires, clears, 10) is None


def test_a_short_capture_that_held_throughout_is_a_finding_that_says_so() -> None:
    fires, clears = above(0)
    verdict = windows.judge(windows.signal(series([(0, 1), (20, 1)])), fires, clears, 60)
    assert verdict is not None and not verdict.sustained and verdict.observed == 20
    snapshot = windows.judge(windows.signal(series([(None, 1)])), fires, clears, 60)
    assert snapshot is not None and snapshot.held is None and not snapshot.sustained


def test_hysteresis_keeps_a_condition_that_wobbles_near_its_threshold() -> None:
    fires, clears = (lambda v: v < 0.3), (lambda v: v >= 0.35)
    wobbling = windows.signal(series([(0, 0.2), (60, 0.32), (120, 0.25), (180, 0.31)]))
    verdict = windows.judge(wobbling, fires, clears, 180)
    assert verdict is not None and verdict.held == 180
    without = windows.judge(wobbling, fires, lambda v: v >= 0.3, 180)
    assert without is None  # without the band, every wobble would restart the window


def test_nan_is_no_value_and_a_nan_now_means_nothing_is_known_now() -> None:
    nan = float("nan")
    assert [s.value for s in windows.signal(series([(0, 5), (30, nan), (60, 7)]))] == [5, 7]
    assert windows.signal(series([(0, 500), (30, nan)])) == []  # throttled once, no requests since


def test_a_cluster_sum_uses_each_node_s_latest_value_and_waits_for_every_node() -> None:
    a = windows.signal(series([(0, 1), (60, 1)]))
    b = windows.signal(series([(30, 1), (60, 0)]))
    assert [(s.time, s.value) for s in windows.summed([a, b])] == [(30, 2), (60, 1)]
    assert [s.value for s in windows.summed([windows.signal(series([(None, 1)])), b])] == [1]
