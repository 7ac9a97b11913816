"""Checks a JMESPath predicate cannot express, one module per domain. A module registers its
checks when imported; a run imports only the modules of the checks its rules use (MODULES),
and a test keeps MODULES equal to what the modules register."""

from __future__ import annotations

import importlib

MODULES = {
    "unknown-key": "keys",
    "value-outside-definition": "keys",
    "plaintext-secret": "security",
    "plaintext-listener-beyond-loopback": "security",
    "sasl-plaintext-listener-beyond-loopback": "security",
    "super-users-anonymous": "security",
    "listener-override-for-unknown-listener": "security",
    "removed-authorizer-class": "security",
    "strimzi-external-listener-unprotected": "security",
    "internal-topic-rf-one": "replication",
    "retries-zero": "producer",
    "jvm-parallel-gc": "jvm",
    "jvm-heap-too-large": "jvm",
    "spring-unknown-property": "surfaces",
    "strimzi-managed-key": "surfaces",
    "reassignment-without-throttle": "operations",
    "throttle-never-removed": "operations",
    "removed-zookeeper-flag": "operations",
    "topic-created-with-rf-one": "operations",
    "reassignment-duplicate-replica": "operations",
    "plan-uneven-replica-count": "operations",
    "plan-unknown-broker": "operations",
    "alter-replication-factor": "operations",
    "plan-preferred-leader-skew": "operations",
    "acl-wildcard-principal": "operations",
    "tenants-without-quotas": "tenancy",
    "metric-threshold": "metrics",
    "request-stages": "metrics",
    "small-while-busy": "metrics",
    "share-of-increase": "metrics",
    "compression-ratio": "metrics",
    "metric-rising": "metrics",
    "near-client-setting": "metrics",
    "producer-wait": "producer_waits",
    "flow-lag-seconds": "flow",
    "flow-retention": "flow",
    "flow-disk-fill": "flow",
}


def load(name: str) -> None:
    """Register the check `name` (import its module)."""
    importlib.import_module(f"advisor.rules.checks.{MODULES[name]}")


def load_all() -> None:
    for module in sorted(set(MODULES.values())):
        importlib.import_module(f"advisor.rules.checks.{module}")
