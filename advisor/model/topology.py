"""The estate the input describes: clusters, and in each its brokers, topics, client
applications and consumer groups. Config sets belong to one cluster only on evidence
(sources/topology.py says which); a cluster joined by a guess says so, and so do the
findings that read across its files.
"""

from __future__ import annotations

from functools import cached_property

from advisor import TYPE_CHECKING
from advisor.model.record import Record
from advisor.model.vocabulary import CLIENT_COMPONENTS
from advisor.named_tuple import NamedTuple

if TYPE_CHECKING:
    from typing import Any

    from advisor.model.document import ConfigSet
    from advisor.model.live_state import Snapshot
    from advisor.model.observations import Observations


class ClusterDeclaration(NamedTuple):
    """A cluster the project config declares (`[clusters.NAME]`): which files are its own,
    and what the files cannot say."""

    name: str
    paths: tuple[str, ...] = ()  # globs, relative to the project config's folder
    brokers: int | None = None
    racks: tuple[str, ...] = ()
    kafka_version: str | None = None
    environment: str | None = None  # a Profile value: prod | dev
    declared_in: str = ""  # the project config file, for messages


class Link(NamedTuple):
    """Why two parts of the input are one cluster."""

    reason: str
    guess: bool = False


class Cluster(Record):
    __slots__ = ("__dict__", "beside", "context_only", "declaration", "id", "links", "live", "measured", "members")

    def __init__(
        self,
        id: str,
        members: list[ConfigSet] | None = None,
        links: list[Link] | None = None,
        declaration: ClusterDeclaration | None = None,
        live: Snapshot | None = None,  # what an audit read from the running cluster: the live rules' input
        beside: list[ConfigSet] | None = None,  # the files given with a live read: what drift compares it to
        context_only: bool = False,  # read only to judge the files against (lint --bootstrap-server)
        measured: Observations | None = None,  # the run's metrics, when they are this live cluster's
    ) -> None:
        self.id = id
        self.members: list[ConfigSet] = [] if members is None else members
        self.links: list[Link] = [] if links is None else links
        self.declaration = declaration
        self.live = live
        self.beside: list[ConfigSet] = [] if beside is None else beside
        self.context_only = context_only
        self.measured = measured

    @cached_property  # links are final once the cluster is built; asked for every finding
    def guesses(self) -> list[str]:
        return [link.reason for link in self.links if link.guess]

    @property
    def guessed(self) -> bool:
        return bool(self.guesses)

    @property
    def brokers(self) -> list[ConfigSet]:
        return [m for m in self.members if m.component == "broker"]

    @property
    def topics(self) -> list[ConfigSet]:
        return [m for m in self.members if m.component == "topic"]

    @property
    def clients(self) -> list[ConfigSet]:
        return [m for m in self.members if m.component in CLIENT_COMPONENTS]

    @property
    def files(self) -> list[str]:
        return sorted({m.path for m in self.members})

    def consumer_groups(self) -> dict[str, list[ConfigSet]]:
        """group.id → the consumer configs that join it."""
        groups: dict[str, list[ConfigSet]] = {}
        for member in self.members:
            group = member.settings.get("group.id")
            if member.component == "consumer" and group is not None and group.value.strip():
                groups.setdefault(group.value.strip(), []).append(member)
        return groups

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "files": self.files,
            "brokers": len(self.brokers),
            "topics": len(self.topics),
            "clients": len(self.clients),
            "consumer_groups": sorted(self.consumer_groups()),
            "links": [{"reason": link.reason, "guess": link.guess} for link in self.links],
            "declared": self.declaration is not None,
        }
