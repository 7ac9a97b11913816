"""Checks over what `audit` read from a running cluster (model/live_state.py): its partitions now,
leadership and replica spread, throttles and reassignments, consumer groups. Each finding is at
the live resource it is about (`broker:2`, `topic:orders`, `group:billing`); a part that was not
read (reassignments without permission, a broker not described) is never judged as healthy."""

from __future__ import annotations

from collections import Counter
from typing import Any

from advisor.catalog.lookup import default
from advisor.model.live_state import Partition, Snapshot, Topic
from advisor.model.topology import Cluster
from advisor.rules.registry import cluster_check
from advisor.rules.violation import Violation

SHOWN = 5  # partitions named in a message; the rest counted
ONE_SNAPSHOT = "one snapshot of the cluster: it may have healed since"
INTERNAL_TOPICS = ("__consumer_offsets", "__transaction_state", "__share_group_state")
# Classic-protocol assignors that revoke every partition at each rebalance (EAGER): Java's
# RangeAssignor, RoundRobinAssignor and StickyAssignor, librdkafka's range and roundrobin.
EAGER_ASSIGNORS = frozenset({"range", "roundrobin", "sticky"})
THROTTLE_RATES = ("leader.replication.throttled.rate", "follower.replication.throttled.rate")
THROTTLED_REPLICAS = ("leader.replication.throttled.replicas", "follower.replication.throttled.replicas")


def _named(items: list[str]) -> str:
    shown = ", ".join(items[:SHOWN])
    return shown if len(items) <= SHOWN else f"{shown} and {len(items) - SHOWN} more"


def _broker_number(snapshot: Snapshot, key: str) -> int | None:
    """The brokers' value of `key` as read (the largest where they differ), else Kafka's default;
    None when no broker's configuration was described."""
    if not snapshot.broker_configs:
        return None
    values = []
    for broker in snapshot.broker_configs:
        value = snapshot.broker_value(broker, key)
        written = value if value is not None else default(key, "broker")
        try:
            values.append(int(str(written)))
        except (TypeError, ValueError):
            continue
    return max(values) if values else None


def _topic_number(snapshot: Snapshot, topic: Topic, key: str) -> tuple[int | None, str]:
    """A topic's value of `key` and where it comes from: its own, else the brokers'."""
    entry = topic.configs.get(key)
    if entry is not None and entry.source == "DYNAMIC_TOPIC_CONFIG" and entry.value is not None:
        try:
            return int(entry.value), "DYNAMIC_TOPIC_CONFIG"
        except ValueError:
            return None, ""
    return _broker_number(snapshot, key), "brokers"


def _adding(snapshot: Snapshot) -> dict[tuple[str, int], set[int]]:
    return {(r.topic, r.partition): set(r.adding) for r in snapshot.reassignments or ()}


def _about_topic(snapshot: Snapshot, name: str, arguments: dict[str, str], source: str = "Metadata",
                 keys: tuple[str, ...] = ()) -> Violation:  # fmt: skip
    return Violation(keys=keys, location=snapshot.place(f"topic:{name}", source), arguments=arguments, subject=name)


def live_of(cluster: Cluster) -> Snapshot:
    assert cluster.live is not None  # the runner runs a live rule only on a cluster read live
    return cluster.live


@cluster_check(arguments=("topic", "count", "partitions", "named"))
def under_replicated_partitions(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> list[Violation]:
    """Per topic, the partitions whose ISR is smaller than their replicas (as Kafka counts it: a
    replica being added by a reassignment is not yet expected in the ISR)."""
    snapshot = live_of(cluster)
    adding = _adding(snapshot)
    found = []
    for topic in snapshot.topics:
        short = [p for p in topic.partitions if p.leader is not None
                 and len(set(p.replicas) - adding.get((topic.name, p.id), set())) > len(p.isr)]  # fmt: skip
        if short:
            named = [f"{p.id} (ISR {_ids(p.isr)} of {_ids(p.replicas)})" for p in short]
            found.append(_topic_violation(snapshot, topic, short, named))
    return found


def _ids(ids: list[int]) -> str:
    return "[" + ",".join(str(i) for i in ids) + "]"


def _topic_violation(snapshot: Snapshot, topic: Topic, partitions: list[Partition], named: list[str]) -> Violation:
    arguments = {"topic": topic.name, "count": str(len(partitions)), "partitions": str(len(topic.partitions)),
                 "named": _named(named)}  # fmt: skip
    found = _about_topic(snapshot, topic.name, arguments)
    found.assumptions = (ONE_SNAPSHOT,)
    return found


@cluster_check(arguments=("topic", "count", "partitions", "named"))
def offline_partitions(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> list[Violation]:
    """Per topic, the partitions with no leader: no replica can serve reads or writes."""
    snapshot = live_of(cluster)
    found = []
    for topic in snapshot.topics:
        offline = [p for p in topic.partitions if p.leader is None or p.leader < 0]
        if offline:
            named = [f"{p.id} (replicas {_ids(p.replicas)})" for p in offline]
            found.append(_topic_violation(snapshot, topic, offline, named))
    return found


@cluster_check(arguments=("topic", "replicas", "default_rf"))
def rf_below_cluster_default(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> list[Violation] | None:
    """A topic created with fewer replicas than the brokers' default.replication.factor (where
    the fewer-than-three rule does not already speak: RF 3 or more, or a cluster under 3 brokers)."""
    snapshot = live_of(cluster)
    wanted = _broker_number(snapshot, "default.replication.factor")
    if wanted is None:
        return None  # no broker's configuration was described
    found = []
    for topic in snapshot.topics:
        replicas = topic.replication_factor
        internal = topic.internal or topic.name in INTERNAL_TOPICS
        # below 3 on 3+ brokers: KT105 says it
        if not internal and 0 < replicas < wanted and not replicas < 3 <= len(snapshot.brokers):
            arguments = {"topic": topic.name, "replicas": str(replicas), "default_rf": str(wanted)}
            found.append(_about_topic(snapshot, topic.name, arguments))
    return found


@cluster_check(arguments=("topic", "min_isr", "cluster_min_isr", "replicas"))
def min_isr_below_cluster(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> list[Violation] | None:
    """A topic that sets its own min.insync.replicas lower than the brokers' (and so keeps fewer
    acknowledged copies than the cluster promises), on a topic with more than one replica."""
    cluster_min = _broker_number(live_of(cluster), "min.insync.replicas")
    if cluster_min is None:
        return None  # no broker's configuration was described
    snapshot, found = live_of(cluster), []
    for topic in snapshot.topics:
        own, source = _topic_number(snapshot, topic, "min.insync.replicas")
        replicas = topic.replication_factor
        if source == "DYNAMIC_TOPIC_CONFIG" and own is not None and own < cluster_min and replicas >= 2:
            arguments = {"topic": topic.name, "min_isr": str(own), "cluster_min_isr": str(cluster_min),
                         "replicas": str(replicas)}  # fmt: skip
            found.append(_about_topic(snapshot, topic.name, arguments, source, ("min.insync.replicas",)))
    return found


@cluster_check(arguments=("topic", "replicas", "brokers"))
def internal_topic_few_replicas(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> list[Violation]:
    """Kafka's internal topics (every group's offsets, every transaction's state) kept in fewer
    than three copies on a cluster of three brokers or more."""
    snapshot = live_of(cluster)
    brokers = len(snapshot.brokers)
    if brokers < 3:
        return []
    found = []
    for topic in snapshot.topics:
        replicas = topic.replication_factor
        if topic.name in INTERNAL_TOPICS and 0 < replicas < 3:
            arguments = {"topic": topic.name, "replicas": str(replicas), "brokers": str(brokers)}
            found.append(_about_topic(snapshot, topic.name, arguments))
    return found


@cluster_check(arguments=("broker", "not_led", "preferred", "ratio", "allowed"))
def leader_skew(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> list[Violation]:
    """Kafka's imbalance measure per broker: of the partitions whose preferred leader (first
    replica) it is, the share another broker leads though it is in the ISR, beyond the allowed
    percentage (the brokers' leader.imbalance.per.broker.percentage where set, else the rule's)."""
    snapshot = live_of(cluster)
    # The key a ZooKeeper-mode controller read (removed in Kafka 4.0): the brokers' value where set.
    written = [snapshot.broker_value(b, "leader.imbalance.per.broker.percentage") for b in snapshot.broker_configs]
    allowed = max((int(v) for v in written if v is not None and v.isdigit()), default=params["percentage"])
    preferred: Counter[int] = Counter()
    not_led: Counter[int] = Counter()
    for topic in snapshot.topics:
        for part in topic.partitions:
            if part.replicas:
                preferred[part.replicas[0]] += 1
                # only what a preferred election could move back now: the preferred replica is in the ISR
                if part.leader != part.replicas[0] and part.replicas[0] in part.isr:
                    not_led[part.replicas[0]] += 1
    found = []
    for broker in sorted(preferred):
        share = 100 * not_led[broker] / preferred[broker]
        if share > allowed and preferred[broker] >= params["partitions"]:
            arguments = {"broker": str(broker), "not_led": str(not_led[broker]), "preferred": str(preferred[broker]),
                         "ratio": f"{share:.0f}", "allowed": str(allowed)}  # fmt: skip
            found.append(Violation(keys=(), location=snapshot.place(f"broker:{broker}"), arguments=arguments,
                                   subject=f"broker {broker}",
                                   assumptions=("one snapshot of the cluster: the controller may rebalance "
                                                "leaders since (auto.leader.rebalance.enable)",)))  # fmt: skip
    return found


@cluster_check(arguments=("broker", "replicas", "mean", "brokers"))
def replicas_uneven(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> list[Violation]:
    """Brokers holding far more or far fewer partition replicas than the cluster's mean (a broker
    added and never given partitions, or one that kept them all)."""
    snapshot = live_of(cluster)
    if len(snapshot.brokers) < 2:
        return []
    held: Counter[int] = Counter({broker: 0 for broker in snapshot.brokers})
    for topic in snapshot.topics:
        for part in topic.partitions:
            held.update(r for r in part.replicas if r in held)
    mean = sum(held.values()) / len(held)
    if mean < params["mean"]:
        return []
    spread = params["spread"]
    found = []
    for broker, count in sorted(held.items()):
        if abs(count - mean) > spread * mean:
            arguments = {"broker": str(broker), "replicas": str(count), "mean": f"{mean:.0f}",
                         "brokers": str(len(held))}  # fmt: skip
            found.append(Violation(keys=(), location=snapshot.place(f"broker:{broker}"), arguments=arguments,
                                   subject=f"broker {broker}"))  # fmt: skip
    return found


@cluster_check(arguments=("what", "where"))
def throttle_left_behind(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> list[Violation] | None:
    """Replication throttles (a broker's throttled rate, a topic's throttled replicas) with no
    reassignment running: left by a reassignment nobody `--verify`-ed. Judged only when the
    reassignments in progress were read."""
    snapshot = live_of(cluster)
    if snapshot.reassignments is None:
        return None
    moving = {r.topic for r in snapshot.reassignments}
    found = []
    if not moving:
        for broker in sorted(snapshot.broker_configs):
            for key in THROTTLE_RATES:
                value = snapshot.broker_value(broker, key)
                entry = snapshot.broker_configs[broker].get(key)
                if value is not None and entry is not None:
                    found.append(Violation(keys=(key,), location=snapshot.place(f"broker:{broker}", entry.source),
                                           arguments={"what": f"{key}={value}", "where": f"broker {broker}"},
                                           subject=f"broker {broker}"))  # fmt: skip
    for topic in snapshot.topics:
        if topic.name in moving:
            continue
        for key in THROTTLED_REPLICAS:
            if value := _own(topic, key):
                arguments = {"what": f"{key}={_short(value)}", "where": f"topic {topic.name}"}
                found.append(_about_topic(snapshot, topic.name, arguments, "DYNAMIC_TOPIC_CONFIG", (key,)))
    return found


def _short(value: str) -> str:
    return value if len(value) <= 40 else value[:37] + "..."


@cluster_check(arguments=("topic", "count", "brokers"))
def reassignment_unthrottled(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> list[Violation] | None:
    """A reassignment in progress whose moves no throttle bounds: the topic lists no throttled
    replicas, or the brokers that receive the new replicas set no follower throttle rate."""
    snapshot = live_of(cluster)
    if snapshot.reassignments is None:
        return None
    by_topic: dict[str, list[int]] = {}
    for move in snapshot.reassignments:
        by_topic.setdefault(move.topic, []).extend(move.adding)
    topics = {t.name: t for t in snapshot.topics}
    found = []
    for name, receivers in sorted(by_topic.items()):
        topic = topics.get(name)
        listed = topic is not None and any(_own(topic, key) for key in THROTTLED_REPLICAS)
        rated = all(snapshot.broker_value(b, "follower.replication.throttled.rate") is not None
                    for b in set(receivers) if b in snapshot.broker_configs)  # fmt: skip
        if listed and rated:
            continue
        count = sum(1 for m in snapshot.reassignments if m.topic == name)
        arguments = {"topic": name, "count": str(count), "brokers": _ids(sorted(set(receivers)))}
        found.append(_about_topic(snapshot, name, arguments, "ListPartitionReassignments"))
    return found


def _own(topic: Topic, key: str) -> str:
    """The topic's own value of `key`, '' when it sets none."""
    entry = topic.configs.get(key)
    return (entry.value or "").strip() if entry is not None and entry.source == "DYNAMIC_TOPIC_CONFIG" else ""


@cluster_check(arguments=("group", "assignor", "members"))
def group_eager_assignor(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> list[Violation]:
    """A classic consumer group of many members whose chosen assignor is eager: every rebalance
    stops every member, for as long as the slowest takes to rejoin."""
    snapshot = live_of(cluster)
    found = []
    for group in snapshot.groups:
        if group.kind == "classic" and group.assignor in EAGER_ASSIGNORS and group.members >= params["members"]:
            arguments = {"group": group.id, "assignor": group.assignor, "members": str(group.members)}
            found.append(Violation(keys=(), location=snapshot.place(f"group:{group.id}", "DescribeGroups"),
                                   arguments=arguments, subject=group.id, component="consumer"))  # fmt: skip
    return found


@cluster_check(arguments=("group", "members"))
def group_without_static_membership(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> list[Violation]:
    """A large classic consumer group none of whose members has a group.instance.id: each
    restart of a member is a rebalance of all."""
    snapshot = live_of(cluster)
    found = []
    for group in snapshot.groups:
        if group.kind == "classic" and group.members >= params["members"] and group.static_members == 0:
            arguments = {"group": group.id, "members": str(group.members)}
            found.append(Violation(keys=(), location=snapshot.place(f"group:{group.id}", "DescribeGroups"),
                                   arguments=arguments, subject=group.id, component="consumer"))  # fmt: skip
    return found


@cluster_check(arguments=("group", "count", "named"))
def committed_below_log_start(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> list[Violation]:
    """A group's committed offset below its partition's log start offset: retention deleted records
    the group had not read, and its next fetch is out of range (auto.offset.reset decides)."""
    snapshot = live_of(cluster)
    starts = {(t.name, p.id): p.start_offset for t in snapshot.topics for p in t.partitions}
    found = []
    for group in snapshot.groups:
        behind = []
        for (topic, partition), offset in sorted(group.committed.items()):
            start = starts.get((topic, partition))
            if start is not None and offset < start:
                behind.append(f"{topic}-{partition} ({start - offset:,} records deleted unread)")
        if behind:
            arguments = {"group": group.id, "count": str(len(behind)), "named": _named(behind)}
            found.append(Violation(keys=(), location=snapshot.place(f"group:{group.id}", "OffsetFetch"),
                                   arguments=arguments, subject=group.id, component="consumer"))  # fmt: skip
    return found


# What writes or changes data (KO111's set for kafka-acls): Read and Describe for everyone may be meant.
CHANGING_OPERATIONS = frozenset({"WRITE", "CREATE", "DELETE", "ALTER", "ALTER_CONFIGS", "CLUSTER_ACTION",
                                 "IDEMPOTENT_WRITE", "ALL"})  # fmt: skip


@cluster_check(arguments=("operation", "resource"))
def acl_wildcard_principal(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> list[Violation] | None:
    """Each ACL on the cluster allowing User:* (every principal, ANONYMOUS included) an operation
    that writes or changes something."""
    snapshot = live_of(cluster)
    if snapshot.acls is None:
        return None
    found = []
    for acl in snapshot.acls:
        if acl.principal == "User:*" and acl.permission == "ALLOW" and acl.operation in CHANGING_OPERATIONS:
            pattern = " (prefixed)" if acl.pattern == "PREFIXED" else ""
            resource = f"{acl.resource_type.lower()} {acl.resource_name}{pattern}"
            place = snapshot.place(f"acl:{acl.resource_type.lower()}:{acl.resource_name}", "DescribeAcls")
            found.append(Violation(keys=(), location=place, subject=resource,
                                   arguments={"operation": acl.operation, "resource": resource}))  # fmt: skip
    return found


@cluster_check(arguments=("principals", "count"))
def tenants_without_quotas(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> list[Violation] | None:
    """Several principals let in by ACLs, and no client quota at all on the cluster (both read)."""
    snapshot = live_of(cluster)
    if snapshot.acls is None or snapshot.quotas is None:
        return None
    principals = sorted({a.principal for a in snapshot.acls if a.permission == "ALLOW" and a.principal != "User:*"})
    if len(principals) < params["principals"] or snapshot.quotas:
        return []
    arguments = {"principals": _named(principals), "count": str(len(principals))}
    return [Violation(keys=(), location=snapshot.place("cluster", "DescribeClientQuotas"), arguments=arguments,
                      subject=snapshot.cluster_id)]  # fmt: skip


@cluster_check(arguments=("group", "before", "after", "seconds", "produced", "consumed", "state"))
def group_lag_growing(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> list[Violation] | None:
    """A group whose lag grew between the two reads of `audit --lag-interval`: its partitions'
    producers wrote more than it committed. Judged only when the offsets were read twice."""
    snapshot = live_of(cluster)
    later = snapshot.later
    if later is None:
        return None
    ends = {(t.name, p.id): p.end_offset for t in snapshot.topics for p in t.partitions if p.end_offset is not None}
    found = []
    for group in snapshot.groups:
        again = later.committed.get(group.id, {})
        both = [tp for tp in group.committed if tp in again and tp in ends and tp in later.end_offsets]
        if not both:
            continue
        before = sum(ends[tp] - group.committed[tp] for tp in both)
        after = sum(later.end_offsets[tp] - again[tp] for tp in both)
        produced = sum(later.end_offsets[tp] - ends[tp] for tp in both)
        consumed = sum(again[tp] - group.committed[tp] for tp in both)
        if after - before >= params["growth"] and produced > consumed:
            arguments = {"group": group.id, "before": f"{before:,}", "after": f"{after:,}",
                         "seconds": f"{later.seconds:g}", "produced": f"{produced:,}", "consumed": f"{consumed:,}",
                         "state": group.state}  # fmt: skip
            found.append(Violation(keys=(), location=snapshot.place(f"group:{group.id}", "OffsetFetch"),
                                   arguments=arguments, subject=group.id, component="consumer",
                                   assumptions=(f"two reads {later.seconds:g} s apart: a longer --lag-interval "
                                                "(a minute or more) smooths commit intervals",)))  # fmt: skip
    return found
