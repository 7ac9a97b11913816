"""The data a rule predicate sees for one config set (a JMESPath input).

component, client, kafka_version, profile, name
roles      a broker's process roles: ["broker"], ["controller"], both, or ["broker"] in ZooKeeper
           mode; [] for topics and clients
set        keys written in the input (canonical names, string values, secrets redacted)
effective  set + the catalog defaults for that Kafka version and client
defaults   the catalog defaults alone (to tell "lowered" from "raised")
cluster    {"min_brokers", "brokers" (exact count or null), "racks", "follower_replicas_per_broker",
           "default_replication_factor" (the smallest of its brokers', written or Kafka's 1; null
           without broker configs)}
           when the input shows the cluster, else null
facts      loader extras (replicas of a topic, JVM options, ...)
peers      what the other files of the set's cluster hold (advisor/analysis/peers.py), for rules
           across files; never another cluster's files
"""

from __future__ import annotations

from advisor import TYPE_CHECKING, catalog
from advisor.analysis.effective import defaults, effective, written
from advisor.analysis.units import to_number
from advisor.model.document import ConfigSet, Document

if TYPE_CHECKING:
    from typing import Any

# The fields of the rule context (build() below) and of its `cluster` section.
FIELDS = (
    "component", "client", "kafka_version", "version", "profile", "name", "roles",
    "set", "effective", "defaults", "cluster", "facts", "peers", "params",
)  # fmt: skip
CLUSTER_FIELDS = ("min_brokers", "brokers", "racks", "follower_replicas_per_broker", "default_replication_factor")


def _roles(config_set: ConfigSet) -> list[str]:
    if config_set.component != "broker":
        return []
    written_roles = config_set.settings.get("process.roles")
    if written_roles is None:
        return ["broker"]
    return sorted({role.strip() for role in written_roles.value.split(",") if role.strip()})


def _declared_follower_replicas(topics: list[ConfigSet]) -> int:
    """Follower replicas (partitions * (replicas - 1)) of the cluster's topics that state both
    numbers: a lower bound for the cluster, which may hold topics the input does not show."""
    total = 0
    for topic in topics:
        partitions, replicas = (_whole(topic.facts.get(key)) for key in ("partitions", "replicas"))
        if partitions is not None and replicas is not None and replicas > 1:
            total += partitions * (replicas - 1)
    return total


def _whole(value: Any) -> int | None:
    """A count as loaders keep it (text); None when absent or not a plain number."""
    text = str(value).strip() if value is not None else ""
    return int(text) if text.isascii() and text.isdigit() else None  # "²".isdigit(), yet int() refuses it


def _described(
    brokers: int,
    *,
    exact: bool = False,
    racks: list[str] | None = None,
    followers: int | None = None,
    default_rf: float | None = None,
) -> dict[str, Any]:
    return {
        "min_brokers": brokers,
        "brokers": brokers if exact else None,
        "racks": racks or [],
        "follower_replicas_per_broker": followers,
        "default_replication_factor": default_rf,
    }


def _default_replication_factor(brokers: list[ConfigSet]) -> float | None:
    """What a topic created without a replication factor gets: the smallest broker default."""
    factors = []
    for broker in brokers:
        setting = broker.settings.get("default.replication.factor")
        written = to_number(setting.value) if setting is not None else None
        factors.append(written if written is not None else catalog.default("default.replication.factor", "broker"))
    return min(factors) if factors else None


def _cluster_wide(document: Document, cluster_id: str | None) -> tuple[list[int], list[str], int, int, float | None]:
    """(broker counts the cluster's files state, its racks, how many brokers its files show at
    least, its declared follower replicas, its default replication factor): the same for every
    member, so built once per cluster and run (`shared`)."""
    brokers = document.cluster_brokers(cluster_id)
    counted = [b.facts["broker_count"] for b in brokers if b.facts.get("broker_count")]
    racks = sorted({b.settings["broker.rack"].value for b in brokers if "broker.rack" in b.settings})
    cluster = document.clusters.get(cluster_id or "")
    declaration = cluster.declaration if cluster is not None else None
    if declaration is not None and declaration.brokers:  # the project config says what files cannot
        counted = [declaration.brokers]
        racks = racks or sorted(declaration.racks)
    followers = _declared_follower_replicas(document.cluster_topics(cluster_id))
    serving = [b for b in brokers if b.runs_broker_role()]  # controller-only nodes are no brokers
    # A default replication factor of N written on a broker needs N brokers: that many at least.
    implied = max((_whole(b.settings["default.replication.factor"].value) or 0 for b in serving
                   if "default.replication.factor" in b.settings), default=0)  # fmt: skip
    return counted, racks, (len(serving), implied), followers, _default_replication_factor(brokers)


def _cluster(
    config_set: ConfigSet, document: Document, values: dict[str, Any], shared: dict[Any, Any]
) -> dict[str, Any] | None:
    """min_brokers: at least that many brokers; brokers: exactly that many, when the input
    says (a compose file, a Strimzi cluster, Helm values), else null."""
    if config_set.cluster not in shared:
        shared[config_set.cluster] = _cluster_wide(document, config_set.cluster)
    counted, racks, (broker_sets, implied), followers, default_rf = shared[config_set.cluster]
    own = config_set.facts.get("broker_count")
    if own:  # a set that stands for its whole cluster (a topic of a counted cluster): only the max counts
        counted = [*counted, own]
    if counted:  # one config set for a whole cluster, or a topic of a cluster whose size is known
        size = max(counted)
        followers = followers if config_set.component == "broker" else 0  # only broker rules ask
        per_broker = followers // size if followers else None
        return _described(size, exact=True, racks=racks, followers=per_broker, default_rf=default_rf)
    if broker_sets > 1:
        return _described(broker_sets, racks=racks, default_rf=default_rf)
    if config_set.component == "broker":
        roles = {r.strip() for r in (values.get("process.roles") or "").split(",")}
        voters = [v for v in (values.get("controller.quorum.voters") or "").split(",") if v.strip()]
        # In combined mode every voter is also a broker: that many brokers at least.
        if {"broker", "controller"} <= roles and voters:
            return _described(len(voters), default_rf=default_rf)
    if implied > 1:  # nothing counts the brokers, but a written default RF of N needs N of them
        return _described(implied, racks=racks, default_rf=default_rf)
    return None


def build(
    config_set: ConfigSet,
    document: Document,
    release: str,
    profile: str,
    peers: dict[str, Any],
    shared: dict[Any, Any] | None = None,
) -> dict[str, Any]:
    """`shared` keeps what is the same for every member of a cluster, across one run."""
    values = effective(config_set, release)
    return {
        "component": config_set.component,
        "client": config_set.client,
        "kafka_version": release,
        "version": list(catalog.versions.parse(release)),
        "profile": profile,
        "name": config_set.name,
        "roles": _roles(config_set),
        "set": written(config_set),
        "effective": values,
        "defaults": defaults(config_set.component, config_set.client, release),
        "cluster": _cluster(config_set, document, values, {} if shared is None else shared),
        "facts": config_set.facts,
        "peers": peers,
    }
