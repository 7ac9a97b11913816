"""The project's vocabulary, defined once: every other module (rule model, catalog, CLI
choices, formatters, project config) takes its names from here.

Each word is a plain string constant of a small class (Component.BROKER == "broker"), so rule
files, catalog data and JSON keep plain strings; `values()` lists a vocabulary in order, and
the rule model validates against `Literal[...values()]`. Not `enum.Enum`: this module is on
every run's start-up path, and building enum classes costs more than the whole vocabulary is
worth there.
"""

from __future__ import annotations


class _Words:
    """A closed set of words: the class's upper-case string attributes, in definition order."""

    @classmethod
    def values(cls) -> tuple[str, ...]:
        return tuple(value for name, value in vars(cls).items() if name.isupper() and isinstance(value, str))


class Component(_Words):
    """What a config set configures."""

    BROKER = "broker"
    TOPIC = "topic"
    PRODUCER = "producer"
    CONSUMER = "consumer"
    ADMIN = "admin"


class Product(_Words):
    """A product whose configuration the engine judges: Kafka, and each product pack's (docs/camunda.md)."""

    KAFKA = "kafka"
    CAMUNDA = "camunda"


class CamundaComponent(_Words):
    """What a Camunda 8 config set configures (the Camunda pack)."""

    ZEEBE_BROKER = "zeebe-broker"  # the engine's broker (an orchestration cluster's broker part)
    ZEEBE_GATEWAY = "zeebe-gateway"  # a standalone gateway (zeebe.gateway.*), in front of the brokers
    CAMUNDA_CLIENT = "camunda-client"  # an application's client: the Java/Spring SDK, or another SDK's env
    CAMUNDA_ALERTS = "camunda-alerts"  # Prometheus alerting rules over the broker's metrics


# Every component a rule may apply to, each product's in turn.
RULE_COMPONENTS: tuple[str, ...] = Component.values() + CamundaComponent.values()
PRODUCT_COMPONENTS: dict[str, tuple[str, ...]] = {
    Product.KAFKA: Component.values(),
    Product.CAMUNDA: CamundaComponent.values(),
}


def product_of(component: str) -> str:
    """The product a component belongs to (Kafka for any it does not know)."""
    return Product.CAMUNDA if component in PRODUCT_COMPONENTS[Product.CAMUNDA] else Product.KAFKA


CLIENT_COMPONENTS: tuple[str, ...] = (Component.PRODUCER, Component.CONSUMER, Component.ADMIN)
SERVER_COMPONENTS: tuple[str, ...] = (Component.BROKER, Component.TOPIC)


class Client(_Words):
    """The library that reads a client config (brokers and topics are always `java`)."""

    JAVA = "java"
    LIBRDKAFKA = "librdkafka"
    KAFKA_PYTHON = "kafka-python"


class Severity(_Words):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


SEVERITY_RANK = {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}


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
    HTML = "html"


class InputFormat(_Words):
    """What `--format` and an override glob's `format` may say a file is."""

    PROPERTIES = "properties"
    COMPOSE = "compose"
    ENV = "env"
    STRIMZI = "strimzi"
    SPRING = "spring"
    HELM = "helm"
    CLIENT_DICT = "client-dict"
    REASSIGNMENT = "reassignment"
    SHELL = "shell"
    JVM_OPTIONS = "jvm-options"
    INSTALL_SCRIPT = "install-script"
    CONFIGMAP = "configmap"
    DOCKERFILE = "dockerfile"
    TERRAFORM = "terraform"
    CP_HELM = "cp-helm"
    CP_ANSIBLE = "cp-ansible"
    CAMUNDA = "camunda"


# A rule id's first letter names its product (K Kafka, Z the Camunda pack), the second what it is
# about; the id's first two letters → the components its rules may apply to.
ID_PREFIX_COMPONENTS: dict[str, set[str]] = {
    "KB": {Component.BROKER},
    "KT": {Component.TOPIC},
    "KP": {Component.PRODUCER},
    "KC": {Component.CONSUMER},
    "KM": set(),
    "KX": set(Component.values()),
    "KO": set(Component.values()),
    "ZB": {CamundaComponent.ZEEBE_BROKER},
    "ZG": {CamundaComponent.ZEEBE_GATEWAY},
    "ZC": {CamundaComponent.CAMUNDA_CLIENT},
    "ZM": set(),
    "ZX": set(CamundaComponent.values()),  # across the pack's components, and its alerting rules
}
# The product each id letter names.
ID_PRODUCTS: dict[str, str] = {"K": Product.KAFKA, "Z": Product.CAMUNDA}
