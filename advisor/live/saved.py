"""A Snapshot saved as JSON (`audit --save-snapshot FILE`) and read back (`audit --snapshot FILE`):
the same audit offline — in CI, on another machine, as a rule's fixture. The file is checked field
by field (a wrong one is `path:line: field: why`, never an internal error), bounded in size by the
limits every input has, and holds no secret: a sensitive value was never returned by the broker,
and a value of a key that names a secret is saved as hidden."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from advisor.model import live_state as state
from advisor.model.document import LoadError
from advisor.secrets import is_secret_key

FORMAT = "kafka-advisor-snapshot"
VERSION = 1
HIDDEN = "[hidden]"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Entry(_Strict):
    value: str | None
    source: str = Field(max_length=64)
    sensitive: bool = False


class _Partition(_Strict):
    id: int = Field(ge=0)
    leader: int | None
    replicas: list[int]
    isr: list[int]
    end_offset: int | None = None
    start_offset: int | None = None
    size_bytes: int | None = Field(default=None, ge=0)


class _Topic(_Strict):
    name: str = Field(min_length=1, max_length=249)  # Kafka's longest topic name
    internal: bool = False
    partitions: list[_Partition]
    configs: dict[str, _Entry] = {}


class _Group(_Strict):
    id: str
    state: str
    kind: str = "classic"
    assignor: str = ""
    members: int = Field(ge=0)
    static_members: int = Field(ge=0, default=0)
    committed: list[tuple[str, int, int]] = []  # (topic, partition, offset)


class _Reassignment(_Strict):
    topic: str = Field(min_length=1, max_length=249)
    partition: int = Field(ge=0)
    replicas: list[int]
    adding: list[int] = []
    removing: list[int] = []


class _Acl(_Strict):
    principal: str
    host: str
    operation: str
    permission: str
    resource_type: str
    resource_name: str
    pattern: str


class _Quota(_Strict):
    entity: dict[str, str | None]
    values: dict[str, float]


class _LogDir(_Strict):
    path: str
    total_bytes: int | None = Field(default=None, ge=0)
    usable_bytes: int | None = Field(default=None, ge=0)


class _Later(_Strict):
    seconds: float = Field(gt=0)
    end_offsets: list[tuple[str, int, int]] = []  # (topic, partition, offset)
    committed: dict[str, list[tuple[str, int, int]]] = {}  # group → (topic, partition, offset)


class _Snapshot(_Strict):
    format: Literal["kafka-advisor-snapshot"]
    version: Literal[1]
    bootstrap: str
    cluster_id: str = Field(min_length=1, max_length=200)
    controller: int | None
    brokers: dict[int, str | None]
    broker_configs: dict[int, dict[str, _Entry]] = {}
    topics: list[_Topic] = []
    groups: list[_Group] = []
    not_seen: list[str] = []
    taken_at: float = 0.0
    reassignments: list[_Reassignment] | None = None  # absent: not read (never taken as none running)
    features: dict[str, int] | None = None
    failed: list[str] = []  # what the live read failed to read: the audit of this file is partial too
    acls: list[_Acl] | None = None
    quotas: list[_Quota] | None = None
    scram_users: dict[str, list[str]] | None = None
    later: _Later | None = None
    log_dirs: dict[int, list[_LogDir]] | None = None
    cluster_operations: list[str] | None = None


def _entries(entries: dict[str, state.Entry]) -> dict[str, dict[str, Any]]:
    """The values that are not Kafka's defaults (what the audit judges; a default is no news)."""
    saved = {}
    for key, entry in sorted(entries.items()):
        if entry.source == state.DEFAULT:
            continue
        value = HIDDEN if is_secret_key(key) and entry.value is not None else entry.value
        saved[key] = {"value": value, "source": entry.source, "sensitive": entry.sensitive}
    return saved


def dump(snapshot: state.Snapshot) -> str:
    record = {
        "format": FORMAT,
        "version": VERSION,
        "bootstrap": snapshot.bootstrap,
        "cluster_id": snapshot.cluster_id,
        "controller": snapshot.controller,
        "brokers": {str(b): rack for b, rack in sorted(snapshot.brokers.items())},
        "broker_configs": {str(b): _entries(c) for b, c in sorted(snapshot.broker_configs.items())},
        "topics": [
            {
                "name": t.name,
                "internal": t.internal,
                "configs": _entries(t.configs),
                "partitions": [vars(p) for p in t.partitions],
            }
            for t in snapshot.topics
        ],
        "groups": [
            {
                **{k: v for k, v in vars(g).items() if k != "committed"},
                "committed": [[topic, part, offset] for (topic, part), offset in sorted(g.committed.items())],
            }
            for g in snapshot.groups
        ],
        "not_seen": snapshot.not_seen,
        "taken_at": snapshot.taken_at,
        "reassignments": None if snapshot.reassignments is None else [vars(r) for r in snapshot.reassignments],
        "features": snapshot.features,
        "failed": snapshot.failed,
        "acls": None if snapshot.acls is None else [vars(a) for a in snapshot.acls],
        "quotas": None if snapshot.quotas is None else [vars(q) for q in snapshot.quotas],
        "scram_users": snapshot.scram_users,
        "cluster_operations": snapshot.cluster_operations,
        "log_dirs": None
        if snapshot.log_dirs is None
        else {str(b): [vars(d) for d in dirs] for b, dirs in sorted(snapshot.log_dirs.items())},
        "later": None
        if snapshot.later is None
        else {
            "seconds": snapshot.later.seconds,
            "end_offsets": [[t, p, o] for (t, p), o in sorted(snapshot.later.end_offsets.items())],
            "committed": {
                g: [[t, p, o] for (t, p), o in sorted(c.items())] for g, c in sorted(snapshot.later.committed.items())
            },
        },
    }
    return json.dumps(record, indent=1) + "\n"


def load(path: str, text: str) -> state.Snapshot:
    """The snapshot a file holds; LoadError (`path:line`) when it is not one."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise LoadError(path, error.lineno, f"not JSON: {error.msg}", "syntax") from None
    except RecursionError:
        raise LoadError(path, 1, "not JSON: nested too deep", "syntax") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LoadError(path, 1, f'not a saved snapshot (its "format" is not "{FORMAT}")', "unsupported")
    try:
        saved = _Snapshot.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "snapshot"
        raise LoadError(path, 1, f"{where}: {first['msg']}", "syntax") from None

    def entries(found: dict[str, _Entry]) -> dict[str, state.Entry]:
        return {key: state.Entry(None if e.value == HIDDEN else e.value, e.source, e.sensitive or e.value == HIDDEN)
                for key, e in found.items()}  # fmt: skip

    partitions = {t.name: [state.Partition(p.id, p.leader, list(p.replicas), list(p.isr), p.end_offset, p.start_offset,
                                           p.size_bytes) for p in t.partitions] for t in saved.topics}  # fmt: skip
    later = saved.later
    return state.Snapshot(
        bootstrap=saved.bootstrap, cluster_id=saved.cluster_id, controller=saved.controller,
        brokers=dict(saved.brokers),
        broker_configs={broker: entries(config) for broker, config in saved.broker_configs.items()},
        topics=[state.Topic(t.name, t.internal, partitions[t.name], entries(t.configs)) for t in saved.topics],
        groups=[state.Group(g.id, g.state, g.kind, g.assignor, g.members, g.static_members,
                            {(topic, part): offset for topic, part, offset in g.committed}) for g in saved.groups],
        not_seen=list(saved.not_seen), taken_at=saved.taken_at, failed=list(saved.failed),
        reassignments=None if saved.reassignments is None else [
            state.Reassignment(r.topic, r.partition, list(r.replicas), list(r.adding), list(r.removing))
            for r in saved.reassignments],
        features=None if saved.features is None else dict(saved.features),
        acls=None if saved.acls is None else [state.Acl(**a.model_dump()) for a in saved.acls],
        quotas=None if saved.quotas is None else [state.Quota(dict(q.entity), dict(q.values)) for q in saved.quotas],
        scram_users=None if saved.scram_users is None else {u: list(m) for u, m in saved.scram_users.items()},
        later=None if later is None else state.LagSample(
            later.seconds, {(t, p): o for t, p, o in later.end_offsets},
            {g: {(t, p): o for t, p, o in c} for g, c in later.committed.items()}),
        log_dirs=None if saved.log_dirs is None else {
            b: [state.LogDir(d.path, d.total_bytes, d.usable_bytes) for d in dirs]
            for b, dirs in saved.log_dirs.items()},
        cluster_operations=None if saved.cluster_operations is None else list(saved.cluster_operations),
    )  # fmt: skip
