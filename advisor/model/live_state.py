"""What an audit read from a running cluster (advisor/live/ reads it, or loads a saved snapshot):
plain data the live rules judge. A part that could not be read is None or said in `not_seen`,
never an empty value that would look healthy."""

from __future__ import annotations

from dataclasses import dataclass, field

DEFAULT = "DEFAULT_CONFIG"


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
    start_offset: int | None = None  # the log start: offsets below it are deleted (retention)


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
class Reassignment:
    """A partition reassignment in progress (ListPartitionReassignments)."""

    topic: str
    partition: int
    replicas: list[int]
    adding: list[int]
    removing: list[int]


@dataclass
class Snapshot:
    bootstrap: str
    cluster_id: str
    controller: int | None
    brokers: dict[int, str | None]  # id → rack
    broker_configs: dict[int, dict[str, Entry]] = field(default_factory=dict)
    topics: list[Topic] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    not_seen: list[str] = field(default_factory=list)  # what the principal may not describe, and why
    taken_at: float = 0.0
    reassignments: list[Reassignment] | None = None  # None: not read (not permitted, no client speaks it)
    features: dict[str, int] | None = None  # finalized feature levels (metadata.version, ...); None: not read
    failed: list[str] = field(default_factory=list)  # what failed to be read (a broker down, a timeout): partial

    def broker_value(self, broker: int, key: str) -> str | None:
        """A broker's value of `key` as read: None when it is Kafka's default (a saved snapshot
        keeps no default) or was not returned."""
        entry = self.broker_configs.get(broker, {}).get(key)
        return None if entry is None or entry.source == DEFAULT else entry.value
