"""Large files in the shapes public repositories keep, for the many-file benchmark.

fixtures/realworld/ holds small files (0.7 KB on average); real repositories also keep a chart's
full values file (the Bitnami chart's is ~125 KB, most of it `## @param` documentation), compose
stacks of a whole platform (~40 KB: three brokers, ZooKeeper, Schema Registry, Connect, ksqlDB
and the applications around them) and Strimzi folders declaring dozens of topics. These are
written here with our own values and names, so the benchmark's mix matches issue #24's measured
one: among every 60 files one chart values file, two compose stacks and one Strimzi topic set.
"""

from __future__ import annotations

_CHART_SECTIONS = ("controller", "broker")
_PROBES = ("livenessProbe", "readinessProbe", "startupProbe")


def _param(lines: list[str], path: str, text: str) -> None:
    lines.append(f"## @param {path} {text}")


def _component(lines: list[str], role: str, replicas: int) -> None:
    """One node pool of the chart: the block Bitnami repeats for controllers and brokers."""
    lines.append(f"## @section {role.capitalize()}-eligible statefulset parameters")
    lines.append(f"{role}:")
    _param(lines, f"{role}.replicaCount", f"Number of Kafka {role}-eligible nodes")
    lines.append(f"  replicaCount: {replicas}")
    if role == "controller":  # the chart has it for controllers only
        _param(
            lines,
            "controller.controllerOnly",
            "If set to true, controller nodes will be deployed as dedicated controllers",
        )
        lines.append("  controllerOnly: false")
    _param(lines, f"{role}.minId", "Minimal node.id values for the nodes of this pool")
    lines.append(f"  minId: {0 if role == 'controller' else 100}")
    _param(lines, f"{role}.config", "Configuration file for the nodes of this pool, rendered as a template")
    lines.append('  config: ""')
    _param(lines, f"{role}.extraConfig", "Additional configuration to be appended at the end of the generated file")
    lines.append('  extraConfig: ""')
    _param(lines, f"{role}.heapOpts", "Kafka Java Heap configuration")
    lines.append("  heapOpts: -Xmx2048m -Xms2048m")
    for name in (
        "command",
        "args",
        "extraEnvVars",
        "extraVolumes",
        "extraVolumeMounts",
        "sidecars",
        "initContainers",
        "tolerations",
        "topologySpreadConstraints",
    ):
        _param(lines, f"{role}.{name}", f"Override or extend the {name} of the {role} containers")
        lines.append(f"  {name}: []")
    for probe in _PROBES:
        lines.append(f"  ## Configure extra options for Kafka containers' {probe}")
        lines.append(f"  ## ref: https://kubernetes.io/docs/tasks/configure-pod-container/configure-{probe.lower()}/")
        lines.append(f"  {probe}:")
        for field, value in (
            ("enabled", "true"),
            ("initialDelaySeconds", 10),
            ("timeoutSeconds", 5),
            ("failureThreshold", 3),
            ("periodSeconds", 10),
            ("successThreshold", 1),
        ):
            _param(lines, f"{role}.{probe}.{field}", f"{field} on Kafka containers' {probe}")
            lines.append(f"    {field}: {value}")
    _param(lines, f"{role}.resourcesPreset", "Set container resources according to one common preset")
    lines.append("  resourcesPreset: none")
    lines.append("  resources:")
    lines.append("    requests:")
    lines.append('      cpu: "2"')
    lines.append("      memory: 6Gi")
    lines.append("    limits:")
    lines.append("      memory: 6Gi")
    lines.append("  podSecurityContext:")
    for field, value in (
        ("enabled", "true"),
        ("fsGroupChangePolicy", "Always"),
        ("fsGroup", 1001),
        ("seccompProfile", "{type: RuntimeDefault}"),
    ):
        _param(lines, f"{role}.podSecurityContext.{field}", f"Set the pods' {field}")
        lines.append(f"    {field}: {value}")
    lines.append("  persistence:")
    for field, value in (
        ("enabled", "true"),
        ("existingClaim", '""'),
        ("storageClass", '""'),
        ("accessModes", "[ReadWriteOnce]"),
        ("size", "200Gi"),
        ("mountPath", "/bitnami/kafka"),
    ):
        _param(lines, f"{role}.persistence.{field}", f"PVC {field} for the nodes' data volume")
        lines.append(f"    {field}: {value}")
    lines.append("")


def chart_values(seed: int) -> str:
    """A Bitnami-shaped chart values file of ~125 KB, mostly documentation, as charts ship it."""
    lines = [
        "## @section Global parameters",
        "## Global Docker image parameters",
        "global:",
        '  imageRegistry: ""',
        "  imagePullSecrets: []",
        '  defaultStorageClass: ""',
        "",
        "## @section Common parameters",
        'kubeVersion: ""',
        'nameOverride: ""',
        'fullnameOverride: ""',
        "clusterDomain: cluster.local",
        "commonLabels: {}",
        "commonAnnotations: {}",
        "",
        "## @section Kafka parameters",
        "image:",
        "  registry: docker.io",
        "  repository: bitnami/kafka",
        f"  tag: 3.{seed % 3 + 7}.0-debian-12-r{seed % 9}",
        "  pullPolicy: IfNotPresent",
        "",
    ]
    lines += [
        "listeners:",
        "  client:",
        "    containerPort: 9092",
        "    protocol: SASL_PLAINTEXT",
        "    name: CLIENT",
        "  controller:",
        "    name: CONTROLLER",
        "    containerPort: 9093",
        "    protocol: SASL_PLAINTEXT",
        "  interbroker:",
        "    containerPort: 9094",
        "    protocol: SASL_PLAINTEXT",
        "    name: INTERNAL",
        "sasl:",
        "  enabledMechanisms: PLAIN,SCRAM-SHA-256,SCRAM-SHA-512",
        "  interBrokerMechanism: PLAIN",
        "  controllerMechanism: PLAIN",
        "  client:",
        "    users:",
        "      - user1",
        '    passwords: ""',
        "",
        "extraConfig: |",
        "  default.replication.factor=3",
        "  min.insync.replicas=2",
        f"  num.partitions={6 + seed % 6}",
        "  log.retention.hours=168",
        "",
    ]
    for role, replicas in zip(_CHART_SECTIONS, (3, 3 + seed % 3), strict=True):
        _component(lines, role, replicas)
    # The rest of a real values file: services, network policy, RBAC, metrics, each documented at
    # length — the chart's own keys (those chart 26 reads, from the catalog), so that the file has
    # the real file's keys as well as its size.
    _real_sections(lines, 110_000 - sum(len(line) + 1 for line in lines))
    lines += [
        "provisioning:",
        "  enabled: true",
        f"  numPartitions: {3 + seed % 3}",
        "  replicationFactor: 3",
        "  topics:",
    ]
    for topic in range(8):
        lines += [
            f"    - name: events-{topic}",
            "      partitions: 12",
            "      replicationFactor: 3",
            "      config:",
            "        min.insync.replicas: 2",
            "        retention.ms: 604800000",
        ]
    return "\n".join(lines) + "\n"


_WRITTEN_ABOVE = {"global", "kubeVersion", "nameOverride", "fullnameOverride", "clusterDomain", "commonLabels",
                  "commonAnnotations", "image", "listeners", "sasl", "extraConfig", "controller", "broker",
                  "provisioning", "zookeeper"}  # fmt: skip


def _real_sections(lines: list[str], size: int) -> None:
    """The chart's other sections as its values.yaml documents them, about `size` bytes."""
    from advisor.catalog import charts

    data = charts.chart("bitnami-kafka")
    paths = sorted(
        p for p, r in data["known"].items() if charts.within(r, 26) and p.split("/")[0] not in _WRITTEN_ABOVE
    )
    parents = {p.rsplit("/", 1)[0] for p in paths if "/" in p}
    leaves = [p for p in paths if p not in parents]
    padding = max(0, size // max(1, len(leaves)) - 40)
    written: set[str] = set()
    for path in leaves:
        segments = path.split("/")
        for depth in range(1, len(segments)):
            parent = "/".join(segments[:depth])
            if parent not in written:
                written.add(parent)
                lines.append(f"{'  ' * (depth - 1)}{segments[depth - 1]}:")
        indent = "  " * (len(segments) - 1)
        text = f"The {segments[-1]} of {'.'.join(segments[:-1]) or 'the chart'}"
        lines.append(
            f"{indent}## @param {path.replace('/', '.')} {text}{' (as the chart documents it)' * (padding // 28)}"[
                : padding + 60
            ]
        )
        value = "{}" if charts.within(data["open"].get(path), 26) and "/" not in path[-1:] else '""'
        lines.append(f"{indent}{segments[-1]}: {value}")


def _broker(lines: list[str], index: int, seed: int) -> None:
    name = f"kafka{index}"
    lines += [
        f"  {name}:",
        "    image: confluentinc/cp-kafka:7.6.1",
        f"    hostname: {name}",
        f"    container_name: {name}-s{seed}",
        "    depends_on:",
        "      - zookeeper1",
        "      - zookeeper2",
        "    ports:",
        f'      - "{19091 + index}:{19091 + index}"',
        "    environment:",
        f"      KAFKA_BROKER_ID: {index}",
        "      KAFKA_ZOOKEEPER_CONNECT: zookeeper1:2181,zookeeper2:2181,zookeeper3:2181",
        "      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: INTERNAL:SASL_PLAINTEXT,EXTERNAL:SASL_SSL",
        f"      KAFKA_ADVERTISED_LISTENERS: INTERNAL://{name}:29092,EXTERNAL://kafka.example.internal:{19091 + index}",
        "      KAFKA_INTER_BROKER_LISTENER_NAME: INTERNAL",
        "      KAFKA_SASL_ENABLED_MECHANISMS: SCRAM-SHA-512",
        "      KAFKA_SASL_MECHANISM_INTER_BROKER_PROTOCOL: SCRAM-SHA-512",
        "      KAFKA_DEFAULT_REPLICATION_FACTOR: 3",
        "      KAFKA_MIN_INSYNC_REPLICAS: 2",
        "      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 3",
        "      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: 3",
        "      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: 2",
        "      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false'",
        "      KAFKA_NUM_PARTITIONS: 12",
        "      KAFKA_LOG_RETENTION_HOURS: 168",
        "      KAFKA_LOG_SEGMENT_BYTES: 1073741824",
        "      KAFKA_NUM_NETWORK_THREADS: 8",
        "      KAFKA_NUM_IO_THREADS: 16",
        "      KAFKA_SOCKET_SEND_BUFFER_BYTES: 1048576",
        "      KAFKA_SOCKET_RECEIVE_BUFFER_BYTES: 1048576",
        "      KAFKA_HEAP_OPTS: -Xms6g -Xmx6g",
        "      KAFKA_JMX_PORT: 9999",
        f"      KAFKA_JMX_HOSTNAME: {name}",
        "      KAFKA_SSL_KEYSTORE_FILENAME: kafka.keystore.jks",
        "      KAFKA_SSL_KEYSTORE_CREDENTIALS: keystore_creds",
        "      KAFKA_SSL_KEY_CREDENTIALS: key_creds",
        "      KAFKA_SSL_TRUSTSTORE_FILENAME: kafka.truststore.jks",
        "      KAFKA_SSL_TRUSTSTORE_CREDENTIALS: truststore_creds",
        "    volumes:",
        f"      - ./data/{name}:/var/lib/kafka/data",
        "      - ./secrets:/etc/kafka/secrets",
        "    healthcheck:",
        '      test: ["CMD", "kafka-topics", "--bootstrap-server", "localhost:29092", "--list"]',
        "      interval: 30s",
        "      timeout: 10s",
        "      retries: 5",
        "",
    ]


def _service(lines: list[str], name: str, seed: int) -> None:
    """An application beside the brokers: its own environment, some of it Kafka client settings."""
    lines += [
        f"  {name}:",
        f"    image: registry.example.internal/platform/{name}:1.{seed % 20}.3",
        f"    container_name: {name}-s{seed}",
        "    restart: unless-stopped",
        "    depends_on:",
        "      - kafka1",
        "      - schema-registry",
        "    environment:",
        "      SPRING_PROFILES_ACTIVE: docker",
        "      SERVER_PORT: 8080",
        "      SPRING_KAFKA_BOOTSTRAP_SERVERS: kafka1:29092,kafka2:29092,kafka3:29092",
        f"      SPRING_KAFKA_CONSUMER_GROUP_ID: {name}",
        "      SPRING_KAFKA_PRODUCER_ACKS: all",
        "      SPRING_DATASOURCE_URL: jdbc:postgresql://postgres:5432/platform",
        "      MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE: health,info,prometheus",
        "      JAVA_TOOL_OPTIONS: -XX:MaxRAMPercentage=75 -XX:+UseG1GC",
        "      LOGGING_LEVEL_ROOT: INFO",
        "      OTEL_SERVICE_NAME: " + name,
        "      OTEL_EXPORTER_OTLP_ENDPOINT: http://otel-collector:4317",
        "    ports:",
        f'      - "{8100 + len(lines) % 800}:8080"',
        "    deploy:",
        "      resources:",
        "        limits:",
        "          cpus: '1.0'",
        "          memory: 1024M",
        "    healthcheck:",
        '      test: ["CMD", "curl", "-f", "http://localhost:8080/actuator/health"]',
        "      interval: 20s",
        "      timeout: 5s",
        "      retries: 10",
        "    networks:",
        "      - platform",
        "",
    ]


def compose_stack(seed: int) -> str:
    """A whole platform in one compose file (~40 KB): ZooKeeper, three brokers, the Confluent
    services and a few dozen applications."""
    lines = [
        "version: '3.8'",
        "",
        "x-logging: &default-logging",
        "  driver: json-file",
        "  options:",
        "    max-size: 10m",
        "",
        "services:",
    ]
    for index in (1, 2, 3):
        lines += [
            f"  zookeeper{index}:",
            "    image: confluentinc/cp-zookeeper:7.6.1",
            f"    hostname: zookeeper{index}",
            "    environment:",
            f"      ZOOKEEPER_SERVER_ID: {index}",
            "      ZOOKEEPER_CLIENT_PORT: 2181",
            "      ZOOKEEPER_TICK_TIME: 2000",
            "      ZOOKEEPER_SERVERS: zookeeper1:2888:3888;zookeeper2:2888:3888;zookeeper3:2888:3888",
            "    logging: *default-logging",
            "",
        ]
    for index in (1, 2, 3):
        _broker(lines, index, seed)
    lines += [
        "  schema-registry:",
        "    image: confluentinc/cp-schema-registry:7.6.1",
        "    environment:",
        "      SCHEMA_REGISTRY_HOST_NAME: schema-registry",
        "      SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS: SASL_PLAINTEXT://kafka1:29092",
        "      SCHEMA_REGISTRY_LISTENERS: http://0.0.0.0:8081",
        "",
    ]
    count = 0
    while sum(len(line) + 1 for line in lines) < 38_000:
        _service(lines, f"service-{count:02d}", seed)
        count += 1
    lines += ["networks:", "  platform:", "    driver: bridge", ""]
    return "\n".join(lines)


def strimzi_topics(seed: int, count: int = 40) -> str:
    """A Strimzi cluster folder's topics file: dozens of KafkaTopic resources, one document each."""
    documents = []
    for topic in range(count):
        documents.append(
            "\n".join(
                [
                    "apiVersion: kafka.strimzi.io/v1beta2",
                    "kind: KafkaTopic",
                    "metadata:",
                    f"  name: domain-{seed % 7}-events-{topic:02d}",
                    "  labels:",
                    "    strimzi.io/cluster: events",
                    "spec:",
                    f"  partitions: {6 * (1 + topic % 4)}",
                    "  replicas: 3",
                    "  config:",
                    f"    retention.ms: {86_400_000 * (1 + topic % 7)}",
                    "    segment.bytes: 536870912",
                    "    min.insync.replicas: 2",
                    f"    cleanup.policy: {'compact' if topic % 5 == 0 else 'delete'}",
                ]
            )
        )
    cluster = "\n".join(
        [
            "apiVersion: kafka.strimzi.io/v1beta2",
            "kind: Kafka",
            "metadata:",
            "  name: events",
            "spec:",
            "  kafka:",
            "    version: 3.8.0",
            "    replicas: 3",
            "    listeners:",
            "      - name: tls",
            "        port: 9093",
            "        type: internal",
            "        tls: true",
            "    config:",
            "      default.replication.factor: 3",
            "      min.insync.replicas: 2",
            "      offsets.topic.replication.factor: 3",
            "      transaction.state.log.replication.factor: 3",
            "      transaction.state.log.min.isr: 2",
            "    storage:",
            "      type: jbod",
            "      volumes:",
            "        - id: 0",
            "          type: persistent-claim",
            "          size: 500Gi",
            "  zookeeper:",
            "    replicas: 3",
            "    storage:",
            "      type: persistent-claim",
            "      size: 20Gi",
            "  entityOperator:",
            "    topicOperator: {}",
            "    userOperator: {}",
        ]
    )
    return "\n---\n".join([cluster, *documents]) + "\n"


# Among every 60 files of the benchmark tree: (relative path, generator).
LARGE_FILES = (
    ("charts/kafka/values.yaml", chart_values),
    ("deploy/docker-compose.yml", compose_stack),
    ("platform/docker-compose.yml", compose_stack),
    ("strimzi/topics.yaml", strimzi_topics),
)
