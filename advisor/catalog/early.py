"""Keys Kafka 0.9 to 2.7 defined that the catalog's first release (2.8) does not
(data/early_removals.json, generated from those releases' own definitions)."""

from __future__ import annotations

from functools import cache

from advisor.catalog import store
from advisor.named_tuple import NamedTuple


class EarlyRemoval(NamedTuple):
    key: str
    component: str
    last: str  # the last release that defined it
    removed_in: str


@cache
def _removals() -> dict[tuple[str, str], EarlyRemoval]:
    raw = store.read("early_removals.json")["removals"]
    return {
        (component, key): EarlyRemoval(key, component, entry["last"], entry["removed_in"])
        for component, keys in raw.items()
        for key, entry in keys.items()
    }


def early_removal(key: str, component: str) -> EarlyRemoval | None:
    """How `key` left this Java component before 2.8, if it did (every release the catalog judges
    is 2.8 or later, so each of them no longer reads it)."""
    return _removals().get((component, key))
