"""What an audit read from a running cluster (advisor/live/ reads it, or loads a saved snapshot):
plain data the live rules judge. A part that could not be read is None or said in `not_seen`,
never an empty value that would look healthy."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from advisor.model.provenance import LiveConfig

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
    size_bytes: int | None = None  # its largest replica on disk (DescribeLogDirs); None: not read


@dataclass
class Topic:
    name: str
    internal: bool
    partitions: list[Partition]
    configs: dict[str, Entry] = field(default_factory=dict)

    @property
    def replication_factor(self) -> int:
        """Its partitions' most common replica count (0: no partition)."""
        counts = Counter(len(p.replicas) for p in self.partitions)
        return counts.most_common(1)[0][0] if counts else 0


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
class Acl:
    """One ACL binding (DescribeAcls): who may do what on which resource."""

    principal: str
    host: str
    operation: str  # READ, WRITE, DESCRIBE, ALL, ...
    permission: str  # ALLOW or DENY
    resource_type: str  # TOPIC, GROUP, CLUSTER, TRANSACTIONAL_ID, ...
    resource_name: str
    pattern: str  # LITERAL or PREFIXED


@dataclass
class Quota:
    """One client quota entity (DescribeClientQuotas): user and/or client-id (None: the default)."""

    entity: dict[str, str | None]
    values: dict[str, float]


@dataclass
class LogDir:
    """One log directory of a broker (DescribeLogDirs): its path, and its disk's size and free
    space where the broker reports them (Kafka 3.3 and later)."""

    path: str
    total_bytes: int | None = None
    usable_bytes: int | None = None


@dataclass
class LagSample:
    """The offsets read again a while after the first read (audit --lag-interval): whether each
    group keeps up with what is produced."""

    seconds: float  # after the first read
    end_offsets: dict[tuple[str, int], int] = field(default_factory=dict)
    committed: dict[str, dict[tuple[str, int], int]] = field(default_factory=dict)  # group → offsets


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
    acls: list[Acl] | None = None  # None: not read (not permitted, or no authorizer)
    quotas: list[Quota] | None = None
    scram_users: dict[str, list[str]] | None = None  # user → its SCRAM mechanisms (never a credential)
    later: LagSample | None = None  # None: the offsets were read once
    log_dirs: dict[int, list[LogDir]] | None = None  # broker → its log directories; None: not read
    cluster_operations: list[str] | None = None  # what the principal may do on the cluster (DESCRIBE, ...)

    def place(self, resource: str, source: str = "Metadata") -> LiveConfig:
        """Where a live finding is: `broker:2`, `topic:orders`, ... of this cluster, and what said it."""
        return LiveConfig(self.cluster_id, resource, source)

    def broker_value(self, broker: int, key: str) -> str | None:
        """A broker's value of `key` as read: None when it is Kafka's default (a saved snapshot
        keeps no default) or was not returned."""
        entry = self.broker_configs.get(broker, {}).get(key)
        return None if entry is None or entry.source == DEFAULT else entry.value
