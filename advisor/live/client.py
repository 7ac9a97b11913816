"""Read a running cluster with the Admin API of confluent-kafka and kafka-python (the `[live]`
extra): the cluster (id, controller, brokers and racks, what the principal may do on it), each
broker's configuration with its source, every topic's partitions (leader, replicas, ISR, end and
start offsets, size on disk) and its configuration, every consumer group (state, assignor,
members) with its committed offsets, reassignments in progress, feature levels, log directories,
ACLs, client quotas and SCRAM user names.

Only describe and list requests are sent, never one that creates, changes, joins or commits
(tests/integration/test_audit_live.py reads the brokers' request log to prove it). What the
principal may not describe is kept as not seen, with why; what failed to be read (a broker down,
a timeout) as failed, which makes the audit partial.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from advisor.model.live_state import (
    DEFAULT,
    Acl,
    Entry,
    Group,
    LagSample,
    LogDir,
    Partition,
    Quota,
    Reassignment,
    Snapshot,
    Topic,
)

__all__ = ["DEFAULT", "Entry", "Group", "LiveError", "Partition", "Reassignment", "Snapshot", "Topic", "read"]

BROKER_SOURCES = {
    1: "DYNAMIC_TOPIC_CONFIG", 2: "DYNAMIC_BROKER_CONFIG", 3: "DYNAMIC_DEFAULT_BROKER_CONFIG",
    4: "STATIC_BROKER_CONFIG", 5: "DEFAULT_CONFIG", 8: "GROUP_CONFIG", 0: "UNKNOWN_CONFIG",
}  # fmt: skip
CONFIG_BATCH = 500  # resources a DescribeConfigs request asks for at once
OFFSETS_BATCH = 5000  # partitions a ListOffsets call asks for (librdkafka slows past a few thousand a call)
# Kafka's internal topics (Topic.INTERNAL_TOPICS): Metadata marks them so; librdkafka does not pass it on
INTERNAL_TOPICS = frozenset({"__consumer_offsets", "__transaction_state", "__share_group_state"})
SHOWN = 5  # resources named in one line of what could not be read; the rest counted
_AFTER = re.compile(r"\s*\(after \d+ms in state \w+\)")  # librdkafka's timing: the same error differs by it
# librdkafka's group states as Kafka names them (kafka-consumer-groups --describe --state)
GROUP_STATES = {"STABLE": "Stable", "EMPTY": "Empty", "PREPARING_REBALANCE": "PreparingRebalance",
                "COMPLETING_REBALANCE": "CompletingRebalance", "DEAD": "Dead", "ASSIGNING": "Assigning",
                "RECONCILING": "Reconciling", "UNKNOWN": "Unknown"}  # fmt: skip


class LiveError(Exception):
    """The cluster could not be read at all: which address, which request, why."""


def _wait(futures: dict[Any, Any], what: str, snapshot: Snapshot) -> dict[Any, Any]:
    """Each future's result; the ones that failed are said (never taken as absent), one line per
    reason with the resources it struck (a broker down fails thousands of partitions alike)."""
    found = {}
    failed: dict[tuple[str, bool], list[str]] = {}
    for key, future in futures.items():
        try:
            found[key] = future.result()
        except Exception as error:  # noqa: BLE001 - a KafkaException per resource: said, the rest read
            name = getattr(key, "name", None) or getattr(key, "topic", None) or key
            partition = getattr(key, "partition", None)
            shown = f"{name}-{partition}" if isinstance(partition, int) and partition >= 0 else str(name)
            failed.setdefault((_reason(error), _denied(error)), []).append(shown)
    for (reason, denied), names in failed.items():
        many = f"{len(names)} ({', '.join(names[:SHOWN])}, ...)" if len(names) > SHOWN else ", ".join(names)
        (snapshot.not_seen if denied else snapshot.failed).append(f"{what} {many}: {reason}")
    return found


def _denied(error: BaseException) -> bool:
    """An authorization refusal (the principal may not describe it), as both clients say it."""
    inner = error.args[0] if error.args else error
    name = getattr(inner, "name", lambda: "")() if callable(getattr(inner, "name", None)) else ""
    return "AUTHORIZATION_FAILED" in str(name) or "AuthorizationFailed" in type(error).__name__


def _record(snapshot: Snapshot, what: str, error: BaseException) -> None:
    """A part not read: not seen when the principal may not describe it, else a failure (a broker
    down, a timeout) that makes the audit partial."""
    (snapshot.not_seen if _denied(error) else snapshot.failed).append(f"{what}: {_reason(error)}")


def _reason(error: BaseException) -> str:
    """One short line: librdkafka's error string, or kafka-python's error name and what it means
    (its message repeats the whole request and the broker's session)."""
    if type(error).__module__.startswith("kafka.") and getattr(error, "message", None):
        text = f"{error.message}: {getattr(error, 'description', '')}".rstrip(": ")  # type: ignore[attr-defined]
    else:
        inner = error.args[0] if error.args else error
        text = getattr(inner, "str", lambda: str(inner))()
    return " ".join(str(text).split())[:300]


def _entries(config: dict[str, Any]) -> dict[str, Entry]:
    return {name: Entry(entry.value, BROKER_SOURCES.get(int(entry.source), str(entry.source)), entry.is_sensitive)
            for name, entry in config.items()}  # fmt: skip


Progress = Callable[[str, int, int], None]  # (what is being read, done, of how many)


def _quiet(what: str, done: int, total: int) -> None:
    return None


def read(bootstrap: str, settings: dict[str, str] | None = None, timeout: float = 60.0,
         progress: Progress = _quiet, lag_interval: float = 0.0) -> Snapshot:  # fmt: skip
    """The cluster at `bootstrap` (client `settings`: security from --command-config), within
    `timeout` seconds in all (what is left unread when it runs out is said, and the read is
    partial); with `lag_interval`, the end and committed offsets once more that many seconds after
    the first read (the wait comes on top of the timeout). LiveError when not even the cluster
    itself can be described."""
    from confluent_kafka import ConsumerGroupTopicPartitions, KafkaException, TopicPartition
    from confluent_kafka.admin import AdminClient, ConfigResource, OffsetSpec, ResourceType  # type: ignore[attr-defined]

    deadline = time.monotonic() + timeout + lag_interval  # the wait between the two reads is not reading

    def left() -> float:
        return max(1.0, deadline - time.monotonic())

    def in_time(what: str) -> bool:
        if time.monotonic() < deadline:
            return True
        snapshot.failed.append(f"--timeout {timeout:g} s reached: {what} not read")
        return False

    from advisor.live.settings import Security

    security = Security(settings or {})
    if security.refused:
        raise LiveError(f"--command-config: {security.refused}")
    config: dict[str, str | int | float | bool] = {**security.librdkafka(), "bootstrap.servers": bootstrap,
                                                   "client.id": "kafka-advisor-audit",
                                                   "socket.timeout.ms": str(int(min(timeout, 30) * 1000)),
                                                   "log_level": 0}  # fmt: skip  # its retries are not ours to print
    said: list[str] = []  # what the connections met (refused, authentication failed): librdkafka's error callback
    config["error_cb"] = lambda error: said.append(_AFTER.sub("", " ".join(str(error.str()).split()))[:300])  # type: ignore[assignment]
    admin = None
    try:
        admin = AdminClient(config)
        cluster = admin.describe_cluster(request_timeout=left(), include_authorized_operations=True).result()
    except KafkaException as error:
        if admin is not None:
            admin.poll(0.1)  # the error callback is served by poll
        why = "; ".join(dict.fromkeys(said[-3:]))  # the last distinct ones: why it timed out
        raise LiveError(f"DescribeCluster: {_reason(error)}" + (f" ({why})" if why else "")) from None
    brokers = {node.id: node.rack for node in cluster.nodes}
    snapshot = Snapshot(bootstrap, cluster.cluster_id or bootstrap, cluster.controller.id if cluster.controller
                        else None, brokers, taken_at=time.time())  # fmt: skip
    snapshot.not_seen += [f"--command-config {key}: not used (the audit takes the connection's security only)"
                          for key in security.unused]  # fmt: skip
    # Asked for, an empty set comes back as None: the principal may do nothing on the cluster.
    allowed = {str(op).rsplit(".", 1)[-1] for op in cluster.authorized_operations or ()}
    snapshot.cluster_operations = sorted(allowed)
    if not allowed & {"DESCRIBE", "ALL"}:
        # Metadata leaves out, without a word, the topics a principal may not describe: say what may be missing
        snapshot.not_seen.append(
            "the cluster: this principal may not Describe it (topics it may not describe are "
            "left out of Metadata without a word; see docs/audit.md, Permissions)"
        )
    for done, broker in enumerate(sorted(brokers)):  # a DescribeConfigs request names one broker at most
        progress("brokers' configuration", done, len(brokers))
        if not in_time(f"broker {broker}'s configuration"):
            break
        resource = ConfigResource(ResourceType.BROKER, str(broker))
        described = _wait(admin.describe_configs([resource], request_timeout=left()), "DescribeConfigs: broker",
                          snapshot)  # fmt: skip
        snapshot.broker_configs |= {int(r.name): _entries(c) for r, c in described.items()}
    try:
        metadata = admin.list_topics(timeout=left()).topics  # every topic's partitions, leaders, replicas, ISR
    except KafkaException as error:
        _record(snapshot, "Metadata (the topics)", error)
        metadata = {}
    topics: dict[str, Topic] = {}
    for name, found_topic in sorted(metadata.items()):
        if found_topic.error is not None:
            _record(snapshot, f"Metadata: topic {name}", KafkaException(found_topic.error))
            continue
        partitions = [Partition(p.id, p.leader if p.leader >= 0 else None, list(p.replicas), list(p.isrs))
                      for p in sorted(found_topic.partitions.values(), key=lambda p: p.id)]  # fmt: skip
        topics[name] = Topic(name, name in INTERNAL_TOPICS, partitions)
    names = sorted(topics)
    # Every batch asked at once (the brokers answer them side by side), then each waited for.
    asked = []
    for start in range(0, len(names), CONFIG_BATCH):
        if not in_time(f"{len(names) - start} topics' configuration"):
            break
        batch = [ConfigResource(ResourceType.TOPIC, n) for n in names[start : start + CONFIG_BATCH]]
        asked.append(admin.describe_configs(batch, request_timeout=left()))
    for done, futures in enumerate(asked):
        progress("topics", done * CONFIG_BATCH, len(names))
        for resource, entries in _wait(futures, "DescribeConfigs: topic", snapshot).items():
            topics[resource.name].configs = _entries(entries)
    snapshot.topics = [topics[name] for name in sorted(topics)]
    _absent_brokers(snapshot)
    steps: list[tuple[str, Callable[[], None]]] = [
        ("offsets", lambda: _offsets(admin, snapshot, OffsetSpec, TopicPartition, left)),
        ("consumer groups", lambda: _groups(admin, snapshot, ConsumerGroupTopicPartitions, left)),
        ("reassignments", lambda: _second_client(bootstrap, settings or {}, snapshot, left)),
    ]
    if lag_interval > 0:
        steps.append(("offsets again", lambda: _again(admin, snapshot, OffsetSpec, TopicPartition,
                                                      ConsumerGroupTopicPartitions, lag_interval, left)))  # fmt: skip
    for done, (what, step) in enumerate(steps):
        progress(what, done, len(steps))
        if in_time(what):
            step()
    return snapshot


def _again(admin: Any, snapshot: Snapshot, spec: Any, partition: Any, request: Any, interval: float,
           left: Any) -> None:  # fmt: skip
    """The end offsets and every group's committed offsets, `interval` seconds after the first read."""
    if left() <= interval + 1:
        snapshot.failed.append(f"--lag-interval {interval:g} s: the offsets were not read again (--timeout reached)")
        return
    first = snapshot.taken_at
    time.sleep(max(0.0, first + interval - time.time()))
    later = LagSample(round(time.time() - first, 3))
    wanted = {partition(t.name, p.id): spec.latest() for t in snapshot.topics for p in t.partitions}
    if wanted:
        what = "ListOffsets (end, again):"
        later.end_offsets = _offsets_read(_wait(admin.list_offsets(wanted, request_timeout=left()), what, snapshot),
                                          what, snapshot)  # fmt: skip
    for group in snapshot.groups:
        offsets = _wait(admin.list_consumer_group_offsets([request(group.id)], request_timeout=left()),
                        "OffsetFetch (again): group", snapshot)  # fmt: skip
        later.committed[group.id] = {
            (tp.topic, tp.partition): tp.offset
            for result in offsets.values()
            for tp in result.topic_partitions
            if tp.offset is not None and tp.offset >= 0
        }
    snapshot.later = later


def _absent_brokers(snapshot: Snapshot) -> None:
    """Brokers that hold replicas but are not among the cluster's (stopped, fenced): not read."""
    held: dict[int, int] = {}
    for topic in snapshot.topics:
        for part in topic.partitions:
            for replica in part.replicas:
                if replica not in snapshot.brokers:
                    held[replica] = held.get(replica, 0) + 1
    snapshot.failed += [f"broker {broker}: holds replicas of {count} partition(s) but is not among the cluster's "
                        "running brokers (stopped or fenced): not read"
                        for broker, count in sorted(held.items())]  # fmt: skip


def _offsets(admin: Any, snapshot: Snapshot, spec: Any, partition: Any, left: Any) -> None:
    """Each partition's end offset (the lag's other half) and log start offset (below it,
    retention has deleted the records): ListOffsets, latest and earliest."""
    every = [partition(t.name, p.id) for t in snapshot.topics for p in t.partitions if p.leader is not None]
    for kind, attribute in ((spec.latest, "end_offset"), (spec.earliest, "start_offset")):
        futures: dict[Any, Any] = {}
        for start in range(0, len(every), OFFSETS_BATCH):  # asked at once, in calls librdkafka handles fast
            chunk = {tp: kind() for tp in every[start : start + OFFSETS_BATCH]}
            futures |= admin.list_offsets(chunk, request_timeout=left())
        what = f"ListOffsets ({attribute.split('_')[0]}):"
        by_key = _offsets_read(_wait(futures, what, snapshot), what, snapshot)
        for topic in snapshot.topics:
            for part in topic.partitions:
                setattr(part, attribute, by_key.get((topic.name, part.id)))


def _offsets_read(found: dict[Any, Any], what: str, snapshot: Snapshot) -> dict[tuple[str, int], int]:
    """The offsets ListOffsets returned. librdkafka answers a partition it got no answer for (the
    request timed out: its leader gone) with an offset below 0 and no error: failed, said."""
    offsets, missing = {}, []
    for tp, info in found.items():
        if info.offset is not None and info.offset >= 0:
            offsets[(tp.topic, tp.partition)] = info.offset
        else:
            missing.append(f"{tp.topic}-{tp.partition}")
    if missing:
        many = f"{len(missing)} ({', '.join(missing[:SHOWN])}, ...)" if len(missing) > SHOWN else ", ".join(missing)
        snapshot.failed.append(f"{what} {many}: no offset came back (the request timed out, or the leader is gone)")
    return offsets


def _second_client(bootstrap: str, settings: dict[str, str], snapshot: Snapshot, left: Any) -> None:
    """What librdkafka's Admin API does not speak — ListPartitionReassignments, DescribeFeatures —
    read with kafka-python (in the `[live]` extra); without it they are said as not seen."""
    import logging

    from advisor.live.settings import kafka_python

    logging.getLogger("kafka").addHandler(logging.NullHandler())  # its retries are not ours to print
    try:
        from kafka.admin import KafkaAdminClient
    except ImportError:
        snapshot.not_seen.append(
            "reassignments and feature levels: need kafka-python (pip install 'kafka-advisor[live]')"
        )
        return
    options = kafka_python(settings)  # refused settings stopped the read before
    if isinstance(options, str):
        snapshot.not_seen.append(f"reassignments and feature levels: {options}")
        return
    timeout_ms = int(left() * 1000)
    try:
        admin = KafkaAdminClient(bootstrap_servers=bootstrap.split(","), client_id="kafka-advisor-audit",
                                 request_timeout_ms=timeout_ms, **options)  # fmt: skip
    except Exception as error:  # noqa: BLE001 - kafka-python's errors share no base: said, the rest judged
        _record(snapshot, "reassignments and feature levels (kafka-python)", error)
        return
    try:
        try:
            found = admin.list_partition_reassignments(timeout_ms=int(left() * 1000))
            snapshot.reassignments = [
                Reassignment(tp.topic, tp.partition, list(state["replicas"]), list(state["adding_replicas"]),
                             list(state["removing_replicas"]))
                for tp, state in sorted(found.items(), key=lambda item: (item[0].topic, item[0].partition))
            ]  # fmt: skip
        except Exception as error:  # noqa: BLE001 - not authorized (Describe on the cluster): said
            _record(snapshot, "ListPartitionReassignments", error)
        if _may_describe(snapshot):  # kafka-python drops DescribeLogDirs' refusal: a refused read looks empty
            try:
                every = {t.name: [p.id for p in t.partitions] for t in snapshot.topics}  # else it asks Metadata again
                _log_dirs(admin.describe_log_dirs(every or None), snapshot)
            except Exception as error:  # noqa: BLE001 - a broker down or a timeout: said
                _record(snapshot, "DescribeLogDirs", error)
        else:
            snapshot.not_seen.append("log directories and partition sizes: this principal may not Describe the cluster")
        _security(admin, snapshot)
        try:
            snapshot.quotas = _quotas(admin)
        except Exception as error:  # noqa: BLE001 - not authorized (DescribeConfigs on the cluster): said
            _record(snapshot, "DescribeClientQuotas", error)
        try:
            features = admin.describe_features()
            snapshot.features = {name: int(state["finalized"][1]) for name, state in sorted(features.items())
                                 if state.get("finalized")}  # fmt: skip
        except Exception as error:  # noqa: BLE001 - an old broker or not authorized: said
            _record(snapshot, "DescribeFeatures", error)
    finally:
        admin.close()


def _may_describe(snapshot: Snapshot) -> bool:
    """Whether the cluster said this principal may Describe it (unknown: asked anyway)."""
    return snapshot.cluster_operations is None or bool({"DESCRIBE", "ALL"} & set(snapshot.cluster_operations))


def _log_dirs(described: list[dict[str, Any]], snapshot: Snapshot) -> None:
    """Each broker's log directories with their disk's size and free space, and each partition's
    largest replica on disk (what a reassignment copies)."""
    sizes: dict[tuple[str, int], int] = {}
    snapshot.log_dirs = {}
    for broker in described:
        if not broker["log_dirs"]:  # every broker has one at least: a refusal kafka-python does not pass on
            snapshot.failed.append(f"DescribeLogDirs: broker {broker['broker']} reported no log directory")
            continue
        dirs = snapshot.log_dirs.setdefault(int(broker["broker"]), [])
        for found in broker["log_dirs"]:
            if found.get("error_code"):
                snapshot.failed.append(f"DescribeLogDirs: broker {broker['broker']} {found.get('log_dir')}: error "
                                       f"{found['error_code']}")  # fmt: skip
                continue
            total, usable = found.get("total_bytes"), found.get("usable_bytes")
            dirs.append(LogDir(found["log_dir"], total if total is not None and total >= 0 else None,
                               usable if usable is not None and usable >= 0 else None))  # fmt: skip
            for topic in found.get("topics", ()):
                for part in topic.get("partitions", ()):
                    key = (topic["name"], int(part["partition_index"]))
                    sizes[key] = max(sizes.get(key, 0), int(part["partition_size"]))
    for topic in snapshot.topics:
        for part in topic.partitions:
            part.size_bytes = sizes.get((topic.name, part.id))


def _quotas(admin: Any) -> list[Quota]:
    """Every client quota (DescribeClientQuotas, no filter). kafka-python has the request but no
    call for it: sent as its own calls send theirs (the pinned release; the live tests prove it)."""
    import kafka.errors
    from kafka.protocol.admin.client_quotas import DescribeClientQuotasRequest

    response = admin._manager.run(admin._manager.send, DescribeClientQuotasRequest(components=[], strict=False))
    error = kafka.errors.for_code(response.error_code)
    if error is not kafka.errors.NoError:
        raise error(response.error_message)
    return [Quota({e.entity_type: e.entity_name for e in entry.entity}, {v.key: float(v.value) for v in entry.values})
            for entry in response.entries or ()]  # fmt: skip


def _security(admin: Any, snapshot: Snapshot) -> None:
    """Every ACL (DescribeAcls) and every SCRAM user's mechanisms (DescribeUserScramCredentials),
    with kafka-python: asked without Describe on the cluster, librdkafka answers DescribeAcls with
    no ACL instead of the refusal, and aborts the process on DescribeUserScramCredentials
    (confluent-kafka 2.16), so neither is asked unless the cluster says the principal may."""
    from kafka.admin import ACLFilter, ACLOperation, ACLPermissionType, ACLResourcePatternType, ResourcePatternFilter
    from kafka.admin import ResourceType as KafkaResourceType

    if not _may_describe(snapshot):
        snapshot.not_seen.append("ACLs and SCRAM users: this principal may not Describe the cluster")
        return
    pattern = ResourcePatternFilter(KafkaResourceType.ANY, None, ACLResourcePatternType.ANY)
    every = ACLFilter(principal=None, host="*", operation=ACLOperation.ANY, permission_type=ACLPermissionType.ANY,
                      resource_pattern=pattern)  # fmt: skip
    try:
        bindings, _ = admin.describe_acls(every)
        snapshot.acls = [Acl(b.principal, b.host, _name(b.operation), _name(b.permission_type),
                             _name(b.resource_pattern.resource_type), b.resource_pattern.resource_name,
                             _name(b.resource_pattern.pattern_type)) for b in bindings]  # fmt: skip
    except Exception as error:  # noqa: BLE001 - no authorizer, or not permitted: said
        if "SECURITY_DISABLED" in _reason(error) or "SecurityDisabled" in type(error).__name__:
            snapshot.not_seen.append("ACLs: the brokers run no authorizer (nothing to read)")
        else:
            _record(snapshot, "DescribeAcls", error)
    try:
        users = admin.describe_user_scram_credentials()
        snapshot.scram_users = {user: sorted(_name(info["mechanism"]) for info in found.get("credential_infos") or ())
                                for user, found in sorted(users.items())}  # fmt: skip
    except Exception as error:  # noqa: BLE001 - not permitted: said
        _record(snapshot, "DescribeUserScramCredentials", error)


def _name(value: Any) -> str:
    """An enum's name (AclOperation.READ → READ), as both clients spell it."""
    return str(getattr(value, "name", value)).rsplit(".", 1)[-1]


def _groups(admin: Any, snapshot: Snapshot, request: Any, left: Any) -> None:
    """Every consumer group: state, protocol, assignor, members, committed offsets (OffsetFetch)."""
    try:
        listed = admin.list_consumer_groups(request_timeout=left()).result()
    except Exception as error:  # noqa: BLE001 - not authorized to list groups: said, not taken as none
        _record(snapshot, "ListGroups", error)
        return
    for failure in listed.errors:
        _record(snapshot, "ListGroups", failure)
    ids = sorted(g.group_id for g in listed.valid)
    if not ids:
        return
    described = _wait(admin.describe_consumer_groups(ids, request_timeout=left()), "DescribeGroups: group", snapshot)
    for group_id in ids:
        group = described.get(group_id)
        if group is None:
            continue
        kind = str(getattr(group, "type", "") or "").rsplit(".", 1)[-1].lower() or "classic"
        static = sum(1 for m in group.members if getattr(m, "group_instance_id", None))
        state = str(group.state).rsplit(".", 1)[-1]
        found = Group(group_id, GROUP_STATES.get(state, state), kind, group.partition_assignor or "",
                      len(group.members), static)  # fmt: skip
        offsets = _wait(admin.list_consumer_group_offsets([request(group_id)], request_timeout=left()),
                        "OffsetFetch: group", snapshot)  # fmt: skip
        for result in offsets.values():
            for tp in result.topic_partitions:
                if tp.offset is not None and tp.offset >= 0:
                    found.committed[(tp.topic, tp.partition)] = tp.offset
        snapshot.groups.append(found)
