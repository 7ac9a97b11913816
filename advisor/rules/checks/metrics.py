"""Checks over metric observations (entity rules, KM): a metric above or below a threshold,
sustained, per node or summed across a cluster; or events a counter counted."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from advisor.analysis.broker_settings import BrokerSettings
from advisor.analysis.client_settings import Beside
from advisor.metrics import clients, vocabulary, windows
from advisor.model.observations import Observations, Series
from advisor.named_tuple import NamedTuple
from advisor.rules.registry import metric_check
from advisor.rules.spec import Watch
from advisor.rules.violation import Violation

ONE_SNAPSHOT = (
    "one snapshot: whether this lasts is unknown (confidence lowered); analyse two scrapes or more "
    "(--samples 3 --interval 30) to judge it over time"
)
LIFETIME = (
    "a cumulative count seen once: it happened since the {what} started, not necessarily now (confidence "
    "lowered); analyse two samples or more to see when"
)
SHORT = "observed for {observed}, less than the {window} window the rule waits for (confidence lowered)"
UNLABELLED = (
    "the nodes analysed carry no cluster label (strimzi_io_cluster, kafka_cluster, cluster): they were taken as "
    "one cluster; analyse one cluster at a time, or keep the label, if they are not"
)
ARGUMENTS = ("node", "value", "held", "series", "nodes", "config")
Condition = Callable[[float], bool]


def seconds(value: float) -> str:
    if value < 120:
        return f"{value:.0f} s"
    if value < 7200:
        return f"{value / 60:.0f} min"
    return f"{value / 3600:.1f} h"


def number(value: float) -> str:
    """Whole numbers and anything from 1000 up without decimals (never 8.81e+04), the rest to three
    significant digits."""
    return f"{value:.0f}" if float(value).is_integer() or abs(value) >= 1000 else f"{value:.3g}"


def _conditions(watch: Watch, threshold: float) -> tuple[Condition, Condition]:
    band = float(watch.hysteresis or 0.0)
    if watch.fires == "above":
        return (lambda v: v > threshold), (lambda v: v <= threshold - band)
    return (lambda v: v < threshold), (lambda v: v >= threshold + band)


def _violation(verdict: windows.Verdict, keys: tuple[str, ...], window: float, **arguments: str) -> Violation:
    if verdict.held is None:
        notes: tuple[str, ...] = (ONE_SNAPSHOT,)
        held = "in the one snapshot analysed"
    else:
        held = f"for {seconds(verdict.held)}" if verdict.held else "at the last sample"
        short = SHORT.format(observed=seconds(verdict.observed or 0), window=seconds(window))
        notes = () if verdict.sustained else (short,)
    arguments = {"value": number(verdict.value), "held": held, **arguments}
    return Violation(keys=keys, location=verdict.place, arguments=arguments, assumptions=notes)


def _ordered(series: list[Series]) -> list[Series]:
    return sorted(series, key=lambda s: (s.cluster or "", s.node, s.labels))


def matches(series: Series, wanted: dict[str, Any] | None) -> bool:
    """Does a series carry every wanted label (a list: any of its values)?"""
    for name, allowed in (wanted or {}).items():
        value = series.label(name)
        if value is None or value not in (allowed if isinstance(allowed, list) else [allowed]):
            return False
    return True


def _raised(settings: BrokerSettings, key: str, node: str | None = None) -> bool:
    """Is the key above its default: in the node's own configuration (where one is tied to it), else
    in every broker configuration given?"""
    agreed = settings.agreed(key, node)
    if agreed is None or agreed.default is None:
        return False
    try:
        return float(agreed.value) > float(agreed.default)
    except ValueError:
        return False


@metric_check(ARGUMENTS)
def metric_threshold(
    observations: Observations, definition: Any, params: dict[str, Any], beside: Beside
) -> list[Violation]:
    settings = beside.brokers
    watch = definition.watch
    keys = tuple(definition.keys)
    if watch.raised and not (keys and settings):
        return []  # a rule about a raised setting says nothing without configurations that raise it
    fires, clears = _conditions(watch, float(params["threshold"]))
    window = float(params.get("sustained_seconds", 0))
    # A lifetime average (MeanRate) says nothing about now; percentiles only where a quantile is named.
    readings = {"value", "count", "rate"} | ({"quantile"} if "quantile" in watch.labels else set())
    found = [s for s in observations.of(watch.metric) if s.reading in readings and matches(s, watch.labels)]
    if watch.over in ("cluster", "cluster-max"):
        combine = max if watch.over == "cluster-max" else sum
        violations = _cluster(found, fires, clears, window, keys, combine)
    elif watch.events:
        violations = _events(found, fires, keys, lifetime=watch.lifetime)
    else:
        violations = _per_node(found, fires, clears, window, keys)
    per_node = watch.over == "node"  # a cluster's name is no node to tie a configuration to
    if watch.raised:
        violations = [v for v in violations if _raised(settings, keys[0], v.arguments["node"] if per_node else None)]
    return [_with_config(v, settings, keys, v.arguments["node"] if per_node else None) for v in violations]


def _with_config(
    violation: Violation, settings: BrokerSettings, keys: tuple[str, ...], node: str | None = None
) -> Violation:
    """The rule key's value for the node (its own configuration's, where one is tied to it), else the
    one the broker configurations given agree on, said in the message ({config}) and pointed at (a
    related place: where it is written)."""
    agreed = settings.agreed(keys[0], node) if keys and settings else None
    violation.arguments["config"] = settings.said(keys[0], node) if agreed is not None else ""
    if agreed is not None:
        violation.related = (*violation.related, *agreed.written)
    return violation


def _per_node(
    found: list[Series], fires: Condition, clears: Condition, window: float, keys: tuple[str, ...]
) -> list[Violation]:
    violations = []
    for series in _ordered(found):
        verdict = windows.judge(windows.signal(series), fires, clears, window)
        if verdict is not None:
            violation = _violation(verdict, (series.written, *keys), window,
                                   node=series.node, series=series.written, nodes=series.node)  # fmt: skip
            violation.component, violation.client = _role(series)
            violations.append(violation)
    return violations


def _role(series: Series) -> tuple[str, str]:
    """A finding's component and client: a broker's (none; a Zeebe broker's named), or a client's role
    and library."""
    if series.metric.startswith("zeebe:"):
        return "zeebe-broker", ""
    return ("", "") if series.component == "broker" else (series.component, series.library)


def _events(found: list[Series], fires: Condition, keys: tuple[str, ...], lifetime: bool = True) -> list[Violation]:
    """Counters of events (elections, failures): how many happened in everything observed; seen
    once, how many since the broker started, said so (unless `lifetime` is off: counts that grow
    in normal life say nothing seen once)."""
    violations = []
    for series in _ordered(found):
        arguments = {"node": series.node, "series": series.written, "nodes": series.node}
        if series.reading != "count":  # a rate already (a one-minute rate): judged as it stands
            verdict = windows.judge(windows.signal(series), fires, fires, 0.0)
            if verdict is not None:
                violations.append(_violation(verdict, (series.written, *keys), 0.0, **arguments))
            continue
        verdict = windows.increase(series)
        if verdict is not None:
            if fires(verdict.value):
                held = f"in the {seconds(verdict.observed or 0)} observed"
                arguments |= {"value": number(verdict.value), "held": held}
                violation = Violation(keys=(series.written, *keys), location=verdict.place, arguments=arguments)
                violation.component, violation.client = _role(series)
                violations.append(violation)
        elif lifetime and fires(series.points[-1].value):
            point = series.points[-1]
            what = "broker" if series.component == "broker" else "client"
            arguments |= {"value": number(point.value), "held": f"since the {what} started"}
            violation = Violation(keys=(series.written, *keys), location=point.place, arguments=arguments,
                                  assumptions=(LIFETIME.format(what=what),))  # fmt: skip
            violation.component, violation.client = _role(series)
            violations.append(violation)
    return violations


def _cluster(
    found: list[Series],
    fires: Condition,
    clears: Condition,
    window: float,
    keys: tuple[str, ...],
    combine: Callable[..., float] = sum,
) -> list[Violation]:
    """Summed (or the largest, `combine`) across each cluster's nodes at each time: one violation per
    cluster, at the samples of the nodes that make it up."""
    by_cluster: dict[str | None, list[Series]] = defaultdict(list)
    for series in found:
        if series.reading != "count":
            by_cluster[series.cluster].append(series)
    violations = []
    for cluster in sorted(by_cluster, key=lambda c: c or ""):
        members = _ordered(by_cluster[cluster])
        signals = [windows.signal(s) for s in members]
        verdict = windows.judge(windows.summed(signals, combine), fires, clears, window)
        if verdict is None:
            continue
        latest = [_at(member, verdict.time) for member in signals]
        contributing = [(s, signal) for s, signal in zip(members, latest, strict=True) if signal and signal.value]
        if not contributing:
            continue
        series = contributing[0][0].written
        violation = _violation(verdict, (series, *keys), window, node=cluster or "the cluster", series=series,
                               nodes=", ".join(s.node for s, _ in contributing))  # fmt: skip
        violation.location = contributing[0][1].place
        violation.related = tuple(signal.place for _, signal in contributing[1:])
        if cluster is None and len({s.node for s in members}) > 1:
            violation.assumptions += (UNLABELLED,)
        violations.append(violation)
    return violations


def _at(signals: list[windows.Signal], moment: float | None) -> windows.Signal | None:
    """A member's latest signal at a time (the last one for a snapshot)."""
    if moment is None:
        return signals[-1] if signals else None
    return next((s for s in reversed(signals) if s.time is not None and s.time <= moment), None)


# Where a slow request's time went, and what governs that stage (ops.html's request time split).
STAGES = {
    vocabulary.REQUEST_QUEUE_TIME.mbean: (
        "waiting in the request queue for a handler thread", ("num.io.threads", "queued.max.requests")),
    vocabulary.LOCAL_TIME.mbean: (
        "on the leader (its log append: disk, page cache, flushes)", ("log.flush.interval.messages",
                                                                      "log.flush.interval.ms")),
    vocabulary.REMOTE_TIME.mbean: (
        "waiting for the followers to replicate it (acks=all)", ("num.replica.fetchers", "replica.fetch.min.bytes",
                                                                 "replica.fetch.wait.max.ms", "min.insync.replicas")),
    vocabulary.RESPONSE_QUEUE_TIME.mbean: ("waiting for a network thread", ("num.network.threads",)),
    vocabulary.RESPONSE_SEND_TIME.mbean: ("sending the response", ("num.network.threads", "socket.send.buffer.bytes")),
}  # fmt: skip


def percentile(quantile: str) -> str:
    """'0.99' → '99', '0.999' → '99.9', '0.50' → '50'."""
    try:
        return f"{float(quantile) * 100:g}"
    except ValueError:
        return quantile


@metric_check((*ARGUMENTS, "request", "percentile", "stage", "stage_value", "cause"))
def request_stages(
    observations: Observations, definition: Any, params: dict[str, Any], beside: Beside
) -> list[Violation]:
    """A request type's total time above the threshold, sustained, per node, with the stage that
    took most of it at the same quantile: the finding names it and points at the keys that govern it."""
    settings = beside.brokers
    wanted = dict(definition.watch.labels)
    threshold = float(params["threshold"])
    fires, clears = (lambda v: v > threshold), (lambda v: v <= threshold)
    window = float(params["sustained_seconds"])
    totals = [s for s in observations.of(vocabulary.REQUEST_TOTAL_TIME.mbean, "quantile") if matches(s, wanted)]
    stages = [s for m in vocabulary.REQUEST_STAGES for s in observations.of(m.mbean, "quantile") if matches(s, wanted)]
    violations = []
    for total in _ordered(totals):
        verdict = windows.judge(windows.signal(total), fires, clears, window)
        if verdict is None:
            continue
        same_node = [s for s in stages if (s.node, s.cluster) == (total.node, total.cluster)]
        measured = [(s, signal) for s in same_node if (signal := _at(windows.signal(s), verdict.time)) is not None]
        arguments = {"node": total.node, "series": total.written, "nodes": total.node, "request": wanted["request"],
                     "percentile": percentile(wanted["quantile"])}  # fmt: skip
        if measured:
            stage, signal = max(measured, key=lambda pair: pair[1].value)
            cause, keys = STAGES[stage.metric]
            arguments |= {"stage": vocabulary.by_mbean(stage.metric).short.split(".")[1],
                          "stage_value": number(signal.value), "cause": cause}  # fmt: skip
            related: tuple[Any, ...] = (signal.place,)
        else:
            keys, related = (), ()
            arguments |= {"stage": "no stage series", "stage_value": "?", "cause": "the split was not scraped"}
        violation = _violation(verdict, (total.written, *keys), window, **arguments)
        violation.related = related
        violations.append(_with_config(violation, settings, keys, total.node))
    return violations


def _per_second(observations: Observations, client: str, total: str, rate: str) -> float | None:
    """How busy a client is: its count's increase per second over what was observed, else the rate
    it reports itself (its own all-topics figures: per-topic series are passed over)."""
    for series in observations.of(total):
        if series.node == client and not series.labels:
            verdict = windows.increase(series)
            if verdict is not None and verdict.observed:
                return verdict.value / verdict.observed
    for series in observations.of(rate):
        if series.node == client and not series.labels and series.points:
            return series.points[-1].value
    return None


def _send_rate(observations: Observations, client: str) -> float | None:
    """A producer's records per second (record-send-total or librdkafka's txmsgs, else record-send-rate)."""
    return _per_second(observations, client, clients.RECORD_SEND_TOTAL.id, clients.RECORD_SEND_RATE.id)


def _fetch_rate(observations: Observations, client: str) -> float | None:
    """A consumer's fetch requests per second (fetch-total, else fetch-rate)."""
    return _per_second(observations, client, clients.FETCH_TOTAL.id, clients.FETCH_RATE.id)


class _Small(NamedTuple):
    """A client unit that stays small while the client is busy, and the setting that lets it grow."""

    role: str
    rate: Callable[[Observations, str], float | None]  # how busy: records sent, fetches made (per second)
    setting: str
    bound: str  # the rule parameter: the setting's value below which the client does not wait to fill
    keys: tuple[str, ...]


_SMALL = {
    # Batches of about one record while the producer sends many a second and lingers little: each record
    # leaves alone, one request per partition per few records.
    clients.RECORDS_PER_BATCH.id: _Small("producer", _send_rate, "linger.ms", "linger", ("linger.ms", "batch.size")),
    # Fetch responses of a few records while the consumer fetches many times a second and asks for as
    # little as one byte: each fetch returns as soon as anything is there.
    clients.FETCH_SIZE_AVG.id: _Small("consumer", _fetch_rate, "fetch.min.bytes", "min_bytes",
                                      ("fetch.min.bytes", "fetch.max.wait.ms")),
}  # fmt: skip


def _waits_past(observations: Observations, node: str, linger: float, margin: float) -> bool:
    """Does the producer's latest queue time (record-queue-time-avg; librdkafka's int_latency, the
    worst broker's) exceed linger.ms by `margin` ms? Then its batches do not leave for want of
    time to fill: they wait for the sender, and raising linger.ms adds latency and fills nothing."""
    latest = [s.points[-1].value for s in observations.of(clients.RECORD_QUEUE_TIME_AVG.id)
              if s.node == node and s.points and s.points[-1].value == s.points[-1].value]  # fmt: skip
    return bool(latest) and max(latest) > linger + margin


@metric_check((*ARGUMENTS, "rate", "setting", "setting_source"))
def small_while_busy(
    observations: Observations, definition: Any, params: dict[str, Any], beside: Beside
) -> list[Violation]:
    """A client's unit (a batch, a fetch) stays below `threshold` for the window while the client is
    busy (`rate` a second) and its setting (linger.ms, fetch.min.bytes) lets it leave before it fills."""
    small = _SMALL[definition.watch.metric]
    fewest, least_rate, below = float(params["threshold"]), float(params["rate"]), float(params[small.bound])
    window = float(params["sustained_seconds"])
    fires, clears = (lambda v: v < fewest), (lambda v: v >= fewest * 1.5)
    violations = []
    for series in _ordered(observations.of(definition.watch.metric)):
        if small.role == "consumer" and series.labels:
            continue  # the consumer's per-topic figures: the all-topics one speaks for it
        verdict = windows.judge(windows.signal(series), fires, clears, window)
        rate = small.rate(observations, series.node) if verdict is not None else None
        if verdict is None or rate is None or rate < least_rate:
            continue
        setting = beside.clients.value(series.node, small.role, series.library, small.setting)
        try:
            if setting.value is None or float(setting.value) >= below:
                continue
        except ValueError:
            continue
        if "queue_wait" in params and _waits_past(observations, series.node, float(setting.value),
                                                  float(params["queue_wait"])):  # fmt: skip
            continue  # its records already wait well past linger.ms: more linger fills no batch (KM025 speaks)
        violation = _violation(verdict, (series.written, *small.keys), window, node=series.node,
                               series=series.written, nodes=series.node, rate=f"{rate:,.0f}", setting=setting.value,
                               setting_source=setting.source)  # fmt: skip
        violation.related = (setting.written,) if setting.written else ()
        violation.component, violation.client = small.role, series.library
        violations.append(violation)
    return violations


@metric_check((*ARGUMENTS, "first", "span"))
def metric_rising(
    observations: Observations, definition: Any, params: dict[str, Any], beside: Beside
) -> list[Violation]:
    """A gauge that rose by at least `threshold` over at least `sustained_seconds` and is at its
    highest at the end: consumers falling behind. One snapshot says nothing about rising."""
    rise, window = float(params["threshold"]), float(params["sustained_seconds"])
    found = observations.of(definition.watch.metric)
    # Where a client gives one series per partition and one over all of them (Java's records-lag-max),
    # the partitions say where; the aggregate would repeat them.
    detailed = {s.node for s in found if s.label("partition") is not None}
    violations = []
    for series in _ordered(found):
        if series.node in detailed and series.label("partition") is None:
            continue
        signals = [s for s in windows.signal(series) if s.time is not None]
        if len(signals) < 2:
            continue
        first, last = signals[0], signals[-1]
        span = last.time - first.time  # type: ignore[operator]
        if span < window or last.value - first.value < rise or last.value < max(s.value for s in signals):
            continue
        verdict = windows.Verdict(last.value, last.place, last.time, span, span, len(signals), True)
        violation = _violation(verdict, (series.written, *definition.keys), window, node=series.node,
                               series=series.written, nodes=series.node, first=number(first.value),
                               span=seconds(span))  # fmt: skip
        violation.component, violation.client = _role(series)
        violations.append(violation)
    return violations


@metric_check((*ARGUMENTS, "setting", "setting_source", "share"))
def near_client_setting(
    observations: Observations, definition: Any, params: dict[str, Any], beside: Beside
) -> list[Violation]:
    """A client metric close to the limit a setting of that client puts on it (time between polls
    against max.poll.interval.ms), the setting as the client runs with it."""
    key, share = definition.keys[0], float(params["threshold"])
    violations = []
    for series in _ordered(observations.of(definition.watch.metric)):
        setting = beside.clients.value(series.node, series.component, series.library, key)
        try:
            limit = float(setting.value) if setting.value is not None else None
        except ValueError:
            limit = None
        if not limit:
            continue
        fires = lambda v, limit=limit: v > share * limit  # noqa: E731 - one condition, twice
        verdict = windows.judge(windows.signal(series), fires, fires, float(params.get("sustained_seconds", 0)))
        if verdict is None:
            continue
        violation = _violation(verdict, (series.written, key), 0.0, node=series.node, series=series.written,
                               nodes=series.node, setting=setting.value or "", setting_source=setting.source,
                               share=f"{verdict.value / limit:.0%}")  # fmt: skip
        violation.related = (setting.written,) if setting.written else ()
        violation.component, violation.client = _role(series)
        violations.append(violation)
    return violations


# Counters judged as a share of another's increase over the same window: records retried of those
# sent (Java), requests retried of those sent (librdkafka, per broker). Where a client gives rates
# only (kafka-python), the share of its retry rate in its send rate at each sample, held for the window.
_SHARE_OF = {clients.RECORD_RETRY_TOTAL.id: clients.RECORD_SEND_TOTAL.id,
             clients.REQUEST_RETRY_TOTAL.id: clients.REQUESTS_SENT_TOTAL.id}  # fmt: skip
_SHARE_OF_RATES = {clients.RECORD_RETRY_TOTAL.id: (clients.RECORD_RETRY_RATE.id, clients.RECORD_SEND_RATE.id)}


@metric_check((*ARGUMENTS, "count", "total"))
def share_of_increase(
    observations: Observations, definition: Any, params: dict[str, Any], beside: Beside
) -> list[Violation]:
    """What share of a client's sends needed a retry, from both counts' increase over the window (a
    count seen once is since the client started: not judged), else from its own windowed rates."""
    share, window = float(params["threshold"]), float(params["sustained_seconds"])
    metric = definition.watch.metric
    totals = {(s.node, s.labels): s for s in observations.of(_SHARE_OF[metric])}
    violations = []
    counted_nodes = set()
    for series in _ordered(observations.of(metric)):
        counted_nodes.add(series.node)
        total = totals.get((series.node, series.labels))
        counted = windows.increase(series)
        sent = windows.increase(total) if total is not None else None
        if counted is None or sent is None or sent.value <= 0 or counted.value / sent.value <= share:
            continue
        observed = counted.observed or 0.0
        notes = () if observed >= window else (SHORT.format(observed=seconds(observed), window=seconds(window)),)
        arguments = {"node": series.node, "series": series.written, "nodes": series.node,
                     "value": f"{counted.value / sent.value:.1%}", "held": f"in the {seconds(observed)} observed",
                     "count": number(counted.value), "total": number(sent.value)}  # fmt: skip
        violation = Violation(keys=(series.written, *definition.keys), location=counted.place, arguments=arguments,
                              assumptions=notes)  # fmt: skip
        violation.component, violation.client = _role(series)
        violations.append(violation)
    if metric in _SHARE_OF_RATES:
        violations += _share_of_rates(observations, definition, share, window, counted_nodes)
    return violations


def _share_of_rates(
    observations: Observations, definition: Any, share: float, window: float, counted: set[str]
) -> list[Violation]:
    """The retry rate's share of the send rate at each sample (both the client's own windowed
    rates), for clients without counts: a condition held for the window, as any other."""
    retry_id, send_id = _SHARE_OF_RATES[definition.watch.metric]
    sends = {(s.node, s.labels): s for s in observations.of(send_id)}
    violations = []
    for series in _ordered(observations.of(retry_id)):
        send = sends.get((series.node, series.labels))
        if series.node in counted or send is None or series.labels:
            continue  # counted already, or a per-topic figure: the client's own speaks for it
        by_sample = {(p.time, p.place): p.value for p in send.points}
        shares = [windows.Signal(p.time, p.value / by_sample[(p.time, p.place)], p.place) for p in series.points
                  if by_sample.get((p.time, p.place))]  # fmt: skip
        verdict = windows.judge(shares, lambda v: v > share, lambda v: v <= share / 2, window)
        if verdict is None:
            continue
        last_retry = series.points[-1].value
        violation = _violation(verdict, (series.written, *definition.keys), window, node=series.node,
                               series=series.written, nodes=series.node, count=f"{number(last_retry)}/s",
                               total=f"{number(last_retry / verdict.value)}/s")  # fmt: skip
        violation.arguments["value"] = f"{verdict.value:.1%}"
        violation.component, violation.client = _role(series)
        violations.append(violation)
    return violations


def _record_size(observations: Observations, client: str) -> float | None:
    for series in observations.of(clients.RECORD_SIZE_AVG.id):
        if series.node == client and not series.labels and series.points:
            return series.points[-1].value
    return None


@metric_check((*ARGUMENTS, "rate", "setting", "setting_source"))
def compression_ratio(
    observations: Observations, definition: Any, params: dict[str, Any], beside: Beside
) -> list[Violation]:
    """A busy producer whose batches leave about as large as they came: no codec set, or one that
    finds nothing to compress (data already compressed or encrypted, batches too small)."""
    least, window = float(params["rate"]), float(params["sustained_seconds"])
    fires, clears = (lambda v: v >= float(params["threshold"])), (lambda v: v < float(params["threshold"]) - 0.05)
    violations = []
    for series in _ordered(observations.of(clients.COMPRESSION_RATE_AVG.id)):
        if series.labels:
            continue  # per-topic figures: the producer's own speaks for it
        verdict = windows.judge(windows.signal(series), fires, clears, window)
        records, size = _send_rate(observations, series.node), _record_size(observations, series.node)
        if verdict is None or records is None or size is None or records * size < least:
            continue
        codec = beside.clients.value(series.node, "producer", series.library, "compression.type")
        if codec.value is None:
            continue
        none = codec.value.strip().lower() in ("none", "")
        rate = f"{records * size / 1e6:,.1f}"
        wasted = f"gains nothing from compression.type {codec.value}: incompressible data or too small batches"
        what = "sends its batches uncompressed" if none else wasted
        violation = _violation(verdict, (series.written, "compression.type", "linger.ms", "batch.size"), window,
                               node=series.node, series=series.written, nodes=series.node, rate=rate,
                               setting=codec.value, setting_source=codec.source)  # fmt: skip
        held = violation.arguments["held"]
        violation.message = (f"{series.node}: {what} (compressed/uncompressed {number(verdict.value)}) {held} while "
                             f"it sends {rate} MB/s; compression.type {codec.value} ({codec.source})")  # fmt: skip
        violation.recommended = (
            "set compression.type to lz4 or zstd and check compression-rate-avg fall (and the brokers' bytes in)"
            if none else "turn compression off for this data (it spends CPU for nothing), or let batches fill "
            "(linger.ms, batch.size) if they are too small to compress")  # fmt: skip
        violation.related = (codec.written,) if codec.written else ()
        violation.component, violation.client = "producer", series.library
        violations.append(violation)
    return violations
