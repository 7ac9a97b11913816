"""Java keys removed where the ConfigDef catalog cannot see it (data/legacy_removals.json):
before the catalog's first release, or read by JmxReporter rather than any ConfigDef."""

from __future__ import annotations

from functools import cache

from advisor.catalog import store, versions
from advisor.named_tuple import NamedTuple


class LegacyRemoval(NamedTuple):
    key: str
    components: tuple[str, ...]
    removed_in: str
    replacement: str
    gone_with: str = ""  # what went with it ("the old Scala consumer"), said in the finding


@cache
def _removals() -> dict[str, LegacyRemoval]:
    raw = store.read("legacy_removals.json")
    return {
        entry["key"]: LegacyRemoval(
            entry["key"], tuple(entry["components"]), entry["removed_in"], entry["replacement"], entry.get("with", "")
        )
        for entry in raw["removals"]
    }


def legacy_removal(key: str, component: str, kafka_version: str) -> LegacyRemoval | None:
    """The removal of `key` for this Java component, if it happened at or before `kafka_version`."""
    removal = _removals().get(key)
    if removal is None or component not in removal.components:
        return None
    return removal if versions.parse(kafka_version) >= versions.parse(removal.removed_in) else None
