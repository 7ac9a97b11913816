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
from advisor.analysis import cluster_facts
from advisor.analysis.cluster_facts import ClusterFacts
from advisor.analysis.effective import defaults, effective, written
from advisor.model.document import ConfigSet

if TYPE_CHECKING:
    from typing import Any

# The fields of the rule context (build() below); its `cluster` section's are cluster_facts.FIELDS.
FIELDS = (
    "component", "client", "kafka_version", "version", "profile", "name", "roles",
    "set", "effective", "defaults", "cluster", "facts", "peers", "params",
)  # fmt: skip


def _roles(config_set: ConfigSet) -> list[str]:
    if config_set.component != "broker":
        return []
    written_roles = config_set.settings.get("process.roles")
    if written_roles is None:
        return ["broker"]
    return sorted({role.strip() for role in written_roles.value.split(",") if role.strip()})


def build(
    config_set: ConfigSet, release: str, profile: str, peers: dict[str, Any], cluster: ClusterFacts
) -> dict[str, Any]:
    """`peers` and `cluster` are the same for every member of the set's cluster (built once a run)."""
    values: dict[str, str | None] = effective(config_set, release)
    # MSK, cp-ansible: the platform's own defaults fill what is unwritten, not Kafka's
    platform_defaults = config_set.facts.get("defaults_unknown")
    if platform_defaults:
        values = dict(written(config_set))
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
        "defaults": defaults(config_set.component, config_set.client, release),  # Kafka's, as a reference
        "cluster": cluster_facts.described(config_set, cluster, values),
        "facts": config_set.facts,
        "peers": peers,
    }
