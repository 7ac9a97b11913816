"""Which config sets are one cluster: decided on evidence, once every file is loaded.

Evidence, strongest first:
1. the project config declares it (`[clusters.NAME] paths = [globs]`);
2. one file says so: a compose file's brokers, a Strimzi cluster's resources in one
   directory and namespace, a Helm release (the loaders' cluster keys); other config sets of
   one file belong together (a Spring app's producer and consumer, a script's commands);
3. addresses that match: a client's bootstrap servers (or a script's --bootstrap-server)
   equal to a broker's advertised listeners, or to another client's bootstrap servers;
   brokers naming the same controller quorum or ZooKeeper ensemble.
Local names join files only when one's folder holds the other's: short names (`kafka:9092`,
a compose service) as evidence, loopback addresses (localhost:9092 is in every laptop setup)
only as a guess; a file that names no address at all (a reassignment plan) joins the one
cluster of its folder, as a guess. Everything else stays apart: a
cross-file rule never reads another cluster's files, and a finding that does read across a
guessed link says so (rules/runner.py).
"""

from __future__ import annotations

import fnmatch
import os
from collections import defaultdict
from pathlib import Path

from advisor import lazy_re
from advisor.analysis.listeners import protocol_map
from advisor.model.document import ConfigSet, Document
from advisor.model.topology import Cluster, ClusterDeclaration, Link
from advisor.model.vocabulary import Product, product_of
from advisor.sources import endpoints


class _Groups:
    """Union-find over units (a loader's cluster key, or a file), remembering why units joined
    and which broker ids each group holds."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}
        self.links: dict[str, list[Link]] = defaultdict(list)
        self.ids: dict[str, set[str]] = defaultdict(set)

    def conflict(self, a: str, b: str) -> bool:
        """Two groups that hold a broker with the same node id are not one cluster: they are
        alternatives (a dev and a prod file of one node, the examples of one distribution)."""
        return bool(self.ids[self.find(a)] & self.ids[self.find(b)])

    def find(self, unit: str) -> str:
        self.parent.setdefault(unit, unit)
        while self.parent[unit] != unit:
            self.parent[unit] = self.parent[self.parent[unit]]
            unit = self.parent[unit]
        return unit

    def join(self, a: str, b: str, link: Link) -> None:
        root_a, root_b = self.find(a), self.find(b)
        if root_a == root_b:
            return
        # A declared cluster keeps its name; otherwise the smaller key names it (stable ids).
        root, other = sorted((root_a, root_b), key=lambda unit: (not unit.startswith("declared:"), unit))
        self.parent[other] = root
        self.links[root] += [*self.links.pop(other, []), link]
        self.ids[root] |= self.ids.pop(other, set())


def _node_id(config_set: ConfigSet) -> str | None:
    if config_set.component != "broker":
        return None
    for key in ("node.id", "broker.id"):
        setting = config_set.settings.get(key)
        if setting is not None and setting.value.strip().isdigit():
            return setting.value.strip()
    return None


def _unit(config_set: ConfigSet) -> str:
    return config_set.cluster if config_set.cluster is not None else f"file:{config_set.path}"


def _folders(path: str) -> list[str]:
    """The file's folder and every folder above it, nearest first (plain strings: fast)."""
    folders = []
    folder = os.path.dirname(os.path.abspath(path))  # one file named relatively, another absolutely
    while True:
        folders.append(folder)
        above = os.path.dirname(folder)
        if above == folder:
            return folders
        folder = above


class _Folders(dict[str, list[str]]):
    """Each path's folder and the folders above it (_folders), worked out once per link."""

    def __missing__(self, path: str) -> list[str]:
        chain = self[path] = _folders(path)
        return chain


class _Addresses(dict[int, tuple[list[endpoints.Endpoint], tuple[str, bool, bool] | None]]):
    """Each config set's addresses — served or reached, and its quorum — worked out once per link
    (by the set's id: sets are not hashable)."""

    def of(self, config_set: ConfigSet) -> tuple[list[endpoints.Endpoint], tuple[str, bool, bool] | None]:
        found = self.get(id(config_set))
        if found is None:
            found = self[id(config_set)] = (
                endpoints.served(config_set) + endpoints.reached(config_set),
                endpoints.quorum(config_set),
            )
        return found


def _declared(config_set: ConfigSet, declarations: tuple[ClusterDeclaration, ...], base: Path | None) -> str | None:
    if not declarations or base is None:
        return None
    resolved = Path(config_set.path).resolve()
    relative = resolved.relative_to(base).as_posix() if resolved.is_relative_to(base) else resolved.as_posix()
    for declaration in declarations:
        if any(fnmatch.fnmatch(relative, pattern) for pattern in declaration.paths):
            return declaration.name
    return None


def link(document: Document, declarations: tuple[ClusterDeclaration, ...] = (), base: Path | None = None) -> None:
    """Set every config set's `cluster` and fill `document.clusters`."""
    groups = _Groups()
    by_name = {d.name: d for d in declarations}
    # Kafka's clusters: a product pack's sets (a Zeebe broker) are never members of one.
    sets = [cs for cs in document.config_sets if product_of(cs.component) == Product.KAFKA]
    for config_set in sets:
        groups.find(_unit(config_set))
        node_id = _node_id(config_set)
        if node_id is not None:
            groups.ids[_unit(config_set)].add(node_id)
        name = _declared(config_set, declarations, base)
        if name is not None:
            where = by_name[name].declared_in or "the project config"
            groups.join(f"declared:{name}", _unit(config_set), Link(f"{config_set.path} is declared in {where}"))
    addresses = _Addresses()
    _join_by_address(groups, sets, addresses, _Folders())
    _join_addressless(groups, sets, addresses)
    _build(document, sets, groups, by_name)


def _join_by_address(groups: _Groups, sets: list[ConfigSet], addresses: _Addresses, folders: _Folders) -> None:
    servers: dict[endpoints.Endpoint, list[ConfigSet]] = defaultdict(list)
    quorums: dict[str, list[ConfigSet]] = defaultdict(list)
    for config_set in sets:
        found, named = addresses.of(config_set)
        for endpoint in found:
            servers[endpoint].append(config_set)
        if named is not None:
            quorums[named[0]].append(config_set)
    guesses: list[tuple[ConfigSet, ConfigSet, str]] = []
    for endpoint, holders in servers.items():
        for first, other in _pairs(endpoint, holders, folders):
            reason = f"{first.path} and {other.path} both name {endpoint}"
            if groups.conflict(_unit(first), _unit(other)):
                continue
            if endpoint.loopback:
                guesses.append((first, other, reason))
            else:
                groups.join(_unit(first), _unit(other), Link(reason))
    for text, holders in quorums.items():
        _, loopback, local = addresses.of(holders[0])[1]  # type: ignore[misc]
        quorum = endpoints.Endpoint("localhost" if loopback else "local" if local else "quorum", "")
        for first, other in _pairs(quorum, holders, folders, brokers_join=True):
            reason = f"{first.path} and {other.path} name the same quorum ({text.partition('=')[0]})"
            if groups.conflict(_unit(first), _unit(other)):
                continue
            if loopback:
                guesses.append((first, other, reason))
            else:
                groups.join(_unit(first), _unit(other), Link(reason))
    for first, other, reason in guesses:  # after every strong link, so a guess is only made where needed
        if groups.find(_unit(first)) != groups.find(_unit(other)) and not groups.conflict(_unit(first), _unit(other)):
            groups.join(_unit(first), _unit(other), Link(f"{reason}, a loopback address", guess=True))


def _pairs(
    endpoint: endpoints.Endpoint, holders: list[ConfigSet], folders: _Folders, *, brokers_join: bool = False
) -> list[tuple[ConfigSet, ConfigSet]]:
    """Which holders of one address to join. Clients join the broker that serves it, or each
    other; two brokers serving one address are two files of one node, never joined (only a
    quorum, `brokers_join`, joins brokers). A local address joins a holder only with holders
    in its own folder or the folders above it: one per folder, a broker first."""

    def joinable(a: ConfigSet, b: ConfigSet) -> bool:
        return a is not b and _unit(a) != _unit(b) and (brokers_join or "broker" not in (a.component, b.component)
                                                       or a.component != b.component)  # fmt: skip

    if not endpoint.local:
        anchor = next((h for h in holders if h.component == "broker"), holders[0])
        return [(anchor, h) for h in holders if joinable(anchor, h)]
    by_folder: dict[str, list[ConfigSet]] = defaultdict(list)
    for holder in holders:
        by_folder[folders[holder.path][0]].append(holder)
    for folder, members in by_folder.items():  # two of each kind suffice as anchors (one may be the holder)
        brokers = [h for h in members if h.component == "broker"][:2]
        by_folder[folder] = brokers + [h for h in members if h.component != "broker"][:2]
    pairs = []
    for holder in holders:
        for level in folders[holder.path]:
            anchor = next((h for h in by_folder.get(level, []) if joinable(h, holder)), None)
            if anchor is not None:
                pairs.append((anchor, holder))
    return pairs


def _join_addressless(groups: _Groups, sets: list[ConfigSet], addresses: _Addresses) -> None:
    """A file that names no address (a reassignment plan, a client without bootstrap servers)
    joins the cluster of its folder when exactly one cluster with brokers lives there."""
    folders: dict[str, set[str]] = defaultdict(set)
    for config_set in sets:
        if config_set.component == "broker":
            folders[os.path.dirname(config_set.path)].add(groups.find(_unit(config_set)))
    by_unit: dict[str, list[ConfigSet]] = defaultdict(list)
    for config_set in sets:
        by_unit[groups.find(_unit(config_set))].append(config_set)
    for root, members in by_unit.items():
        if any(any(addresses.of(m)) or m.component == "broker" for m in members) or root.startswith("declared:"):
            continue
        clusters = folders.get(os.path.dirname(members[0].path), set())
        if len(clusters) == 1:
            (target,) = clusters
            reason = f"{members[0].path} names no address; the only cluster in its folder is taken"
            groups.join(target, root, Link(reason, guess=True))


def _build(
    document: Document, sets: list[ConfigSet], groups: _Groups, declarations: dict[str, ClusterDeclaration]
) -> None:
    clusters: dict[str, Cluster] = {}
    for config_set in sets:
        root = groups.find(_unit(config_set))
        cluster = clusters.get(root)
        if cluster is None:
            name = root.removeprefix("declared:")
            cluster = clusters[root] = Cluster(
                id=name, links=groups.links.get(root, []), declaration=declarations.get(name)
            )
        cluster.members.append(config_set)
        config_set.cluster = cluster.id
    document.clusters = {cluster.id: cluster for cluster in clusters.values()}
    document.reindex()
    _apply_declarations(document)
    _infer_environment(document)


_STRICT_LOOPBACK = lazy_re.compile(r"^(localhost|127(\.\d+){3}|::1)$")


def _laptop_endpoints(broker: ConfigSet) -> list[str] | None:
    """The addresses clients are told to use, when every one of them is loopback — or, for a
    compose service, a compose-network name (`kafka-1`, no domain: resolvable only inside the
    compose project) — a laptop setup nothing beyond the machine reaches; else None."""
    controllers = {n.strip().upper() for n in endpoints.written_value(broker, "controller.listener.names").split(",")}
    advertised = endpoints.written_value(broker, "advertised.listeners")
    found = endpoints.parse(advertised or endpoints.written_value(broker, "listeners"), controllers)
    # a compose service or a built image (its image is known, even if templated); in Kubernetes a
    # name without a domain is a Service every pod of the namespace reaches: no laptop evidence
    compose = "image" in broker.facts and not broker.facts.get("kubernetes")

    def local(host: str) -> bool:
        return bool(_STRICT_LOOPBACK.match(host)) or (compose and bool(host) and "." not in host)

    if not found or not all(local(e.host) for e in found):
        return None
    return [str(e) for e in found]


def _plaintext_published(broker: ConfigSet) -> str | None:
    """A compose broker's PLAINTEXT listener whose port the service publishes on every interface:
    reachable, unauthenticated, from other machines whatever names it advertises."""
    published = [p for p in broker.facts.get("published") or () if p.everywhere]
    if not published:
        return None
    controllers = {n.strip().upper() for n in endpoints.written_value(broker, "controller.listener.names").split(",")}
    protocols = protocol_map(endpoints.written_value(broker, "listener.security.protocol.map"))
    bound = endpoints.written_value(broker, "listeners") or endpoints.written_value(broker, "advertised.listeners")
    for item in bound.split(","):
        name, _, address = item.strip().partition("://")
        port = address.rpartition(":")[2]
        name = name.upper()
        if not port.isdigit() or name in controllers or protocols.get(name, name) != "PLAINTEXT":
            continue
        for port_published in published:
            if port_published.container_port == int(port):
                return (f"service {broker.name} publishes port {port} on every interface (ports: "
                        f"{port_published.written}, line {port_published.line}) to its PLAINTEXT listener "
                        f"{item.strip()}: other machines reach it")  # fmt: skip
    return None


def _infer_environment(document: Document) -> None:
    """A cluster whose brokers clients reach on loopback only is a development setup, judged
    with the dev profile — unless the run, a declaration or a file says otherwise, or a compose
    service publishes a PLAINTEXT listener's port on every interface (then it is production)."""
    for cluster in document.clusters.values():
        brokers = [m for m in cluster.members if m.component == "broker" and m.runs_broker_role()]
        if not brokers or any("profile" in m.facts for m in cluster.members):
            continue
        exposed = next((reason for reason in map(_plaintext_published, brokers) if reason), None)
        if exposed is not None:
            for member in cluster.members:
                member.facts["profile_inferred"] = ("prod", exposed)
            continue
        addresses = [_laptop_endpoints(b) for b in brokers]
        if any(a is None for a in addresses):
            continue
        shown = ", ".join(dict.fromkeys(e for a in addresses for e in a or []))
        for member in cluster.members:  # the runner uses it when neither the run nor a file says
            member.facts["profile_inferred"] = ("dev", shown)


def _apply_declarations(document: Document) -> None:
    """A declared cluster's Kafka version and environment hold for its members, over what the
    files imply (an image tag) but not over a file's own `# kafka-advisor:` directive."""
    directed = {(source.path, directive.verb) for source in document.files for directive in source.directives}
    for cluster in document.clusters.values():
        declaration = cluster.declaration
        if declaration is None:
            continue
        for member in cluster.members:
            overridden = (member.kafka_version_from or "").startswith("[overrides.")
            if declaration.kafka_version and (member.path, "kafka-version") not in directed and not overridden:
                member.kafka_version = declaration.kafka_version
                member.kafka_version_from = f"[clusters.{declaration.name}] in the project config"
            if declaration.environment and (member.path, "profile") not in directed:
                member.facts["profile"] = declaration.environment
