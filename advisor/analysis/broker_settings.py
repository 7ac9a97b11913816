"""What the broker configurations given beside metrics say about one key, for one node.

A scrape names its node by an address or a pod, a server.properties by its node.id. They are tied
on evidence only: the node's host (a scrape's address, an `instance` label's host, a pod name) is
a host one configuration — and only one — advertises or listens on (a pod name: the first label of
a listener's DNS name, as Strimzi's per-pod addresses have it; loopback addresses tie nothing).
A node so tied is judged with its own configuration's value. Otherwise what can be said is what
every broker configuration given agrees on — a key written to one value everywhere, or left at its
default everywhere (the default of each set's Kafka release) — and where it is written. When they
disagree, a metric finding does not guess which applies: it names no value.
"""

from __future__ import annotations

from advisor.analysis.effective import defaults
from advisor.model.document import ConfigSet, Document
from advisor.model.provenance import Location
from advisor.named_tuple import NamedTuple
from advisor.sources import endpoints


class Agreed(NamedTuple):
    value: str
    written: tuple[Location, ...]  # where it is written (empty: the default everywhere)
    default: str | None  # the catalog's default (of the newest release among the sets)
    sets: int  # broker configurations that agree


class BrokerSettings:
    def __init__(self, document: Document | None, kafka_version: str | None = None) -> None:
        from advisor.analysis.release import resolve_release

        self._sets = [c for c in (document.config_sets if document else []) if c.component == "broker"]
        self._releases = [resolve_release(c, kafka_version) for c in self._sets]

    def __bool__(self) -> bool:
        return bool(self._sets)

    def bound(self, node: str | None) -> int | None:
        """The one broker configuration whose listeners name the node's host, else None."""
        host = _node_host(node) if node else None
        if not host:
            return None
        found = [index for index, config_set in enumerate(self._sets) if host in _hosts(config_set)]
        return found[0] if len(found) == 1 else None

    def agreed(self, key: str, node: str | None = None) -> Agreed | None:
        """The value `key` has for `node` when one configuration is tied to it (`bound`), else the
        one value every broker configuration gives it, or None (none given, or they differ)."""
        index = self.bound(node)
        pairs = zip(self._sets, self._releases, strict=True)
        if index is not None:
            pairs = iter([(self._sets[index], self._releases[index])])
        values, places = set(), []
        default = None
        for config_set, release in pairs:
            default = defaults("broker", "java", release).get(key)
            setting = config_set.settings.get(key)
            if setting is not None and setting.secret:
                return None
            values.add(setting.value.strip() if setting is not None else default)
            if setting is not None:
                places.append(setting.location)
        if len(values) != 1 or None in values:
            return None
        return Agreed(values.pop(), tuple(places), default, 1 if index is not None else len(self._sets))

    def said(self, key: str, node: str | None = None) -> str:
        """` (num.io.threads is 8 in server.properties)`, or '' when nothing agreed is known."""
        agreed = self.agreed(key, node)
        if agreed is None:
            return ""
        if self.bound(node) is not None:
            where = agreed.written[0].path.rsplit("/", 1)[-1] if agreed.written else "its default"
            within = f"in {where}" if agreed.written else where
            return f" ({key} is {agreed.value}, {within}: the configuration whose listeners name {_node_host(node)})"
        if not agreed.written:
            where = "the default in every broker configuration given" if agreed.sets > 1 else "its default"
            return f" ({key} is {agreed.value}, {where})"
        files = sorted({location.path.rsplit("/", 1)[-1] for location in agreed.written})
        shown = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
        return f" ({key} is {agreed.value} in {shown})"


def _node_host(node: str | None) -> str | None:
    """A node's host: `http://kafka-1.internal:7071/metrics`, `kafka-1.internal:9404` or a pod name
    `ledger-kafka-0` → its host, lower-cased; None for a file or a loopback address."""
    if not node:
        return None
    if "://" in node:
        text = node.split("://", 1)[1].split("/", 1)[0].rsplit("@", 1)[-1]
    elif "/" in node or "\\" in node:
        return None  # a file: the node of a scrape saved without identity labels
    else:
        text = node
    if text.startswith("["):
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    host = endpoints.normalize_host(text)
    return None if not host or endpoints.Endpoint(host, "").loopback else host


def _hosts(config_set: ConfigSet) -> set[str]:
    """The hosts a broker configuration advertises or listens on, and the first label of each (a
    Kubernetes pod's own name), loopback left out."""
    found: set[str] = set()
    for key in ("advertised.listeners", "listeners"):
        for endpoint in endpoints.parse(endpoints.written_value(config_set, key)):
            if not endpoint.loopback:
                host = endpoints.normalize_host(endpoint.host)
                found |= {host, host.split(".", 1)[0]}
    return found
