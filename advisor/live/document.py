"""A Snapshot as what the rules judge: a broker config set per broker with every value that is
not Kafka's default (its place `live://CLUSTER/broker:N` and its source: a static file, a dynamic
update for the broker or for all brokers), a topic config set per topic with its partitions and
replication factor, all one cluster of as many brokers as it has. A sensitive value the broker
does not return is left out, never guessed."""

from __future__ import annotations

from advisor.catalog.features import metadata_version
from advisor.model.document import ConfigSet, Document, Setting
from advisor.model.live_state import DEFAULT, Snapshot
from advisor.model.provenance import LiveConfig
from advisor.model.topology import Cluster, Link

# Broker defaults that topics inherit show on each topic as DYNAMIC_DEFAULT/STATIC sources: only
# what the topic itself sets is the topic's (its own config, or a dynamic topic config).
TOPIC_OWN = frozenset({"DYNAMIC_TOPIC_CONFIG"})


def _setting(key: str, value: str, place: LiveConfig) -> Setting:
    return Setting(key, value, key, place)  # type: ignore[arg-type]  # a live value has no file span


def release_of(snapshot: Snapshot) -> tuple[str | None, str | None]:
    """The release the cluster's finalized metadata.version names, and how that was learned: its
    brokers run that release or a later one (the level is raised only after an upgrade)."""
    level = (snapshot.features or {}).get("metadata.version")
    known = metadata_version(level) if level is not None else None
    if known is None:
        return None, None
    return known.release, (f"metadata.version {level} ({known.version}), the cluster's finalized feature level: its "
                           f"brokers run Kafka {known.release} or later")  # fmt: skip


def broker_sets(snapshot: Snapshot) -> list[ConfigSet]:
    cluster = snapshot.cluster_id
    release, source = release_of(snapshot)
    found = []
    for broker in sorted(snapshot.brokers):
        if broker not in snapshot.broker_configs:
            continue  # not described (said among what was not seen): never judged as Kafka's defaults
        resource = f"broker:{broker}"
        config_set = ConfigSet("broker", f"live://{cluster}/{resource}", LiveConfig(cluster, resource, DEFAULT),  # type: ignore[arg-type]
                               name=f"broker {broker}", cluster=cluster, kafka_version=release,
                               kafka_version_from=source,
                               facts={"broker_count": len(snapshot.brokers), "live": True,
                                      "bootstrap": snapshot.bootstrap})  # fmt: skip
        for key, entry in sorted(snapshot.broker_configs.get(broker, {}).items()):
            if entry.source == DEFAULT or entry.value is None:
                continue
            config_set.add(_setting(key, entry.value, LiveConfig(cluster, resource, entry.source)))
        rack = snapshot.brokers[broker]
        if rack and "broker.rack" not in config_set.settings:
            config_set.add(_setting("broker.rack", rack, LiveConfig(cluster, resource, "DescribeCluster")))
        found.append(config_set)
    return found


def topic_sets(snapshot: Snapshot) -> list[ConfigSet]:
    cluster = snapshot.cluster_id
    release, source = release_of(snapshot)
    found = []
    for topic in snapshot.topics:
        resource = f"topic:{topic.name}"
        config_set = ConfigSet("topic", f"live://{cluster}/{resource}", LiveConfig(cluster, resource, DEFAULT),  # type: ignore[arg-type]
                               name=topic.name, cluster=cluster, kafka_version=release,
                               kafka_version_from=source, facts={"partitions": str(len(topic.partitions)),
                                      "replicas": str(topic.replication_factor or ""), "internal": topic.internal,
                                      "broker_count": len(snapshot.brokers), "live": True,
                                      "bootstrap": snapshot.bootstrap})  # fmt: skip
        for key, entry in sorted(topic.configs.items()):
            if entry.source in TOPIC_OWN and entry.value is not None:
                config_set.add(_setting(key, entry.value, LiveConfig(cluster, resource, entry.source)))
        found.append(config_set)
    return found


def into(document: Document, snapshot: Snapshot, context_only: bool = False) -> None:
    """The snapshot's config sets added to `document` as one cluster of its own, with the files
    read before it (the audit's PATHs) beside it for drift."""
    files = [s for s in document.config_sets if not s.path.startswith("live://")]
    sets = [*broker_sets(snapshot), *topic_sets(snapshot)]
    for config_set in sets if context_only else ():
        config_set.facts["context_only"] = True  # the files' context: its own values are not judged
    document.config_sets += sets
    link = Link(f"read from the running cluster {snapshot.cluster_id} at {snapshot.bootstrap}")
    document.clusters[snapshot.cluster_id] = Cluster(
        snapshot.cluster_id, sets, [link], live=snapshot, beside=files, context_only=context_only
    )
