"""What the inputs say of the load profile, before anyone is asked: the rate in and the average
record size from the brokers' BytesInPerSec and MessagesInPerSec (or a producer's own
record-size-avg and record-send-rate), the brokers and replication factor from the topology and
the broker configurations, the retention, transactions, and the client library.

Each field comes with where it was read (`field → (value, where)`), so the profile shows "from
metrics.prom (BytesInPerSec over 10 min, 3 brokers)" and a prompt is pre-filled with it. A field
the inputs do not settle — two clusters that disagree, a rate from one snapshot of a counter — is
left out, never guessed.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from advisor.metrics import clients, vocabulary, windows
from advisor.metrics.vocabulary import Reading
from advisor.model.document import ConfigSet, Document
from advisor.model.observations import Observations, Series
from advisor.named_tuple import NamedTuple
from advisor.recommend.against import transactions_in


class Inferred(NamedTuple):
    fields: dict[str, tuple[Any, str]]  # load profile field → (value, where it was read)
    client: tuple[str, str] | None = None  # (library, where): the clients' library, when they share one
    notes: tuple[str, ...] = ()  # what could have been inferred and why it was not


def infer(document: Document) -> Inferred:
    fields: dict[str, tuple[Any, str]] = {}
    notes: list[str] = []
    if document.observations is not None:
        fields |= _from_metrics(document.observations, notes)
    for name, found in _from_configs(document, notes).items():
        fields.setdefault(name, found)  # the metrics measured it; the configs say what was meant
    if (transactions := transactions_in(document)) is not None:
        fields["transactions"] = transactions
    return Inferred(fields, _library(document, notes), tuple(notes))


# --- metrics -----------------------------------------------------------------------------------


class _Rate(NamedTuple):
    per_second: float
    span: float | None  # seconds observed (None: the meter's own one-minute or lifetime rate)
    reading: str
    origins: tuple[str, ...]


def _node_rate(series: list[Series]) -> _Rate | None:
    """One broker's rate of a meter: the all-topics series when there is one, else its topics' sum;
    a counter's increase over two samples or more, else the meter's one-minute rate, else its mean
    since the broker started."""
    aggregate = [s for s in series if s.label("topic") is None]
    chosen = aggregate or series
    for reading in (Reading.COUNT, Reading.RATE, Reading.LIFETIME):
        of_reading = [s for s in chosen if s.reading == reading]
        if not of_reading:
            continue
        total, spans, origins = 0.0, [], set()
        for one in of_reading:
            if reading == Reading.COUNT:
                counted = windows.increase(one)
                if counted is None or not counted.observed:
                    break
                total += counted.value / counted.observed
                spans.append(counted.observed)
            else:
                total += one.points[-1].value * one.scale
            origins |= {p.place.path for p in one.points[-1:] if p.place is not None}
        else:
            return _Rate(total, min(spans) if spans else None, reading, tuple(sorted(origins)))
    return None


def _cluster_rates(observations: Observations, mbean: str) -> dict[str | None, tuple[float, list[_Rate]]]:
    per_node: dict[tuple[str | None, str], list[Series]] = defaultdict(list)
    for one in observations.of(mbean):
        per_node[(one.cluster, one.node)].append(one)
    clusters: dict[str | None, tuple[float, list[_Rate]]] = {}
    for (cluster, _), series in per_node.items():
        rate = _node_rate(series)
        if rate is None:
            continue
        total, rates = clusters.get(cluster, (0.0, []))
        clusters[cluster] = (total + rate.per_second, [*rates, rate])
    return clusters


def _said(rates: list[_Rate], name: str) -> str:
    origins = sorted({origin for rate in rates for origin in rate.origins})
    spans = [rate.span for rate in rates if rate.span]
    if spans and len(spans) == len(rates):
        how = f"over {_minutes(min(spans))}"
    else:
        how = "its one-minute rate" if all(r.reading == Reading.RATE for r in rates) else "its mean since start"
    brokers = f", {len(rates)} broker{'s' if len(rates) != 1 else ''}"
    shown = ", ".join(origins[:2]) + (f" and {len(origins) - 2} more" if len(origins) > 2 else "")
    return f"{shown} ({name} {how}{brokers})"


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.0f} min"


def _from_metrics(observations: Observations, notes: list[str]) -> dict[str, tuple[Any, str]]:
    found: dict[str, tuple[Any, str]] = {}
    bytes_in = _cluster_rates(observations, vocabulary.BYTES_IN.mbean)
    messages_in = _cluster_rates(observations, vocabulary.MESSAGES_IN.mbean)
    if len(bytes_in) > 1:
        notes.append(f"the rate in: {len(bytes_in)} clusters measured; the busiest one's is taken")
    if bytes_in:
        cluster, (total, rates) = max(bytes_in.items(), key=lambda item: item[1][0])
        if total > 0:
            found["rate_mb_s"] = (round(total / 1e6, 3), _said(rates, "BytesInPerSec"))
            messages = messages_in.get(cluster)
            if messages and messages[0] > 0:
                average = total / messages[0]
                where = _said(rates, "BytesInPerSec") + " / MessagesInPerSec: bytes as sent, after compression"
                found["message_bytes_avg"] = (max(1, round(average)), where)
        found["brokers"] = (len(rates), _said(rates, "BytesInPerSec"))
    size = _client_value(observations, clients.RECORD_SIZE_AVG)
    if size is not None:  # the producer's own measure, before compression: better than the brokers'
        found["message_bytes_avg"] = (max(1, round(size[0])), f"{size[1]} (record-size-avg)")
        sent = _client_value(observations, clients.RECORD_SEND_RATE, total=True)
        if sent is not None and "rate_mb_s" not in found and sent[0] > 0:
            found["rate_mb_s"] = (round(sent[0] * size[0] / 1e6, 3), f"{sent[1]} (record-send-rate x record-size-avg)")
    return found


def _client_value(
    observations: Observations, metric: clients.ClientMetric, total: bool = False
) -> tuple[float, str] | None:
    """A client metric's last values: averaged over the clients (a size), or summed (a rate)."""
    values, origins = [], set()
    for series in observations.of(metric.id):
        last = [p for p in series.points if p.value == p.value and p.value >= 0]  # NaN: not measured yet
        if last:
            values.append(last[-1].value)
            origins |= {last[-1].place.path} if last[-1].place is not None else set()
    if not values or (not total and not any(values)):
        return None
    value = sum(values) if total else sum(values) / len(values)
    clients_said = f"{len(values)} client{'s' if len(values) != 1 else ''}"
    return value, f"{', '.join(sorted(origins)[:2])}, {clients_said}"


# --- configurations ----------------------------------------------------------------------------


def _written(config_set: ConfigSet, key: str) -> tuple[str, str] | None:
    setting = config_set.settings.get(key)
    if setting is None or not setting.value.strip():
        return None
    return setting.value.strip(), f"{config_set.path}:{setting.location.line}"


def _agreed(sets: list[ConfigSet], key: str, convert: Any) -> tuple[Any, str] | None:
    """The value every broker that writes `key` agrees on, with the first place; None when they differ."""
    found = [(convert(w[0]), w[1]) for s in sets if (w := _written(s, key)) is not None]
    found = [(v, where) for v, where in found if v is not None]
    if not found or len({v for v, _ in found}) != 1:
        return None
    return found[0]


def _int(text: str) -> int | None:
    return int(text) if text.isdigit() else None


def _hours(key: str) -> Any:
    factor = {"log.retention.hours": 1.0, "log.retention.minutes": 1 / 60, "log.retention.ms": 1 / 3_600_000}[key]

    def convert(text: str) -> float | None:
        number = _int(text)
        return round(number * factor, 3) if number is not None and number > 0 else None

    return convert


def _from_configs(document: Document, notes: list[str]) -> dict[str, tuple[Any, str]]:
    found: dict[str, tuple[Any, str]] = {}
    with_brokers = [c for c in document.clusters.values() if c.brokers]
    if len(with_brokers) > 1:
        notes.append(f"brokers, RF and retention: {len(with_brokers)} clusters configured; each is its own profile")
        return found
    brokers = with_brokers[0].brokers if with_brokers else [s for s in document.config_sets if s.component == "broker"]
    if not brokers:
        return found
    distinct = {s.path for s in brokers}
    if len(brokers) > 1 or len(distinct) > 1:
        found["brokers"] = (len(brokers), f"{len(brokers)} broker configurations ({', '.join(sorted(distinct)[:2])})")
    if (rf := _agreed(brokers, "default.replication.factor", _int)) is not None:
        found["replication_factor"] = rf
    for key in ("log.retention.ms", "log.retention.minutes", "log.retention.hours"):  # Kafka's precedence
        if (hours := _agreed(brokers, key, _hours(key))) is not None:
            found["retention_hours"] = hours
            break
    return found


def _library(document: Document, notes: list[str]) -> tuple[str, str] | None:
    libraries: dict[str, str] = {}
    for config_set in document.config_sets:
        if config_set.component in ("producer", "consumer") and config_set.client:
            libraries.setdefault(config_set.client, config_set.path)
    if len(libraries) == 1:
        ((library, where),) = libraries.items()
        return library, where
    if len(libraries) > 1:
        notes.append(f"client library: {', '.join(sorted(libraries))} are configured; the plan spells java's "
                     "keys unless --client names one")  # fmt: skip
    return None
