"""Checks over one cluster's tenants: the principals it lets in, and the quotas that share it."""

from __future__ import annotations

from typing import Any

from advisor.analysis.peers import place
from advisor.model.topology import Cluster
from advisor.rules.registry import cluster_check
from advisor.rules.violation import Violation


@cluster_check()
def tenants_without_quotas(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> list[Violation]:
    """Once per cluster, at the ACL command or KafkaUser that lets in the principal that makes it
    shared (`params.principals`, default the second), when nothing linked to it sets a quota."""
    places, wanted = peers["principal_places"], params["principals"]
    if len(places) < wanted or peers["quota_sources"]:
        return []
    member = next(m for m in cluster.members if place(m) == places[wanted - 1])
    return [Violation(location=member.anchor)]
