"""Read a running cluster with the Admin API of confluent-kafka (the `[live]` extra): the cluster
(id, controller, brokers and racks), each broker's configuration with its source, every topic's
partitions (leader, replicas, ISR) and its configuration, every consumer group (state, assignor,
members) with its committed offsets against the partitions' end offsets.

Only describe and list requests are sent — DescribeCluster, DescribeConfigs, Metadata,
DescribeTopicPartitions, ListGroups, DescribeGroups, OffsetFetch, ListOffsets — never one that
creates, changes, joins or commits (tests/integration/test_audit_live.py reads the brokers'
request log to prove it). What the principal may not describe is kept as not seen, with why.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

BROKER_SOURCES = {
    1: "DYNAMIC_TOPIC_CONFIG", 2: "DYNAMIC_BROKER_CONFIG", 3: "DYNAMIC_DEFAULT_BROKER_CONFIG",
    4: "STATIC_BROKER_CONFIG", 5: "DEFAULT_CONFIG", 8: "GROUP_CONFIG", 0: "UNKNOWN_CONFIG",
}  # fmt: skip
DEFAULT = "DEFAULT_CONFIG"
CONFIG_BATCH = 500  # resources a DescribeConfigs request asks for at once


class LiveError(Exception):
    """The cluster could not be read at all: which address, which request, why."""


@dataclass
class Entry:
    value: str | None  # None: sensitive (the broker never returns it) or unset
    source: str
    sensitive: bool = False


@dataclass
class Partition:
    id: int
    leader: int | None
    replicas: list[int]
    isr: list[int]
    end_offset: int | None = None


@dataclass
class Topic:
    name: str
    internal: bool
    partitions: list[Partition]
    configs: dict[str, Entry] = field(default_factory=dict)


@dataclass
class Group:
    id: str
    state: str
    kind: str  # classic or consumer (KIP-848)
    assignor: str
    members: int
    static_members: int
    committed: dict[tuple[str, int], int] = field(default_factory=dict)  # (topic, partition) → offset


@dataclass
class Snapshot:
    bootstrap: str
    cluster_id: str
    controller: int | None
    brokers: dict[int, str | None]  # id → rack
    broker_configs: dict[int, dict[str, Entry]] = field(default_factory=dict)
    topics: list[Topic] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    not_seen: list[str] = field(default_factory=list)  # what could not be read, and why
    taken_at: float = 0.0


def _wait(futures: dict[Any, Any], what: str, not_seen: list[str]) -> dict[Any, Any]:
    """Each future's result; one that failed is said in `not_seen` (never taken as absent)."""
    found = {}
    for key, future in futures.items():
        try:
            found[key] = future.result()
        except Exception as error:  # noqa: BLE001 - a KafkaException per resource: said, the rest read
            name = getattr(key, "name", None) or getattr(key, "topic", None) or key
            not_seen.append(f"{what} {name}: {_reason(error)}")
    return found


def _reason(error: BaseException) -> str:
    inner = error.args[0] if error.args else error
    text = getattr(inner, "str", lambda: str(inner))()
    return " ".join(str(text).split())[:300]


def _entries(config: dict[str, Any]) -> dict[str, Entry]:
    return {name: Entry(entry.value, BROKER_SOURCES.get(int(entry.source), str(entry.source)), entry.is_sensitive)
            for name, entry in config.items()}  # fmt: skip


def read(bootstrap: str, settings: dict[str, str] | None = None, timeout: float = 60.0) -> Snapshot:
    """The cluster at `bootstrap` (client `settings`: security from --command-config), within
    `timeout` seconds in all; LiveError when not even the cluster itself can be described."""
    from confluent_kafka import ConsumerGroupTopicPartitions, KafkaException, TopicCollection, TopicPartition
    from confluent_kafka.admin import AdminClient, ConfigResource, OffsetSpec, ResourceType  # type: ignore[attr-defined]

    deadline = time.monotonic() + timeout

    def left() -> float:
        return max(1.0, deadline - time.monotonic())

    config: dict[str, str | int | float | bool] = {**(settings or {}), "bootstrap.servers": bootstrap,
                                                   "client.id": "kafka-advisor-audit"}  # fmt: skip
    config.setdefault("socket.timeout.ms", str(int(min(timeout, 30) * 1000)))
    admin = AdminClient(config)
    try:
        cluster = admin.describe_cluster(request_timeout=left()).result()
    except KafkaException as error:
        raise LiveError(f"{bootstrap}: DescribeCluster: {_reason(error)}") from None
    brokers = {node.id: node.rack for node in cluster.nodes}
    snapshot = Snapshot(bootstrap, cluster.cluster_id or bootstrap, cluster.controller.id if cluster.controller
                        else None, brokers, taken_at=time.time())  # fmt: skip
    for broker in sorted(brokers):  # a DescribeConfigs request names one broker at most
        resource = ConfigResource(ResourceType.BROKER, str(broker))
        described = _wait(admin.describe_configs([resource], request_timeout=left()), f"broker {broker} configs",
                          snapshot.not_seen)  # fmt: skip
        snapshot.broker_configs |= {int(r.name): _entries(c) for r, c in described.items()}
    names = [name for name in admin.list_topics(timeout=left()).topics]
    topics: dict[str, Topic] = {}
    for start in range(0, len(names), CONFIG_BATCH):
        batch = sorted(names)[start : start + CONFIG_BATCH]
        found = _wait(admin.describe_topics(TopicCollection(batch), request_timeout=left()), "topic", snapshot.not_seen)
        for name, described_topic in found.items():
            partitions = [Partition(p.id, p.leader.id if p.leader else None, [r.id for r in p.replicas],
                                    [r.id for r in p.isr]) for p in described_topic.partitions]  # fmt: skip
            topics[name] = Topic(name, described_topic.is_internal, partitions)
        configs = _wait(admin.describe_configs([ConfigResource(ResourceType.TOPIC, n) for n in batch],
                                               request_timeout=left()), "topic configs", snapshot.not_seen)  # fmt: skip
        for resource, entries in configs.items():
            if resource.name in topics:
                topics[resource.name].configs = _entries(entries)
    snapshot.topics = [topics[name] for name in sorted(topics)]
    _end_offsets(admin, snapshot, OffsetSpec, TopicPartition, left)
    _groups(admin, snapshot, ConsumerGroupTopicPartitions, left)
    return snapshot


def _end_offsets(admin: Any, snapshot: Snapshot, spec: Any, partition: Any, left: Any) -> None:
    """Each partition's end offset (ListOffsets, latest): the lag's other half."""
    wanted = {partition(t.name, p.id): spec.latest() for t in snapshot.topics for p in t.partitions}
    if not wanted:
        return
    found = _wait(admin.list_offsets(wanted, request_timeout=left()), "end offset", snapshot.not_seen)
    by_key = {(tp.topic, tp.partition): info.offset for tp, info in found.items()}
    for topic in snapshot.topics:
        for part in topic.partitions:
            part.end_offset = by_key.get((topic.name, part.id))


def _groups(admin: Any, snapshot: Snapshot, request: Any, left: Any) -> None:
    """Every consumer group: state, protocol, assignor, members, committed offsets (OffsetFetch)."""
    try:
        listed = admin.list_consumer_groups(request_timeout=left()).result()
    except Exception as error:  # noqa: BLE001 - not authorized to list groups: said, not taken as none
        snapshot.not_seen.append(f"consumer groups: {_reason(error)}")
        return
    snapshot.not_seen += [f"consumer groups: {_reason(e)}" for e in listed.errors]
    ids = sorted(g.group_id for g in listed.valid)
    if not ids:
        return
    described = _wait(admin.describe_consumer_groups(ids, request_timeout=left()), "consumer group", snapshot.not_seen)
    for group_id in ids:
        group = described.get(group_id)
        if group is None:
            continue
        kind = str(getattr(group, "type", "") or "").rsplit(".", 1)[-1].lower() or "classic"
        static = sum(1 for m in group.members if getattr(m, "group_instance_id", None))
        found = Group(group_id, str(group.state).rsplit(".", 1)[-1], kind, group.partition_assignor or "",
                      len(group.members), static)  # fmt: skip
        offsets = _wait(admin.list_consumer_group_offsets([request(group_id)], request_timeout=left()),
                        "committed offsets of", snapshot.not_seen)  # fmt: skip
        for result in offsets.values():
            for tp in result.topic_partitions:
                if tp.offset is not None and tp.offset >= 0:
                    found.committed[(tp.topic, tp.partition)] = tp.offset
        snapshot.groups.append(found)
