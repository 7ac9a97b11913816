"""What a cluster's files say of its size: the `cluster` field of the rule context.

`facts_of` is the same for every member of a cluster, so a run builds it once per cluster;
`described` gives one config set's view of it (a topic of a counted cluster, a combined-mode
broker naming its voters).
"""

from __future__ import annotations

from advisor import TYPE_CHECKING, catalog
from advisor.analysis.units import to_number
from advisor.analysis.values import is_template
from advisor.model.document import ConfigSet, Document
from advisor.named_tuple import NamedTuple

if TYPE_CHECKING:
    from typing import Any

# The fields of the rule context's `cluster` section.
FIELDS = ("min_brokers", "brokers", "racks", "follower_replicas_per_broker", "default_replication_factor", "assumed")

# A broker whose files say nothing of its cluster's size is judged by the durability rules as one of
# several (as a release is assumed when none is named), and the finding says so (rules/runner.py).
ASSUMED_SIZE = 2
UNCOUNTED = (
    "the files do not say how many brokers the cluster has: judged as production with at least "
    f"{ASSUMED_SIZE}; brokers = 1 in [clusters.NAME] (or --profile dev) says it has one"
)
TEMPLATE_FOR_MANY = f"{{key}} is templated ({{value}}): one file for several brokers, so at least {ASSUMED_SIZE}"
# The keys whose value differs per broker: a placeholder there makes the file a per-broker template.
_PER_BROKER_KEYS = ("broker.id", "node.id", "advertised.listeners", "listeners")


class ClusterFacts(NamedTuple):
    counted: list[int]  # broker counts the cluster's files (or its declaration) state
    racks: list[str]
    serving: int  # broker configurations that run the broker role
    implied: int  # brokers a written default.replication.factor needs (0: none written)
    followers: int  # follower replicas of the topics that state partitions and replicas
    default_replication_factor: float | None  # the smallest of its brokers'; None without brokers


def whole(value: Any) -> int | None:
    """A count as loaders keep it (text); None when absent or not a plain number."""
    text = str(value).strip() if value is not None else ""
    return int(text) if text.isascii() and text.isdigit() else None  # "²".isdigit(), yet int() refuses it


def _declared_follower_replicas(topics: list[ConfigSet]) -> int:
    """Follower replicas (partitions * (replicas - 1)) of the cluster's topics that state both
    numbers: a lower bound for the cluster, which may hold topics the input does not show."""
    total = 0
    for topic in topics:
        partitions, replicas = (whole(topic.facts.get(key)) for key in ("partitions", "replicas"))
        if partitions is not None and replicas is not None and replicas > 1:
            total += partitions * (replicas - 1)
    return total


def _default_replication_factor(brokers: list[ConfigSet]) -> float | None:
    """What a topic created without a replication factor gets: the smallest broker default."""
    factors = []
    for broker in brokers:
        setting = broker.settings.get("default.replication.factor")
        written = to_number(setting.value) if setting is not None else None
        factors.append(written if written is not None else catalog.default("default.replication.factor", "broker"))
    return min(factors) if factors else None


def facts_of(document: Document, cluster_id: str | None) -> ClusterFacts:
    # kafka-configs updates of running brokers count no broker (sources/shell.py)
    brokers = [b for b in document.cluster_brokers(cluster_id) if "dynamic_update" not in b.facts]
    counted = [b.facts["broker_count"] for b in brokers if b.facts.get("broker_count")]
    racks = sorted({b.settings["broker.rack"].value for b in brokers if "broker.rack" in b.settings})
    cluster = document.clusters.get(cluster_id or "")
    declaration = cluster.declaration if cluster is not None else None
    if declaration is not None and declaration.brokers:  # the project config says what files cannot
        counted = [declaration.brokers]
        racks = racks or sorted(declaration.racks)
    serving = [b for b in brokers if b.runs_broker_role()]  # controller-only nodes are no brokers
    # A default replication factor of N written on a broker needs N brokers: that many at least.
    implied = max((whole(b.settings["default.replication.factor"].value) or 0 for b in serving
                   if "default.replication.factor" in b.settings), default=0)  # fmt: skip
    followers = _declared_follower_replicas(document.cluster_topics(cluster_id))
    return ClusterFacts(counted, racks, len(serving), implied, followers, _default_replication_factor(brokers))


def _record(
    brokers: int,
    *,
    exact: bool = False,
    racks: list[str] | None = None,
    followers: int | None = None,
    default_rf: float | None = None,
    assumed: str | None = None,
) -> dict[str, Any]:
    return {
        "min_brokers": brokers,
        "brokers": brokers if exact else None,
        "racks": racks or [],
        "follower_replicas_per_broker": followers,
        "default_replication_factor": default_rf,
        "assumed": assumed,
    }


def _templated_for_many(config_set: ConfigSet) -> str | None:
    """The evidence that one file stands for several brokers: a per-broker value left to fill in."""
    for key in _PER_BROKER_KEYS:
        setting = config_set.settings.get(key)
        if setting is not None and not setting.secret and is_template(setting.value):
            return TEMPLATE_FOR_MANY.format(key=key, value=setting.value.strip()[:60])
    return None


def assumed_size(config_set: ConfigSet, profile: str) -> dict[str, Any] | None:
    """The cluster record of a broker nothing counts: several brokers, said why (None: no broker)."""
    if config_set.component != "broker":
        return None
    evidence = _templated_for_many(config_set)
    if evidence is None and profile == "dev":
        return None  # a development file's lone broker is one broker
    return _record(ASSUMED_SIZE, assumed=evidence or UNCOUNTED)


def described(config_set: ConfigSet, facts: ClusterFacts, values: dict[str, Any]) -> dict[str, Any] | None:
    """min_brokers: at least that many brokers; brokers: exactly that many, when the input
    says (a compose file, a Strimzi cluster, Helm values), else None. `values`: the set's
    effective settings."""
    counted, racks, default_rf = facts.counted, facts.racks, facts.default_replication_factor
    own = config_set.facts.get("broker_count")
    if own:  # a set that stands for its whole cluster (a topic of a counted cluster): only the max counts
        counted = [*counted, own]
    if counted:  # one config set for a whole cluster, or a topic of a cluster whose size is known
        size = max(counted)
        followers = facts.followers if config_set.component == "broker" else 0  # only broker rules ask
        per_broker = followers // size if followers else None
        return _record(size, exact=True, racks=racks, followers=per_broker, default_rf=default_rf)
    if facts.serving > 1:
        return _record(facts.serving, racks=racks, default_rf=default_rf)
    if config_set.component == "broker":
        roles = {r.strip() for r in (values.get("process.roles") or "").split(",")}
        voters = [v for v in (values.get("controller.quorum.voters") or "").split(",") if v.strip()]
        # In combined mode every voter is also a broker: that many brokers at least.
        if {"broker", "controller"} <= roles and voters:
            return _record(len(voters), default_rf=default_rf)
    if facts.implied > 1:  # nothing counts the brokers, but a written default RF of N needs N of them
        return _record(facts.implied, racks=racks, default_rf=default_rf)
    return None
