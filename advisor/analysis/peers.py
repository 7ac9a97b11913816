"""What a config set's cluster holds in the other files linked to it (sources/topology.py):
the `peers` field of the rule context, for rules that read across files. Only the cluster's
own members count — never another cluster's files, whatever else the run was given.

transactional_producers  files with a producer that has a transactional.id (or Spring's prefix)
murmur2_producers        files whose producers hash keys with murmur2 (Java, kafka-python, ...)
message_limit            the largest batch the cluster's brokers and topics accept, or null
stored_codecs            codecs the cluster's brokers or topics impose on stored batches
broker_ids               the node ids of the cluster when its members show every broker (a compose
                         file with KAFKA_NODE_ID per service), else null
transaction_max_timeout_ms, group_min_session_timeout_ms, group_max_session_timeout_ms
                         the tightest bounds the cluster's brokers put on clients (null without brokers)
principals               principals the cluster lets in — kafka-acls --add grants and Strimzi KafkaUsers —
                         in the order they appear
principal_places         "path:line" of the ACL command or KafkaUser that brings in each of them
min_insync_replicas      the highest min.insync.replicas the cluster's brokers write (what a topic without
                         its own gets from its leader, at worst), or null when no broker writes one
min_insync_replicas_at   "path:line" where that broker writes it
quota_sources            "path:line" of each quota the cluster's members set: kafka-configs client quotas, KafkaUser
                         spec.quotas, a Kafka resource's cluster-wide spec.kafka.quotas
"""

from __future__ import annotations

from functools import cache

from advisor import TYPE_CHECKING, catalog
from advisor.analysis.units import to_count, to_number
from advisor.model.document import ConfigSet

if TYPE_CHECKING:
    from typing import Any

FIELDS = (
    "transactional_producers", "murmur2_producers", "message_limit", "stored_codecs", "broker_ids",
    "transaction_max_timeout_ms", "group_min_session_timeout_ms", "group_max_session_timeout_ms",
    "principals", "principal_places", "quota_sources", "min_insync_replicas", "min_insync_replicas_at",
)  # fmt: skip


def _hashes_with_murmur2(producer: ConfigSet) -> bool:
    """Java's built-in partitioner and kafka-python's default hash keys with murmur2;
    librdkafka only when told to."""
    if producer.client == "librdkafka":
        partitioner = producer.settings.get("partitioner")
        return partitioner is not None and partitioner.value.strip().lower() in ("murmur2", "murmur2_random")
    return producer.client == "kafka-python" or "partitioner.class" not in producer.settings


@cache  # asked once per cluster, and a run may have thousands of one-file clusters
def _broker_default(key: str) -> float:
    return catalog.default(key, "broker")


def _written_number(config_set: ConfigSet, key: str) -> float | None:
    setting = config_set.settings.get(key)
    return to_number(setting.value) if setting is not None else None


@cache
def _dynamic_mode(key: str) -> str | None:
    facts = catalog.lookup(key, "broker")
    return facts.dynamic if facts is not None else None


def _dynamic(config_set: ConfigSet) -> dict[str, Any] | None:
    return config_set.facts.get("dynamic_update")  # kafka-configs on running brokers (sources/shell.py)


def _broker_values(members: list[ConfigSet], key: str) -> list[float]:
    """`key` as each broker of the cluster runs with it. Broker configs take precedence per broker
    id dynamic, then cluster-wide dynamic (kafka-configs --entity-default), then the broker's
    file, then Kafka's default (KIP-226; a real 4.4 broker's answer in
    tests/integration/test_dynamic_broker_configs.py). Dynamic values of a key the broker does not
    take at run time are refused, so they change nothing. Without a broker file, what the
    dynamic updates set is all there is."""
    files = [cs for cs in members if cs.component == "broker" and _dynamic(cs) is None]
    updates = [cs for cs in members if cs.component == "broker" and _dynamic(cs) is not None]
    default = _broker_default(key)
    if not updates:  # the common case: the files alone
        return [next(v for v in (_written_number(b, key), default) if v is not None) for b in files]
    cluster_wide: float | None = None
    per_broker: dict[int, float] = {}
    if _dynamic_mode(key) in ("cluster-wide", "per-broker"):
        for update in updates:
            value, target = _written_number(update, key), _dynamic(update) or {}
            node = to_count(to_number(target["broker"])) if target.get("broker") is not None else None
            if value is None:
                continue
            if target.get("default"):
                cluster_wide = value
            elif node is not None:
                per_broker[node] = value
    if not files:
        return [*([] if cluster_wide is None else [cluster_wide]), *per_broker.values()] or (
            [default] if updates else []
        )
    values = []
    for broker in files:
        node_id = _node_id(broker)
        own = per_broker.get(node_id) if node_id is not None else None
        values.append(next(v for v in (own, cluster_wide, _written_number(broker, key), default) if v is not None))
    return values


def _message_limit(members: list[ConfigSet]) -> int | None:
    """The largest record batch the cluster's brokers accept: the smallest broker
    message.max.bytes (its default where unset), raised by any topic's max.message.bytes.
    None when the project has no broker configuration."""
    brokers = _broker_values(members, "message.max.bytes")
    if not brokers:
        return None
    limit = min(brokers)
    topics = [_written_number(t, "max.message.bytes") for t in members if t.component == "topic"]
    return int(max([limit, *(t for t in topics if t is not None)]))


_CODECS = {"none", "gzip", "snappy", "lz4", "zstd"}


def _codec(value: str) -> str:
    value = value.strip().lower()
    return "none" if value == "uncompressed" else value


def _stored_codecs(members: list[ConfigSet]) -> list[str]:
    """Codecs the cluster's brokers or topics impose (compression.type other than `producer`)."""
    written = (
        cs.settings["compression.type"].value
        for cs in members
        if cs.component in ("broker", "topic") and "compression.type" in cs.settings
    )
    return sorted({_codec(value) for value in written} & _CODECS)  # `producer` and misspellings impose nothing


_LIMITS = ("transaction_max_timeout_ms", "group_min_session_timeout_ms", "group_max_session_timeout_ms")


def _broker_limits(members: list[ConfigSet]) -> dict[str, float | None]:
    """The bound every broker of the project enforces: the lowest maximum, the highest minimum."""
    if not any(cs.component == "broker" for cs in members):
        return dict.fromkeys(_LIMITS)

    def values(key: str) -> list[float]:
        return _broker_values(members, key)

    return {
        "transaction_max_timeout_ms": min(values("transaction.max.timeout.ms")),
        "group_min_session_timeout_ms": max(values("group.min.session.timeout.ms")),
        "group_max_session_timeout_ms": min(values("group.max.session.timeout.ms")),
    }


def _node_id(broker: ConfigSet) -> int | None:
    for key in ("node.id", "broker.id"):
        number = to_count(_written_number(broker, key))
        if number is not None:
            return number
    return None


def _broker_ids(members: list[ConfigSet]) -> list[int] | None:
    brokers = [cs for cs in members if cs.component == "broker" and cs.runs_broker_role() and _dynamic(cs) is None]
    clusters = {cs.cluster for cs in brokers}
    counts = {cs.facts.get("broker_count") for cs in brokers}
    if len(clusters) != 1 or None in clusters or len(counts) != 1 or None in counts:
        return None  # several clusters, or one whose size the input does not state
    ids = [_node_id(cs) for cs in brokers]
    if None in ids or len(set(ids)) != counts.pop():
        return None
    return sorted(ids)


def _brokers_min_isr(members: list[ConfigSet]) -> dict[str, Any]:
    """The strictest min.insync.replicas a broker of the cluster writes, and where."""
    found: tuple[int, str] | None = None
    for broker in members:
        if broker.component != "broker":
            continue
        setting = broker.settings.get("min.insync.replicas")
        count = to_count(to_number(setting.value)) if setting is not None else None
        if setting is not None and count is not None and (found is None or count > found[0]):
            found = (count, f"{setting.location.path}:{setting.location.line}")
    return {"min_insync_replicas": found[0] if found else None, "min_insync_replicas_at": found[1] if found else None}


def place(config_set: ConfigSet) -> str:
    """Where a config set starts, as the project summary names it ("path:line")."""
    return f"{config_set.path}:{config_set.anchor.line}"


def _tenancy(members: list[ConfigSet]) -> dict[str, Any]:
    """Who the project lets in (loaders' `principals`: ACL grants, Strimzi users), and where
    anything sets a quota (loaders' `quotas`)."""
    principals: list[str] = []
    places: list[str] = []
    for config_set in members:
        for principal in config_set.facts.get("principals", []):
            if principal not in principals and principal != "User:*":
                principals.append(principal)
                places.append(place(config_set))
    quotas = [place(cs) for cs in members if cs.facts.get("quotas")]
    return {"principals": principals, "principal_places": places, "quota_sources": quotas}


def summarize(members: list[ConfigSet]) -> dict[str, Any]:
    """Built once per cluster (rules/runner.py): per config set it would be quadratic."""
    producers = [cs for cs in members if cs.component == "producer"]
    transactional = {
        cs.path for cs in producers if "transactional.id" in cs.settings or cs.facts.get("transaction_id_prefix")
    }
    summary = {
        "transactional_producers": sorted(transactional),
        "murmur2_producers": sorted({cs.path for cs in producers if _hashes_with_murmur2(cs)}),
        "message_limit": _message_limit(members),
        "stored_codecs": _stored_codecs(members),
        "broker_ids": _broker_ids(members),
        **_broker_limits(members),
        **_tenancy(members),
        **_brokers_min_isr(members),
    }
    return summary
