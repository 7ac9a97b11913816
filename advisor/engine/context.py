"""The data a rule predicate sees for one config set (a JMESPath input).

component, client, kafka_version, profile, name
set        keys written in the input (canonical names, string values, secrets redacted)
effective  set + the catalog defaults for that Kafka version and client
defaults   the catalog defaults alone (to tell "lowered" from "raised")
cluster    {"min_brokers", "brokers" (exact count or null), "racks"} when the input shows the cluster, else null
facts      loader extras (replicas of a topic, JVM options, ...)
project    the whole input: files with transactional producers, files whose producers hash keys with
           murmur2, the largest batch its brokers and topics accept (message_limit), the codecs
           brokers and topics impose (stored_codecs)
"""

from __future__ import annotations

from typing import Any

from advisor import catalog
from advisor.document import ConfigSet, Document
from advisor.effective import defaults, effective, written
from advisor.engine.functions import to_number


def _cluster(config_set: ConfigSet, document: Document, values: dict[str, Any]) -> dict[str, Any] | None:
    """min_brokers: at least that many brokers; brokers: exactly that many, when the input
    says (a compose file, a Strimzi cluster, Helm values), else null."""
    brokers = document.cluster_brokers(config_set.cluster)
    counted = [b.facts["broker_count"] for b in (config_set, *brokers) if b.facts.get("broker_count")]
    racks = sorted({b.settings["broker.rack"].value for b in brokers if "broker.rack" in b.settings})
    if counted:  # one config set for a whole cluster, or a topic of a cluster whose size is known
        return {"min_brokers": max(counted), "brokers": max(counted), "racks": racks}
    if len(brokers) > 1:
        return {"min_brokers": len(brokers), "brokers": None, "racks": racks}
    if config_set.component == "broker":
        roles = {r.strip() for r in (values.get("process.roles") or "").split(",")}
        voters = [v for v in (values.get("controller.quorum.voters") or "").split(",") if v.strip()]
        # In combined mode every voter is also a broker: that many brokers at least.
        if {"broker", "controller"} <= roles and voters:
            return {"min_brokers": len(voters), "brokers": None, "racks": []}
    return None


def _hashes_with_murmur2(producer: ConfigSet) -> bool:
    """Java's built-in partitioner and kafka-python's default hash keys with murmur2;
    librdkafka only when told to."""
    if producer.client == "librdkafka":
        partitioner = producer.settings.get("partitioner")
        return partitioner is not None and partitioner.value.strip().lower() in ("murmur2", "murmur2_random")
    return producer.client == "kafka-python" or "partitioner.class" not in producer.settings


def _message_limit(document: Document) -> int | None:
    """The largest record batch the project's brokers accept: the smallest broker
    message.max.bytes (its default where unset), raised by any topic's max.message.bytes.
    None when the project has no broker configuration."""
    brokers = [cs for cs in document.config_sets if cs.component == "broker"]
    if not brokers:
        return None
    default = catalog.default("message.max.bytes", "broker")

    def written_number(config_set: ConfigSet, key: str) -> float | None:
        setting = config_set.settings.get(key)
        return to_number(setting.value) if setting is not None else None

    limit = min(written_number(b, "message.max.bytes") or default for b in brokers)
    topics = [written_number(t, "max.message.bytes") for t in document.config_sets if t.component == "topic"]
    return int(max([limit, *(t for t in topics if t is not None)]))


_CODECS = {"none", "gzip", "snappy", "lz4", "zstd"}


def _codec(value: str) -> str:
    value = value.strip().lower()
    return "none" if value == "uncompressed" else value


def _stored_codecs(document: Document) -> list[str]:
    """Codecs the project's brokers or topics impose (compression.type other than `producer`)."""
    written = (
        cs.settings["compression.type"].value
        for cs in document.config_sets
        if cs.component in ("broker", "topic") and "compression.type" in cs.settings
    )
    return sorted({_codec(value) for value in written} & _CODECS)  # `producer` and misspellings impose nothing


def _project(document: Document) -> dict[str, Any]:
    """What the whole input holds that one config set may ask about (rules across files).
    Built once per document: rebuilding it for every config set would be quadratic."""
    memo = vars(document).get("_project")
    if memo is not None and memo[0] == len(document.config_sets):
        return memo[1]
    producers = [cs for cs in document.config_sets if cs.component == "producer"]
    transactional = {
        cs.path for cs in producers if "transactional.id" in cs.settings or cs.facts.get("transaction_id_prefix")
    }
    summary = {
        "transactional_producers": sorted(transactional),
        "murmur2_producers": sorted({cs.path for cs in producers if _hashes_with_murmur2(cs)}),
        "message_limit": _message_limit(document),
        "stored_codecs": _stored_codecs(document),
    }
    vars(document)["_project"] = (len(document.config_sets), summary)
    return summary


def build(config_set: ConfigSet, document: Document, release: str, profile: str) -> dict[str, Any]:
    values = effective(config_set, release)
    return {
        "component": config_set.component,
        "client": config_set.client,
        "kafka_version": release,
        "version": list(catalog.versions.parse(release)),
        "profile": profile,
        "name": config_set.name,
        "set": written(config_set),
        "effective": values,
        "defaults": defaults(config_set.component, config_set.client, release),
        "cluster": _cluster(config_set, document, values),
        "facts": config_set.facts,
        "project": _project(document),
    }
