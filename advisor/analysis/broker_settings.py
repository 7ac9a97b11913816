"""What the broker configurations given beside metrics say about one key.

A scrape names its node by an address or pod, a server.properties by its node.id: nothing ties
one to the other on evidence. What can be said is what every broker configuration given agrees
on — a key written to one value everywhere, or left at its default everywhere (the default of
each set's Kafka release) — and where it is written. When they disagree, a metric finding does
not guess which applies: it names no value.
"""

from __future__ import annotations

from typing import NamedTuple

from advisor.analysis.effective import defaults
from advisor.model.document import Document
from advisor.model.provenance import Location


class Agreed(NamedTuple):
    value: str
    written: tuple[Location, ...]  # where it is written (empty: the default everywhere)
    default: str | None  # the catalog's default (of the newest release among the sets)
    sets: int  # broker configurations that agree


class BrokerSettings:
    def __init__(self, document: Document | None, kafka_version: str | None = None) -> None:
        from advisor.rules.runner import resolve_release

        self._sets = [c for c in (document.config_sets if document else []) if c.component == "broker"]
        self._releases = [resolve_release(c, kafka_version) for c in self._sets]

    def __bool__(self) -> bool:
        return bool(self._sets)

    def agreed(self, key: str) -> Agreed | None:
        """The one value every broker configuration gives `key`, or None (none given, or they differ)."""
        values, places = set(), []
        default = None
        for config_set, release in zip(self._sets, self._releases, strict=True):
            default = defaults("broker", "java", release).get(key)
            setting = config_set.settings.get(key)
            if setting is not None and setting.secret:
                return None
            values.add(setting.value.strip() if setting is not None else default)
            if setting is not None:
                places.append(setting.location)
        if len(values) != 1 or None in values:
            return None
        return Agreed(values.pop(), tuple(places), default, len(self._sets))

    def said(self, key: str) -> str:
        """` (num.io.threads is 8 in server.properties)`, or '' when nothing agreed is known."""
        agreed = self.agreed(key)
        if agreed is None:
            return ""
        if not agreed.written:
            where = "the default in every broker configuration given" if agreed.sets > 1 else "its default"
            return f" ({key} is {agreed.value}, {where})"
        files = sorted({location.path.rsplit("/", 1)[-1] for location in agreed.written})
        shown = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
        return f" ({key} is {agreed.value} in {shown})"
