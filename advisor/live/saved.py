"""A Snapshot saved as JSON (`audit --save-snapshot FILE`) and read back (`audit --snapshot FILE`):
the same audit offline — in CI, on another machine, as a rule's fixture. The file is checked field
by field (a wrong one is `path:line: field: why`, never an internal error), bounded in size by the
limits every input has, and holds no secret: a sensitive value was never returned by the broker,
and a value of a key that names a secret is saved as hidden."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from advisor.model.document import LoadError
from advisor.model.live_state import DEFAULT, Entry, Group, Partition, Reassignment, Snapshot, Topic
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


def _entries(entries: dict[str, Entry]) -> dict[str, dict[str, Any]]:
    """The values that are not Kafka's defaults (what the audit judges; a default is no news)."""
    saved = {}
    for key, entry in sorted(entries.items()):
        if entry.source == DEFAULT:
            continue
        value = HIDDEN if is_secret_key(key) and entry.value is not None else entry.value
        saved[key] = {"value": value, "source": entry.source, "sensitive": entry.sensitive}
    return saved


def dump(snapshot: Snapshot) -> str:
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
    }
    return json.dumps(record, indent=1) + "\n"


def load(path: str, text: str) -> Snapshot:
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

    def entries(found: dict[str, _Entry]) -> dict[str, Entry]:
        return {key: Entry(None if e.value == HIDDEN else e.value, e.source, e.sensitive or e.value == HIDDEN)
                for key, e in found.items()}  # fmt: skip

    return Snapshot(
        saved.bootstrap, saved.cluster_id, saved.controller, dict(saved.brokers),
        {broker: entries(config) for broker, config in saved.broker_configs.items()},
        [Topic(t.name, t.internal, [Partition(p.id, p.leader, list(p.replicas), list(p.isr), p.end_offset,
                                              p.start_offset)
                                    for p in t.partitions], entries(t.configs)) for t in saved.topics],
        [Group(g.id, g.state, g.kind, g.assignor, g.members, g.static_members,
               {(topic, part): offset for topic, part, offset in g.committed}) for g in saved.groups],
        list(saved.not_seen), saved.taken_at,
        None if saved.reassignments is None else [Reassignment(r.topic, r.partition, list(r.replicas),
                                                               list(r.adding), list(r.removing))
                                                  for r in saved.reassignments],
        None if saved.features is None else dict(saved.features),
        list(saved.failed),
    )  # fmt: skip
