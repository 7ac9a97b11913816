"""Reassignment plans judged against the running cluster they are for (`lint --bootstrap-server`,
or `audit` with the plan among its PATHs): moves the cluster cannot take (a broker it does not
have or that is down, a partition it does not have), moves that drop replicas, and the data a plan
copies — per receiving broker, with the time it takes at the throttle the repository's script
gives it, and against the receiving disks' free space."""

from __future__ import annotations

from typing import Any

from advisor.model.document import ConfigSet
from advisor.model.live_state import Partition, Snapshot
from advisor.model.provenance import Location
from advisor.model.topology import Cluster
from advisor.rules.checks.live import live_of
from advisor.rules.registry import cluster_check
from advisor.rules.violation import Violation

Judged = list[Violation] | None  # None: no plan given, not judged


def _plans(cluster: Cluster) -> list[ConfigSet]:
    return [s for s in cluster.beside if s.facts.get("plan")]


def _partitions(snapshot: Snapshot) -> dict[tuple[str, int], Partition]:
    return {(t.name, p.id): p for t in snapshot.topics for p in t.partitions}


def _ids(replicas: list[str]) -> list[int]:
    return [int(r) for r in replicas]


def _place(plan: ConfigSet, line: int) -> Location:
    return Location(plan.path, line)


@cluster_check(arguments=("move", "why"))
def plan_not_in_cluster(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> Judged:
    """Each move naming a broker the cluster does not have (or that is not running), or a
    partition it does not have."""
    snapshot = live_of(cluster)
    plans = _plans(cluster)
    if not plans:
        return None
    partitions = _partitions(snapshot)
    holding = {r for p in partitions.values() for r in p.replicas}  # brokers that exist, running or not
    complete = not any(reason.startswith(("DescribeTopics", "the cluster")) for reason in snapshot.not_seen)
    found = []
    for plan in plans:
        for move in plan.facts["plan"]:
            where = f"{move['topic']}-{move['partition']}"
            reasons = []
            for broker in _ids(move["replicas"]):
                if broker in snapshot.brokers:
                    continue
                known = _list(sorted(snapshot.brokers))
                reasons.append(f"broker {broker} is not running (it holds replicas)" if broker in holding
                               else f"the cluster has no broker {broker} (brokers {known})")  # fmt: skip
            if (move["topic"], int(move["partition"])) not in partitions and complete:
                reasons.append(f"the cluster has no partition {where}")
            if reasons:
                found.append(Violation(keys=(), location=_place(plan, move["line"]), subject=where,
                                       arguments={"move": where, "why": "; ".join(reasons)},
                                       related=(snapshot.place("cluster", "Metadata"),)))  # fmt: skip
    return found


def _list(ids: list[int]) -> str:
    return ", ".join(str(i) for i in ids)


@cluster_check(arguments=("move", "now", "planned"))
def plan_reduces_replicas(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> Judged:
    """Each move that gives a partition fewer replicas than it has now."""
    snapshot = live_of(cluster)
    plans = _plans(cluster)
    if not plans:
        return None
    partitions = _partitions(snapshot)
    found = []
    for plan in plans:
        for move in plan.facts["plan"]:
            now = partitions.get((move["topic"], int(move["partition"])))
            if now is not None and len(move["replicas"]) < len(now.replicas):
                where = f"{move['topic']}-{move['partition']}"
                arguments = {"move": where, "now": f"{_brackets(now.replicas)} ({len(now.replicas)})",
                             "planned": f"{_brackets(_ids(move['replicas']))} ({len(move['replicas'])})"}  # fmt: skip
                found.append(Violation(keys=(), location=_place(plan, move["line"]), arguments=arguments,
                                       subject=where,
                                       related=(snapshot.place(f"topic:{move['topic']}",
                                                           "Metadata"),)))  # fmt: skip
    return found


def _brackets(ids: list[int]) -> str:
    return "[" + ",".join(str(i) for i in ids) + "]"


def throttled_executions(cluster: Cluster) -> list[tuple[ConfigSet, dict[str, Any], int]]:
    """Each kafka-reassign-partitions --execute among the files given with a --throttle in bytes/s:
    its config set, its command (facts.command) and that throttle."""
    found = []
    for config_set in cluster.beside:
        command = config_set.facts.get("command") or {}
        flags = command.get("flags") or {}
        throttle = str(flags.get("--throttle") or "")
        if command.get("tool") == "kafka-reassign-partitions" and "--execute" in flags and throttle.isdigit():
            found.append((config_set, command, int(throttle)))
    return found


def _throttle_for(cluster: Cluster, plan: ConfigSet) -> int | None:
    """The --throttle (bytes/s) a kafka-reassign-partitions --execute of the files gives this plan."""
    for _, command, throttle in throttled_executions(cluster):
        named = str(command["flags"].get("--reassignment-json-file") or "")
        if named and named.rsplit("/", 1)[-1] == plan.path.rsplit("/", 1)[-1]:
            return throttle
    return None


def size_text(value: float) -> str:
    """Bytes as people read them: 20.0 GB, 1.5 MB, 300 B."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if value >= scale:
            return f"{value / scale:.1f} {unit}"
    return f"{value:.0f} B"


def _duration(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 60:.0f} min" if seconds >= 60 else f"{seconds:.0f} s"


def _received(plan: ConfigSet, partitions: dict[tuple[str, int], Partition], running: set[int]) -> dict[int, int]:
    """Bytes each running broker receives: each new replica copies its partition's largest replica
    on disk (a broker that is not running is KO117's)."""
    received: dict[int, int] = {}
    for move in plan.facts["plan"]:
        now = partitions.get((move["topic"], int(move["partition"])))
        if now is None or now.size_bytes is None:
            continue
        for broker in (set(_ids(move["replicas"])) - set(now.replicas)) & running:
            received[broker] = received.get(broker, 0) + now.size_bytes
    return received


def _receipts(cluster: Cluster, snapshot: Snapshot) -> list[tuple[ConfigSet, dict[int, int]]] | None:
    """Each plan with the bytes each running broker receives; None when there is no plan or the
    partitions' sizes were not read (DescribeLogDirs)."""
    plans = _plans(cluster)
    if not plans or snapshot.log_dirs is None:
        return None
    partitions = _partitions(snapshot)
    return [(plan, _received(plan, partitions, set(snapshot.brokers))) for plan in plans]


@cluster_check(arguments=("total", "brokers", "eta"))
def plan_moves_data(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> Judged:
    """Once per plan: the bytes it copies, per receiving broker, and how long that takes at the
    throttle the files give it (the busiest receiver bounds it). Judged only when the partitions'
    sizes were read (DescribeLogDirs)."""
    snapshot = live_of(cluster)
    receipts = _receipts(cluster, snapshot)
    if receipts is None:
        return None
    found = []
    for plan, received in receipts:
        if not sum(received.values()):
            continue
        throttle = _throttle_for(cluster, plan)
        eta = (f"about {_duration(max(received.values()) / throttle)} at the script's --throttle "
               f"{size_text(throttle)}/s" if throttle else "no --throttle for it in the files given: it copies as fast "
               "as the network allows")  # fmt: skip
        brokers = ", ".join(f"broker {b} {size_text(n)}" for b, n in sorted(received.items()))
        arguments = {"total": size_text(sum(received.values())), "eta": eta, "brokers": brokers}
        found.append(Violation(keys=(), location=plan.anchor, arguments=arguments, subject=plan.name,
                               related=(snapshot.place("cluster", "DescribeLogDirs"),)))  # fmt: skip
    return found


@cluster_check(arguments=("broker", "receives", "free"))
def plan_exceeds_free_disk(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> Judged:
    """Each broker a plan copies more bytes to than its log directories have free (their disks'
    usable bytes, as the broker reports them: Kafka 3.3 and later)."""
    snapshot = live_of(cluster)
    receipts = _receipts(cluster, snapshot)
    if receipts is None or snapshot.log_dirs is None:
        return None
    found = []
    for plan, received in receipts:
        for broker, bytes_in in sorted(received.items()):
            dirs = [d for d in snapshot.log_dirs.get(broker, []) if d.usable_bytes is not None]
            free = sum(d.usable_bytes or 0 for d in dirs)
            if dirs and free < bytes_in:
                arguments = {"broker": str(broker), "receives": size_text(bytes_in), "free": size_text(free)}
                found.append(Violation(keys=(), location=plan.anchor, arguments=arguments, subject=f"broker {broker}",
                                       related=(snapshot.place(f"broker:{broker}",
                                                           "DescribeLogDirs"),)))  # fmt: skip
    return found
