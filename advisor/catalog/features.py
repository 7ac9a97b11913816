"""KRaft `metadata.version` feature levels and the releases that introduced them
(data/metadata_versions.json, generated from Kafka's own MetadataVersion enum by
tools/catalog/gen_metadata_versions.py)."""

from __future__ import annotations

from functools import cache

from advisor.catalog import store
from advisor.named_tuple import NamedTuple


class MetadataVersion(NamedTuple):
    level: int
    version: str  # e.g. 3.8-IV0
    release: str  # e.g. 3.8: the release that introduced the level; its brokers run it or a later one


@cache
def _levels() -> dict[int, MetadataVersion]:
    raw = store.read("metadata_versions.json")["levels"]
    return {int(level): MetadataVersion(int(level), entry["version"], entry["release"]) for level, entry in raw.items()}


def metadata_version(level: int) -> MetadataVersion | None:
    """What a finalized metadata.version level names, if Kafka's enum has it."""
    return _levels().get(level)
