"""What each metrics input gave the rules: its shape, the naming dialects or client library its
series were recognised by, and how many series the rules read — and, for an input of which the
rules read nothing, why not: what its names look like and which names would be read. A file
that yields nothing is never a clean bill of health (issue #25: "1 file checked: 0 warnings"
on a scrape of names no rule knows)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from pathlib import Path

from advisor import lazy_re
from advisor.metrics import micrometer, sniff, vocabulary
from advisor.model.document import Problem
from advisor.model.observations import Observations
from advisor.model.provenance import Location
from advisor.named_tuple import NamedTuple

HEAD_BYTES = 1 << 16  # what is looked at to say what an unread file's names are like
SHOWN_NAMES = 3


class FileRead(NamedTuple):
    """One metrics file as the run read it."""

    kind: str  # sniff's: prometheus, prometheus-api, client-metrics:<library>, jmxtool:<format>
    series: int  # series the rules read
    recognised: tuple[str, ...]  # naming dialects (exposition, API answers) or the client library

    def described(self) -> str:
        shape = sniff.described(self.kind)
        if self.kind.startswith(sniff.CLIENT):
            shape = f"{self.kind.partition(':')[2]} {shape}"
        by = ""
        if self.recognised and not self.kind.startswith(sniff.CLIENT):
            brokers = [d for d in self.recognised if d in _BROKER_DIALECTS]
            beside = [d for d in self.recognised if d not in _BROKER_DIALECTS]
            by = f", {' or '.join(brokers)} names" if brokers else ""
            by += (
                (" with " if brokers else ", ") + " and ".join(beside) + ("" if brokers else " names") if beside else ""
            )
        return f"{shape}{by}: {self.series} series read"


def per_input(observations: Observations, kinds: dict[str, str]) -> dict[str, FileRead]:
    """Each input's FileRead (by origin: a file's path, an endpoint or a server as shown), from the
    series observed (each point knows the file line or the scrape it came from)."""
    series_of: Counter[str] = Counter()
    names_of: dict[str, Counter[str]] = defaultdict(Counter)
    for series in observations.series:
        origins = {p.place.path if isinstance(p.place, Location) else p.place.origin for p in series.points}
        name = series.name
        for origin in origins:
            series_of[origin] += 1
            names_of[origin][series.library or name] += 1
    for name, origins, count in observations.columns.inputs() if observations.columns is not None else ():  # unmade
        for origin in origins:
            series_of[origin] += count
            names_of[origin][name] += count
    return {origin: FileRead(kind, series_of[origin], _recognised(kind, names_of[origin]))
            for origin, kind in kinds.items()}  # fmt: skip


_BROKER_DIALECTS = frozenset({*vocabulary.DIALECTS, vocabulary.JMX_DEFAULT, vocabulary.JMX_DEFAULT_CASE})


def _recognised(kind: str, names: Counter[str]) -> tuple[str, ...]:
    if kind.startswith(sniff.CLIENT):
        return (kind.partition(":")[2],)
    if kind.startswith(sniff.JMXTOOL) or not names:
        return ()
    # The dialects every name read is written in; where none is common to all, the commonest.
    sets = [vocabulary.ALIASES[name].dialects if name in vocabulary.ALIASES else _default_dialect(name)
            for name in names if name in vocabulary.ALIASES or name in vocabulary.DEFAULT_SERIES]  # fmt: skip
    if micrometer.LIBRARY in names:  # a scrape's Java client meters: Micrometer's binder named them
        sets.append(frozenset({micrometer.DIALECT}))
    if not sets:
        return ()
    # Brokers' names and the offset and host exporters' beside them are separate: a scrape of both
    # is in the brokers' dialects and those exporters' own.
    brokers = [dialects for dialects in sets if dialects & _BROKER_DIALECTS]
    beside = sorted(frozenset().union(*(dialects for dialects in sets if not dialects & _BROKER_DIALECTS)))
    if not brokers:
        return tuple(beside)
    common = frozenset.intersection(*brokers)
    if common:
        return (*sorted(common), *beside)
    counted = Counter(dialect for dialects in brokers for dialect in dialects)
    commonest = min(counted.items(), key=lambda item: (-item[1], item[0]))[0]  # a tie: the same answer every run
    return (commonest, *beside)


def _default_dialect(name: str) -> frozenset[str]:
    """The JMX exporter's default names: lower-cased, or in JMX case."""
    return frozenset({vocabulary.JMX_DEFAULT if name == name.lower() else vocabulary.JMX_DEFAULT_CASE})


def nothing_read(origin: str, kind: str, is_file: bool) -> Problem:
    """The note for a metrics input of which the rules read no series: what it looks like and
    what would be read (kafka=True: `--unread=error` fails a CI gate on it)."""
    looks = _looks_like(kind, sniff.read_head(Path(origin), HEAD_BYTES) if is_file else "")
    message = (f"no metric the rules read was found in it ({sniff.described(kind)}{looks}); "
               f"{_what_is_read(kind)}; docs/metrics.md lists every name and shape read")  # fmt: skip
    return Problem(origin, None, message, "skipped", kafka=True)


_EXPOSITION_NAME = lazy_re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?[ \t]", re.MULTILINE)
# The JMX exporter without rules: <domain>_<type>_<attribute>, the bean's other keys as labels
# (`kafka_server_replicamanager_value{name="UnderReplicatedPartitions"}`), lower-cased or not.
_JMX_DEFAULT = lazy_re.compile(r"^kafka_[A-Za-z]+_[A-Za-z]+_(?:value|count|oneminuterate|meanrate|\d+thpercentile)$",
                               re.IGNORECASE)  # fmt: skip


def _looks_like(kind: str, head: str) -> str:
    """`: its names look like …` for an exposition or API answer; '' when nothing is to be said."""
    if kind not in (sniff.EXPOSITION, sniff.API_RESULT):
        return ""
    written = [(m.group(1), m.group(2) or "") for m in _EXPOSITION_NAME.finditer(head)]
    if kind == sniff.API_RESULT:
        written = [(name, "") for name in re.findall(r'"__name__"\s*:\s*"([^"]+)"', head)]
    names = list(dict.fromkeys(name for name, _ in written))
    if not names:
        return ": no samples in its first 64 KB"
    kafka = [name for name in names if name.lower().startswith("kafka")]
    shown = ", ".join((kafka or names)[:SHOWN_NAMES])
    labels = " ".join(labels for _, labels in written)
    if any(_JMX_DEFAULT.match(name) for name in kafka) and "name=" in labels:
        case = "JMX case, as Amazon MSK's Open Monitoring serves them" if any(n != n.lower() for n in kafka) else (
            "lower-cased")  # fmt: skip
        return f": the JMX exporter's default names, without rules ({case}), such as {shown}"
    if any(name.startswith(("kafka_consumer_", "kafka_producer_")) for name in kafka) and "client_id=" in labels:
        return f": Micrometer's Kafka client meters, such as {shown}"
    aggregates = [name for name in kafka if name in _LAG_EXPORTER_AGGREGATES]
    if aggregates:  # kafka-lag-exporter's group totals, without the per-partition series beside them
        return (f": kafka-lag-exporter's group aggregates ({', '.join(aggregates[:SHOWN_NAMES])}); the flow view reads "
                "its per-partition kafka_consumergroup_group_lag, kafka_consumergroup_group_offset and "
                "kafka_partition_latest_offset, which the exporter serves beside them")  # fmt: skip
    if not kafka:
        return f": no Kafka metric names, only names such as {shown}"
    return f": its Kafka names, such as {shown}, are not ones the rules read"


# kafka-lag-exporter's per-group summaries (its README's metric list): a group's worst or total lag,
# which names no partition to follow.
_LAG_EXPORTER_AGGREGATES = frozenset({
    "kafka_consumergroup_group_max_lag", "kafka_consumergroup_group_max_lag_seconds",
    "kafka_consumergroup_group_sum_lag", "kafka_consumergroup_group_topic_sum_lag",
})  # fmt: skip


def _what_is_read(kind: str) -> str:
    if kind.startswith(sniff.CLIENT):
        return "client metrics are read by the names the clients give them (record-send-rate, records-lag-max…)"
    if kind.startswith(sniff.JMXTOOL):
        return "JmxTool dumps are read by MBean (kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions:Value)"
    example = next(iter(vocabulary.names(vocabulary.UNDER_REPLICATED)))[0]
    return (f"series are read by the names of the JMX exporter's example rules, Strimzi's and Confluent's rules "
            f"and the Strimzi metrics reporter (such as {example}), kafka_exporter, KMinion and "
            "kafka-lag-exporter, and the Zeebe broker's own (zeebe_dropped_request_count_total: "
            "docs/camunda.md)")  # fmt: skip
