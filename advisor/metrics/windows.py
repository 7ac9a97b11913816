"""From points to verdicts: rates from counters, sums across a cluster, sustained conditions.

A meter's count is cumulative, so a current figure is the increase between two samples over
the time between them. A decrease is a restart: the count began again from zero at a moment
between the two samples that they do not tell, so that interval gives no rate (a broker
restarted between two scrapes is not "idle 0" nor "busy"); the events it counted since are still
events (`increase`). A condition is judged at the end of what was observed, with
hysteresis: it begins when `fires` holds and ends only when `clears` holds, and it is a finding
when it has lasted `for_seconds` — or when everything observed is shorter than that and it held
throughout (one snapshot included), which the finding says, with lowered confidence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise

from advisor.model.observations import Series
from advisor.model.provenance import Location, MetricSample
from advisor.named_tuple import NamedTuple


class Signal(NamedTuple):
    time: float | None
    value: float
    place: Location | MetricSample


class Verdict(NamedTuple):
    value: float  # the last value judged
    place: Location | MetricSample  # where that value was read
    time: float | None  # when
    held: float | None  # seconds the condition has lasted at the end; None: one snapshot
    observed: float | None  # seconds from the first signal to the last; None: one snapshot
    samples: int
    sustained: bool  # lasted at least the rule's window


def rates(series: Series) -> list[Signal]:
    """Per-second rates between consecutive timed points of a counter, scaled to its unit; none
    across a restart (the count fell: when it began again is not known)."""
    timed = [point for point in series.points if point.time is not None]
    found = []
    for before, after in pairwise(timed):
        elapsed = after.time - before.time  # type: ignore[operator]
        if elapsed <= 0 or after.value < before.value:
            continue
        found.append(Signal(after.time, (after.value - before.value) / elapsed * series.scale, after.place))
    return found


def signal(series: Series) -> list[Signal]:
    """What a rule judges: a counter's rates, anything else's values. NaN is no value (an average
    of nothing: a quota's throttle time with no requests): passed over, and when the newest point
    is NaN nothing is known now, so nothing is judged."""
    if not series.points or series.points[-1].value != series.points[-1].value:
        return []
    if series.reading == "count":
        return rates(series)
    return [Signal(p.time, p.value, p.place) for p in series.points if p.value == p.value]


def summed(members: Sequence[list[Signal]], combine: Callable[[Iterable[float]], float] = sum) -> list[Signal]:
    """A cluster-wide signal: at each time any member has a value, the sum (or `combine`: max, for
    a count every controller reports alike) of every member's latest value (a member with no value
    yet leaves it unknown, so that time is skipped). Untimed members (single snapshots) combine once."""
    members = [m for m in members if m]
    if not members:
        return []
    if any(s.time is None for m in members for s in m):
        return [Signal(None, combine(m[-1].value for m in members), members[0][-1].place)]
    times = sorted({s.time for m in members for s in m})  # type: ignore[type-var]
    found = []
    for moment in times:
        latest = [next((s for s in reversed(m) if s.time <= moment), None) for m in members]  # type: ignore[operator]
        if all(latest):
            newest = max(latest, key=lambda s: s.time)  # type: ignore[union-attr, return-value]
            found.append(Signal(moment, combine(s.value for s in latest), newest.place))  # type: ignore[union-attr]
    return found


def judge(
    signals: Sequence[Signal],
    fires: Callable[[float], bool],
    clears: Callable[[float], bool],
    for_seconds: float,
) -> Verdict | None:
    """The condition at the end of the signal, or None when it does not hold (or has not yet
    lasted its window while more than the window was observed)."""
    if not signals:
        return None
    last = signals[-1]
    if len(signals) == 1 or last.time is None or signals[0].time is None:  # one snapshot
        return Verdict(last.value, last.place, None, None, None, 1, False) if fires(last.value) else None
    since: float | None = None
    for sample in signals:
        if since is None and fires(sample.value):
            since = sample.time
        elif since is not None and clears(sample.value):
            since = None
    if since is None:
        return None
    held = last.time - since
    observed = last.time - signals[0].time
    if held >= for_seconds:
        return Verdict(last.value, last.place, last.time, held, observed, len(signals), True)
    if since == signals[0].time and observed < for_seconds:  # held throughout a short capture
        return Verdict(last.value, last.place, last.time, held, observed, len(signals), False)
    return None


def increase(series: Series) -> Verdict | None:
    """Events counted over everything observed (a decrease is a restart, counted from zero): the
    increase, at the last point, with the span; None without two timed points."""
    timed = [point for point in series.points if point.time is not None]
    if len(timed) < 2:
        return None
    total = sum(b.value - a.value if b.value >= a.value else b.value for a, b in pairwise(timed))
    span = timed[-1].time - timed[0].time  # type: ignore[operator]
    return Verdict(total * series.scale, timed[-1].place, timed[-1].time, span, span, len(timed), True)
