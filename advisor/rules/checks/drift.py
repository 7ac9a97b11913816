"""Drift: what runs (an audit's read) against what the files given with it say. A broker value that
differs from the file's, a key the file sets that the broker left at Kafka's default, a key set at
runtime that no file holds; a topic whose partitions, replicas or configuration differ from its
definition, one defined and absent, and topics no file defines. Each finding names both places:
the file's line first (where a reviewer changes it), the live resource beside it."""

from __future__ import annotations

from typing import Any

from advisor.analysis.values import is_template
from advisor.catalog.lookup import default
from advisor.model.document import ConfigSet, Setting
from advisor.model.live_state import DEFAULT, Entry, Snapshot, Topic
from advisor.model.topology import Cluster
from advisor.rules.checks.live import live_of
from advisor.rules.registry import cluster_check
from advisor.rules.violation import Violation
from advisor.secrets import is_secret_key

# Keys that name the host, its disks or its identity: they differ between a repository's file and a
# running broker by design (compose hostnames against a cluster's), never drift.
PER_NODE = frozenset({
    "node.id", "broker.id", "listeners", "advertised.listeners", "controller.quorum.voters",
    "controller.quorum.bootstrap.servers", "log.dirs", "log.dir", "metadata.log.dir", "broker.rack", "process.roles",
})  # fmt: skip
# Throttles come and go with reassignments (KO113 and KO114 judge them).
TRANSIENT = frozenset({"leader.replication.throttled.rate", "follower.replication.throttled.rate",
                       "leader.replication.throttled.replicas", "follower.replication.throttled.replicas"})  # fmt: skip
DYNAMIC = ("DYNAMIC_BROKER_CONFIG", "DYNAMIC_DEFAULT_BROKER_CONFIG")
SHOWN = 5
Judged = list[Violation] | None  # None: nothing to compare with (no file of that kind given), not judged


def _same(written: str, running: str) -> bool:
    """The file's value and the broker's mean the same (case of booleans, list spacing, quotes)."""
    first, second = written.strip().strip("\"'"), running.strip()
    if first.lower() in ("true", "false"):
        return first.lower() == second.lower()
    return [part.strip() for part in first.split(",")] == [part.strip() for part in second.split(",")]


def _comparable(key: str) -> bool:
    return key not in PER_NODE and key not in TRANSIENT and not is_secret_key(key)


def _node_of(config_set: ConfigSet) -> int | None:
    """The broker a file stands for, when it says (node.id, broker.id); None: a file every broker shares."""
    for key in ("node.id", "broker.id"):
        setting = config_set.settings.get(key)
        if setting is not None and setting.value.strip().isdigit():
            return int(setting.value.strip())
    return None


def _brokers_of(config_set: ConfigSet, snapshot: Snapshot) -> list[int]:
    """The described brokers a broker file is compared with: its own, or all of them."""
    node = _node_of(config_set)
    described = sorted(snapshot.broker_configs)
    return [node] if node in snapshot.broker_configs else [] if node is not None else described


def _shown(value: str) -> str:
    return value if len(value) <= 60 else value[:57] + "..."


@cluster_check(arguments=("key", "written", "running", "broker", "how"))
def broker_config_drift(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> list[Violation] | None:
    """Each key a broker file sets whose running value differs (set in the broker's own file, or
    overridden by a dynamic update), or that the running broker leaves at Kafka's default: one
    finding per line and running value, with every broker that runs it."""
    snapshot = live_of(cluster)
    files = [s for s in cluster.beside if s.component == "broker" and not s.facts.get("dynamic_update")]
    if not files or not snapshot.broker_configs:
        return None  # nothing to compare: no broker file given, or no broker described
    found = []
    for config_set in files:
        for key, setting in sorted(config_set.settings.items()):
            if not _comparable(key) or setting.secret or is_template(setting.value):
                continue
            differing: dict[tuple[str, str], list[int]] = {}
            for broker in _brokers_of(config_set, snapshot):
                entry = snapshot.broker_configs[broker].get(key, Entry(None, DEFAULT))
                running = entry.value
                if running is None and entry.source == DEFAULT:
                    running = _default_text(key, "broker")  # a saved snapshot keeps no default
                if entry.sensitive or running is None or _same(setting.value, running):
                    continue  # hidden, or a default with no value (log.retention.ms: hours decide), or the same
                differing.setdefault((entry.source, running), []).append(broker)
            for (source, value), brokers in differing.items():
                found.append(_drifted(snapshot, key, setting, source, value, brokers))
    return found


HOW = {"DEFAULT_CONFIG": "is at Kafka's default", "STATIC_BROKER_CONFIG": "is another value in the broker's own file",
       "DYNAMIC_BROKER_CONFIG": "is overridden by a dynamic update of the broker",
       "DYNAMIC_DEFAULT_BROKER_CONFIG": "is overridden by a cluster-wide dynamic update"}  # fmt: skip


def _drifted(snapshot: Snapshot, key: str, setting: Setting, source: str, value: str,
             brokers: list[int]) -> Violation:  # fmt: skip
    arguments = {"key": key, "written": _shown(setting.value), "running": _shown(value or ""),
                 "broker": ", ".join(str(b) for b in brokers),
                 "how": HOW.get(source, f"runs another value ({source})")}  # fmt: skip
    places = tuple(snapshot.place(f"broker:{broker}", source) for broker in brokers)
    subject = f"broker {brokers[0]}" if len(brokers) == 1 else f"brokers {arguments['broker']}"
    return Violation(keys=(key,), location=setting.location, arguments=arguments, related=places, subject=subject)


@cluster_check(arguments=("key", "running", "broker", "source"))
def broker_key_set_at_runtime(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> Judged:
    """Each key set dynamically on the running brokers (kafka-configs) that no file given holds:
    neither a broker file nor a kafka-configs script of the repository."""
    snapshot = live_of(cluster)
    files = [s for s in cluster.beside if s.component == "broker"]
    if not files:
        return None
    held = {key for s in files for key in s.settings}
    # where the key belongs: the broker file (a kafka-configs script only when there is no other)
    home = next((s for s in files if not s.facts.get("dynamic_update")), files[0]).anchor
    found = []
    seen_cluster_wide: set[str] = set()
    for broker in sorted(snapshot.broker_configs):
        for key, entry in sorted(snapshot.broker_configs[broker].items()):
            if entry.source not in DYNAMIC or key in held or not _comparable(key) or entry.value is None:
                continue
            wide = entry.source == "DYNAMIC_DEFAULT_BROKER_CONFIG"
            if wide and key in seen_cluster_wide:
                continue  # one update for all brokers: said once
            seen_cluster_wide |= {key} if wide else set()
            where = "all brokers" if wide else f"broker {broker}"
            arguments = {"key": key, "running": _shown(entry.value), "broker": where, "source": entry.source}
            found.append(Violation(keys=(key,), location=snapshot.place(f"broker:{broker}", entry.source),
                                   arguments=arguments, related=(home,), subject=where))  # fmt: skip
    return found


class _Definition:
    """A topic as the files define it: one KafkaTopic, or the kafka-topics and kafka-configs calls
    that create and change it (in file order, the later winning)."""

    def __init__(self, sets: list[ConfigSet]) -> None:
        self.anchor = sets[0].anchor
        self.counts = {fact: next((_count(s.facts.get(fact)) for s in reversed(sets)
                                   if _count(s.facts.get(fact)) is not None), None)
                       for fact in ("partitions", "replicas")}  # fmt: skip
        self.settings = {key: setting for s in sets for key, setting in s.settings.items()}


def _topic_files(cluster: Cluster) -> dict[str, _Definition]:
    named: dict[str, list[ConfigSet]] = {}
    for config_set in cluster.beside:
        name = config_set.facts.get("topic_name")
        if config_set.component == "topic" and isinstance(name, str) and name and not is_template(name):
            named.setdefault(name, []).append(config_set)
    return {name: _Definition(sets) for name, sets in named.items()}


def _count(text: object) -> int | None:
    return int(str(text)) if str(text or "").strip().isdigit() else None


@cluster_check(arguments=("topic", "what"))
def topic_drift(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> list[Violation] | None:
    """Each topic a file defines (Strimzi KafkaTopic, kafka-topics --create) against the running
    topic: partitions, replicas, each config the file sets or the topic sets alone; a topic defined
    and not in the cluster."""
    snapshot = live_of(cluster)
    defined = _topic_files(cluster)
    if not defined:
        return None
    running = {t.name: t for t in snapshot.topics}
    complete = not any(reason.startswith(("DescribeTopics", "the cluster")) for reason in snapshot.not_seen)
    found = []
    for name, definition in sorted(defined.items()):
        topic = running.get(name)
        if topic is None:
            if complete and not snapshot.failed:
                found.append(_topic_violation(definition, snapshot, name, "is not in the cluster", None))
            continue
        found += _topic_differences(definition, snapshot, topic)
    return found


def _topic_differences(definition: _Definition, snapshot: Snapshot, topic: Topic) -> list[Violation]:
    found = []
    counts = {"partitions": len(topic.partitions), "replicas": topic.replication_factor}
    for fact, actual in counts.items():
        written = definition.counts[fact]
        if written is not None and actual and written != actual:
            what = f"has {actual} {fact}, the definition {written}"
            found.append(_topic_violation(definition, snapshot, topic.name, what, None))
    own = {k: e for k, e in topic.configs.items() if e.source == "DYNAMIC_TOPIC_CONFIG" and _comparable(k)}
    for key, setting in sorted(definition.settings.items()):
        if not _comparable(key) or setting.secret or is_template(setting.value):
            continue
        running = _effective(topic, key)
        if running is None or _same(setting.value, running):
            continue  # the same value runs (its own, the brokers', or Kafka's default), or it is not known
        entry = own.get(key)
        if entry is None:
            what = f"runs {key}={_shown(running)} (not its own: the brokers' or Kafka's), the definition sets " \
                   f"{_shown(setting.value)}"  # fmt: skip
        else:
            what = f"runs {key}={_shown(running)}, the definition sets {_shown(setting.value)}"
        found.append(_topic_violation(definition, snapshot, topic.name, what, key))
    for key in sorted(set(own) - set(definition.settings)):
        what = f"runs {key}={_shown(own[key].value or '')}, set on the cluster only (the definition does not set it)"
        found.append(_topic_violation(definition, snapshot, topic.name, what, None))
    return found


def _effective(topic: Topic, key: str) -> str | None:
    """The value the topic runs: as read (its own, or a broker value it inherits), else Kafka's
    default (a saved snapshot keeps no default); None when the broker hid it."""
    entry = topic.configs.get(key)
    return entry.value if entry is not None else _default_text(key, "topic")


def _default_text(key: str, component: str) -> str | None:
    """Kafka's default for `key` as the brokers spell it (None: no default, or an unknown key)."""
    try:
        known = default(key, component)
    except KeyError:
        return None
    if isinstance(known, bool):
        return str(known).lower()
    return ",".join(str(part) for part in known) if isinstance(known, list) else None if known is None else str(known)


def _topic_violation(definition: _Definition, snapshot: Snapshot, name: str, what: str, key: str | None) -> Violation:
    setting = definition.settings.get(key) if key else None
    location = setting.location if setting is not None else definition.anchor
    place = snapshot.place(f"topic:{name}", "DYNAMIC_TOPIC_CONFIG" if key else "Metadata")
    return Violation(keys=(key,) if key else (), location=location, arguments={"topic": name, "what": what},
                     related=(place,), subject=name)  # fmt: skip


@cluster_check(arguments=("count", "named"))
def topics_not_defined(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> list[Violation] | None:
    """The running topics no file given defines, when the files define topics at all (else every
    topic would be one): one note for the cluster. Internal and `_`-prefixed topics are Kafka's or
    its tools' own."""
    snapshot = live_of(cluster)
    defined = _topic_files(cluster)
    if not defined:
        return None
    undefined = [t.name for t in snapshot.topics if not t.internal and not t.name.startswith("_")
                 and t.name not in defined]  # fmt: skip
    if not undefined:
        return []
    named = ", ".join(undefined[:SHOWN]) + (f" and {len(undefined) - SHOWN} more" if len(undefined) > SHOWN else "")
    place = snapshot.place("cluster", "Metadata")
    return [Violation(keys=(), location=place, arguments={"count": str(len(undefined)), "named": named},
                      subject=snapshot.cluster_id)]  # fmt: skip
