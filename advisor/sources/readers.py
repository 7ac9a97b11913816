"""Every configuration reader, declared once: the detection tables of sources/__init__.py are
built from this list (which loaders may claim a suffix, in what order; what `--format` names
read; what a folder walk says of a Kafka-looking file no reader claimed), and fix/ asks it
which writer edits a file. Importing it imports no loader."""

from __future__ import annotations

from advisor.named_tuple import NamedTuple


class Reader(NamedTuple):
    module: str  # advisor.sources.<module>: sniff(path, text), load(path, text, payload, options)[, link]
    format: str  # the SourceFile.format its files get
    claims: tuple[str, ...]  # suffixes it may claim in a walk ("": a file named .env or a #! script)
    names: dict[str, str | None]  # --format names it reads → the suffix its sniffing expects (None: any)
    reads: str  # what it reads, as a folder walk tells a file that no reader claimed
    writer: str | None  # the fix/ module that edits its files; None: no writer (their Changes are shown only)
    by_content: bool = False  # also offered files no suffix names (Dockerfile, Containerfile): content decides


# In precedence: of the readers that claim a suffix, the first whose sniff accepts a file owns it.
READERS = (
    # The Camunda pack's reader looks first at what it shares with Kafka's readers: a file with
    # Camunda 8 settings is its, and it has the Kafka reader that would have claimed the file read
    # that file's Kafka settings too (sources/camunda.py `read_also`).
    Reader("camunda", "camunda", (".yaml", ".yml", ".properties", ".env", ""), {"camunda": ".yaml"},
           "Camunda 8 settings: the Zeebe broker's (zeebe.broker.*, camunda.processing.*, camunda.data.*; their"
           " ZEEBE_BROKER_*/CAMUNDA_* variables; the camunda-platform chart's zeebe/orchestration values) and an"
           " application's Camunda client (camunda.client.*, CAMUNDA_CLIENT_*, CAMUNDA_SDK_*)",
           "structured_writer"),  # its files' Kafka settings (read_also) are fixed where they are written
    Reader("properties", "properties", (".properties",), {"properties": ".properties"},
           "Kafka broker, topic or client properties (application*/bootstrap* names are Spring Boot's: name a"
           " Kafka client config for its role, e.g. orders.producer.properties, to have it read)",
           "properties_writer"),
    Reader("compose", "compose", (".yaml", ".yml", ".env", ""), {"compose": ".yml", "env": ".env"},
           "a compose file with a Kafka broker service, or a broker's .env (one that sets its own variables:"
           " KAFKA_NODE_ID, KAFKA_PROCESS_ROLES, KAFKA_LISTENERS, KAFKA_ZOOKEEPER_CONNECT, KAFKA_CFG_*)",
           "structured_writer"),
    Reader("strimzi", "strimzi", (".yaml", ".yml"), {"strimzi": ".yaml"},
           "Strimzi resources (Kafka, KafkaNodePool, KafkaTopic, KafkaUser)", "structured_writer"),
    Reader("configmap", "configmap", (".yaml", ".yml"), {"configmap": ".yaml"},
           "Kubernetes manifests: a ConfigMap holding a *.properties key, or a StatefulSet, Deployment or Pod"
           " whose container runs a broker (its image, a broker's own variables, or kafka-server-start)",
           "structured_writer"),
    Reader("spring", "spring", (".properties", ".yaml", ".yml"), {"spring": ".yml"},
           "Spring Boot's application*/bootstrap* files, for spring.kafka.* only", "structured_writer"),
    Reader("cp_helm", "cp-helm", (".yaml", ".yml"), {"cp-helm": ".yaml"},
           "Confluent cp-helm-charts values for cp-kafka (configurationOverrides, heapOptions, brokers), alone or"
           " under an umbrella's cp-kafka:", "structured_writer"),
    Reader("helm", "helm", (".yaml", ".yml"), {"helm": ".yaml"}, "Bitnami Kafka chart values*.yaml",
           "structured_writer"),
    Reader("ansible", "cp-ansible", (".yaml", ".yml"), {"cp-ansible": ".yml"},
           "a cp-ansible YAML inventory with a kafka_broker group (kafka_broker_custom_properties per host,"
           " group or all)", "structured_writer"),
    Reader("reassignment", "reassignment-plan", (".json",), {"reassignment": ".json"},
           "a kafka-reassign-partitions plan", None),
    Reader("client_dict", "client-dict", (".yaml", ".yml", ".json", ".toml", ".ini", ".conf", ".cfg", ".cnf",
                                           ".config"), {"client-dict": None},
           "a librdkafka / kafka-python config dict (flat, or producer/consumer/admin sections; in .ini/.conf"
           " text: kcat.conf key=value lines, or configparser [default]/[producer]/[consumer] sections)",
           "structured_writer"),
    Reader("shell", "shell", (".sh", ".bash", ""), {"shell": ".sh"},
           "a script that calls kafka-topics, kafka-configs, kafka-reassign-partitions or kafka-acls",
           "shell_writer"),
    Reader("jvm_env", "jvm-options", (".sh", ".bash", ".service", ""), {"jvm-options": ".sh"},
           "a script or systemd unit that starts a broker (kafka-server-start) with JVM options (Connect,"
           " MirrorMaker and tool JVMs are not a broker's)", None),
    Reader("install_script", "install-script", (".sh", ".bash", ""), {"install-script": ".sh"},
           "a script that downloads a Kafka release (kafka_2.13-3.7.1.tgz): the release of the broker and topic"
           " files beside it that it names", None),
    Reader("terraform", "terraform", (".tf",), {"terraform": ".tf"},
           "Terraform: the Kafka provider's kafka_topic resources, AWS MSK's aws_msk_configuration"
           " (server_properties), a Bitnami kafka helm_release (the values files it names)", None),
    Reader("dockerfile", "dockerfile", (".dockerfile",), {"dockerfile": None},
           "a Dockerfile whose final stage runs a broker image (apache/kafka, cp-kafka, bitnami/kafka) or sets a"
           " broker's own variables (KAFKA_NODE_ID, KAFKA_LISTENERS, ...); one that builds a client application"
           " or a tool image is not a broker's", None, by_content=True),
)  # fmt: skip

BY_FORMAT = {reader.format: reader for reader in READERS}


def claims() -> dict[str, tuple[str, ...]]:
    """Suffix → the modules that may claim a file of it, in precedence."""
    table: dict[str, list[str]] = {}
    for reader in READERS:
        for suffix in reader.claims:
            table.setdefault(suffix, []).append(reader.module)
    return {suffix: tuple(modules) for suffix, modules in table.items()}


def named() -> dict[str, tuple[str, str | None]]:
    """--format name → (module, the suffix its sniffing expects)."""
    return {name: (reader.module, suffix) for reader in READERS for name, suffix in reader.names.items()}


def what_is_read(suffix: str) -> str:
    """What the readers of this suffix read (a file named .env: its own)."""
    readers = [r.reads for r in READERS if suffix in r.claims]
    return "a file of this kind is read as " + "; or ".join(readers) if readers else ""


def by_content() -> tuple[str, ...]:
    """The modules offered every file a walk looks into, whatever its name (content decides)."""
    return tuple(reader.module for reader in READERS if reader.by_content)
