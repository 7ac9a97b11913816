"""The project's vocabulary, defined once: every other module (rule model, catalog, CLI
choices, formatters, project config) takes its names from here.

The members are `str` enums, so a member equals its text ("broker" == Component.BROKER)
and rule files, catalog data and JSON keep plain strings. This module imports nothing
heavy: the CLI builds its argument choices from it.
"""

from __future__ import annotations

from enum import Enum


class _Words(str, Enum):
    def __str__(self) -> str:
        return self.value

    @classmethod
    def values(cls) -> tuple[str, ...]:
        return tuple(member.value for member in cls)


class Component(_Words):
    """What a config set configures."""

    BROKER = "broker"
    TOPIC = "topic"
    PRODUCER = "producer"
    CONSUMER = "consumer"
    ADMIN = "admin"


CLIENT_COMPONENTS: tuple[str, ...] = (Component.PRODUCER.value, Component.CONSUMER.value, Component.ADMIN.value)
SERVER_COMPONENTS: tuple[str, ...] = (Component.BROKER.value, Component.TOPIC.value)


class Client(_Words):
    """The library that reads a client config (brokers and topics are always `java`)."""

    JAVA = "java"
    LIBRDKAFKA = "librdkafka"
    KAFKA_PYTHON = "kafka-python"


class Severity(_Words):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        return SEVERITY_RANK[self.value]


SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}


class Category(_Words):
    DURABILITY = "durability"
    AVAILABILITY = "availability"
    THROUGHPUT = "throughput"
    LATENCY = "latency"
    COMPATIBILITY = "compatibility"
    SECURITY = "security"
    OPERATIONS = "operations"


class Scope(_Words):
    """What one evaluation of a rule sees.

    config-set      one config set (a broker, a topic, a client), with its cluster's facts
    cluster         one cluster as a whole: its brokers, topics, clients (cross-file rules)
    client-cluster  one client config beside the cluster its bootstrap servers reach
    file            one source file (comment directives, scripts, plans)
    entity          one entity (broker, topic, group, client) with its metric observations
    """

    CONFIG_SET = "config-set"
    CLUSTER = "cluster"
    CLIENT_CLUSTER = "client-cluster"
    FILE = "file"
    ENTITY = "entity"


class Applicability(_Words):
    """How a fix may be applied: safe (automatically), unsafe (on request), display-only."""

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


class Profile(_Words):
    """What environment a config is judged for."""

    PROD = "prod"
    DEV = "dev"


class OutputFormat(_Words):
    TEXT = "text"
    JSON = "json"
    SARIF = "sarif"
    JUNIT = "junit"
    GITHUB = "github"


# The first letter after K in a rule id names what the rule is about.
ID_PREFIX_COMPONENTS: dict[str, set[str]] = {
    "B": {Component.BROKER.value},
    "T": {Component.TOPIC.value},
    "P": {Component.PRODUCER.value},
    "C": {Component.CONSUMER.value},
    "M": set(),
    "X": set(Component.values()),
    "O": set(Component.values()),
}
