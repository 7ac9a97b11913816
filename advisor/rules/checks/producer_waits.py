"""How long a producer's records and requests wait: in its queue past linger.ms, or for the
brokers' answer; each finding says what the client itself reports beside it (the round trip, a
quota's throttle), which is where the wait most likely comes from."""

from __future__ import annotations

from typing import Any

from advisor.analysis.client_settings import Beside
from advisor.metrics import clients, windows
from advisor.model.observations import Observations, Series
from advisor.rules.checks.metrics import ARGUMENTS, _ordered, _role, _violation, number
from advisor.rules.registry import metric_check
from advisor.rules.violation import Violation


def _latest(observations: Observations, metric: clients.ClientMetric, series: Series) -> float | None:
    """The producer's latest figure of another metric, for the same broker where the client reports
    per broker (librdkafka), else over all of them (Java, kafka-python)."""
    broker = series.label("broker")
    for other in observations.of(metric.id):
        if other.node == series.node and other.label("broker") == broker and other.points:
            return other.points[-1].value
    return None


def _beside(observations: Observations, series: Series) -> str:
    said = []
    if series.metric != clients.REQUEST_LATENCY_AVG.id:
        trip = _latest(observations, clients.REQUEST_LATENCY_AVG, series)
        if trip is not None:
            said.append(f"its requests' round trip averaged {number(trip)} ms")
    throttle = _latest(observations, clients.THROTTLE_TIME_AVG, series)
    if throttle:
        said.append(f"a broker quota throttled it {number(throttle)} ms a response on average (KM011)")
    waiting = _latest(observations, clients.OUTBUF_COUNT, series)
    if waiting:
        said.append(f"{number(waiting)} requests waited to be written to the broker's socket")
    return "".join(f"; {part}" for part in said)


@metric_check((*ARGUMENTS, "setting", "setting_source", "excess", "beside"))
def producer_wait(
    observations: Observations, definition: Any, params: dict[str, Any], beside: Beside
) -> list[Violation]:
    """A producer's wait above `threshold` ms for the window — past the setting `watch.past` names
    (linger.ms, as the producer runs with it: its configuration by client.id, else its library's
    default) where it names one."""
    watch = definition.watch
    past, margin = watch.past, float(params["threshold"])
    window = float(params["sustained_seconds"])
    band = float(margin / 2 if watch.hysteresis is None else watch.hysteresis)
    violations = []
    for series in _ordered(observations.of(watch.metric)):
        setting = beside.clients.value(series.node, "producer", series.library, past) if past else None
        try:
            base = float(setting.value) if setting is not None and setting.value is not None else None
        except ValueError:
            base = None
        if past and base is None:
            continue
        bound = (base or 0.0) + margin
        fires = lambda v, bound=bound: v > bound  # noqa: E731 - the bound, per producer
        clears = lambda v, bound=bound: v <= bound - band  # noqa: E731
        verdict = windows.judge(windows.signal(series), fires, clears, window)
        if verdict is None:
            continue
        violation = _violation(verdict, (series.written, *definition.keys), window, node=series.node,
                               series=series.written, nodes=series.node,
                               setting=setting.value or "" if setting else "",
                               setting_source=setting.source if setting else "",
                               excess=number(verdict.value - (base or 0.0)),
                               beside=_beside(observations, series))  # fmt: skip
        violation.related = (setting.written,) if setting is not None and setting.written else ()
        violation.component, violation.client = _role(series)
        violations.append(violation)
    return violations
