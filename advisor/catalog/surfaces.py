"""Deployment surfaces: how docker images, Strimzi and Spring Boot spell Kafka configs.

Docker and Strimzi rules are conventions of those projects' code (sources in
../shared/knowledge/kafka-facts.md §4d/§4e, listed in docs/catalog.md); no image or
operator runs here, so they are data, not generated. Spring Boot's surface is
generated from Boot's own jars (tools/catalog/gen_spring_catalog.py).
"""

from __future__ import annotations

import re
from functools import cache

from advisor import TYPE_CHECKING
from advisor.catalog import store

if TYPE_CHECKING:
    from typing import Any, Literal

    Image = Literal["apache", "confluent", "bitnami"]

# JVM/logging variables each image reads itself instead of turning them into properties:
# the cp-kafka template's excluded_props; apache/kafka 3.7+ (KafkaDockerWrapper.scala,
# docker/examples/README.md) excludes the same plus KAFKA_JMX_HOSTNAME.
_CONFLUENT_EXCLUDED = frozenset(
    {
        "KAFKA_VERSION",
        "KAFKA_HEAP_OPTS",
        "KAFKA_LOG4J_OPTS",
        "KAFKA_OPTS",
        "KAFKA_JMX_OPTS",
        "KAFKA_JVM_PERFORMANCE_OPTS",
        "KAFKA_GC_LOG_OPTS",
        "KAFKA_LOG4J_ROOT_LOGLEVEL",
        "KAFKA_LOG4J_LOGGERS",
        "KAFKA_TOOLS_LOG4J_LOGLEVEL",
    }
)
DOCKER_EXCLUDED_VARIABLES: dict[str, frozenset[str]] = {
    "apache": _CONFLUENT_EXCLUDED | {"KAFKA_JMX_HOSTNAME"},
    "confluent": _CONFLUENT_EXCLUDED,
    # bitnami/kafka only converts KAFKA_CFG_*; its other KAFKA_* variables are image settings.
    "bitnami": frozenset(),
}
JVM_VARIABLES = frozenset({"KAFKA_HEAP_OPTS", "KAFKA_JVM_PERFORMANCE_OPTS", "KAFKA_OPTS", "KAFKA_GC_LOG_OPTS"})
_PREFIX: dict[str, str] = {"apache": "KAFKA_", "confluent": "KAFKA_", "bitnami": "KAFKA_CFG_"}


def env_to_property(image: Image, variable: str) -> str | None:
    """The Kafka property an image derives from an environment variable, or None if it derives none."""
    prefix = _PREFIX[image]
    if not variable.startswith(prefix) or variable in DOCKER_EXCLUDED_VARIABLES[image]:
        return None
    if image == "bitnami":
        name = variable[len(prefix) :].lower().replace("_", ".")
        return name.replace("sasl.ssl", "sasl_ssl").replace("sasl.plaintext", "sasl_plaintext")
    # apache/kafka removes *every* "KAFKA_" in the name, the Confluent images only the prefix.
    body = variable.replace("KAFKA_", "") if image == "apache" else variable[len(prefix) :]
    dotted = body.lower().replace("_", ".")
    return dotted.replace("...", "-").replace("..", "_")


def property_to_env(image: Image, name: str) -> str | None:
    """The environment variable that sets `name` in an image, or None if the image cannot express it."""
    if image == "bitnami":
        if re.search(r"[_-]", name.replace("sasl_ssl", "").replace("sasl_plaintext", "")):
            return None  # every "_" becomes ".", so names with "_" or "-" are out of reach
        return _PREFIX[image] + name.replace(".", "_").upper()
    variable = _PREFIX[image] + name.replace("_", "__").replace("-", "___").replace(".", "_").upper()
    # apache/kafka strips "KAFKA_" everywhere in the name, so e.g. kafka.metrics.reporters is unreachable.
    return variable if env_to_property(image, variable) == name else None


# ---------------------------------------------------------------- Strimzi

# Kafka.spec.kafka.config: keys the operator manages itself (KafkaClusterSpec.FORBIDDEN_PREFIXES)
STRIMZI_FORBIDDEN_PREFIXES: tuple[str, ...] = (
    "listeners",
    "advertised.",
    "broker.",
    "listener.",
    "host.name",
    "port",
    "inter.broker.listener.name",
    "sasl.",
    "ssl.",
    "security.",
    "password.",
    "log.dir",
    "zookeeper.connect",
    "zookeeper.set.acl",
    "zookeeper.ssl",
    "zookeeper.clientCnxnSocket",
    "authorizer.",
    "super.user",
    "cruise.control.metrics.topic",
    "cruise.control.metrics.reporter.bootstrap.servers",
    "node.id",
    "process.roles",
    "controller.",
    "metadata.log.dir",
)
# ... and the keys under those prefixes that are allowed after all (FORBIDDEN_PREFIX_EXCEPTIONS)
STRIMZI_ALLOWED_EXCEPTIONS: frozenset[str] = frozenset(
    {
        "zookeeper.connection.timeout.ms",
        "sasl.server.max.receive.size",
        "ssl.cipher.suites",
        "ssl.protocol",
        "ssl.enabled.protocols",
        "ssl.secure.random.implementation",
        "cruise.control.metrics.topic.num.partitions",
        "cruise.control.metrics.topic.replication.factor",
        "cruise.control.metrics.topic.retention.ms",
        "cruise.control.metrics.topic.auto.create.retries",
        "cruise.control.metrics.topic.auto.create.timeout.ms",
        "cruise.control.metrics.topic.min.insync.replicas",
        "controller.quorum.election.backoff.max.ms",
        "controller.quorum.election.timeout.ms",
        "controller.quorum.fetch.timeout.ms",
    }
)


def strimzi_forbidden(key: str) -> bool:
    """True if Strimzi manages `key` itself and does not take it from spec.kafka.config."""
    return key not in STRIMZI_ALLOWED_EXCEPTIONS and key.startswith(STRIMZI_FORBIDDEN_PREFIXES)


# ---------------------------------------------------------------- Spring Boot


@cache
def _spring() -> dict[str, Any]:
    return store.read("spring_boot.json")


@cache
def spring_boot_releases() -> tuple[str, ...]:
    return tuple(sorted(_spring()["boot"], key=lambda v: tuple(int(p) for p in v.split("."))))


def _uniform(name: str) -> str:
    """Spring's relaxed binding compares names lower-cased with dashes and underscores removed."""
    name = re.sub(r"(?<=[a-z0-9])([A-Z])", r"-\1", name)
    return re.sub(r"[-_]", "", name.lower())


def spring_property(name: str, boot_version: str | None = None) -> dict[str, Any] | None:
    """Boot's record for a spring.kafka.* property in any relaxed spelling, or None if Boot has no
    such typed property (Boot ignores unknown ones silently). Records carry `name` (canonical),
    `status` (mapped / none / passthrough / unprobed) and `sets` ({client: [kafka keys]})."""
    releases = spring_boot_releases()
    release = boot_version or releases[-1]
    matching = [r for r in releases if r == release or r.split(".")[0] == release.split(".")[0]]
    if not matching:
        raise ValueError(f"no Spring Boot {release} in the catalog; it has {', '.join(releases)}")
    canonical = _spring_index(matching[-1]).get(_uniform(name))
    if canonical is None:
        return None
    return {"name": canonical, "boot_version": matching[-1], **_spring()["boot"][matching[-1]]["properties"][canonical]}


@cache
def _spring_index(release: str) -> dict[str, str]:
    """A Boot release's typed properties by their relaxed form (the first of a form, as a scan finds it)."""
    index: dict[str, str] = {}
    for canonical in _spring()["boot"][release]["properties"]:
        index.setdefault(_uniform(canonical), canonical)
    return index
