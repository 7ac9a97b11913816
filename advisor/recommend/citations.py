"""The public documents behind the recommendations, named as a user can look them up, with a
link where one exists (the team's notes cite the same documents; users cannot open the notes)."""

from __future__ import annotations

CONFLUENT_OPTIMIZING = "Confluent, Optimizing Your Apache Kafka Deployment"
OMB_DRIVER = "OpenMessaging Benchmark, driver-kafka"
KAFKA_OPS = "Kafka documentation, Operations"
AWS_MSK_SIZING = "Amazon MSK best practices: right-size your cluster"
CONFLUENT_PARTITIONS = "Confluent blog, How to choose the number of topics/partitions in a Kafka cluster"


def confluent(goal: str) -> str:
    """Confluent's per-goal summary lists (throughput, latency, durability, availability)."""
    return f"{CONFLUENT_OPTIMIZING} ({goal})"


IDEMPOTENCE = "KIP-679; ProducerConfig (kafka-clients): idempotence checks; librdkafka CONFIGURATION.md"
LATENCY_LINGER = f"{confluent('latency')}; {OMB_DRIVER} latency driver (linger.ms 1)"
THROUGHPUT_BATCH = f"{confluent('throughput: 100–200 KB')}; {OMB_DRIVER} (batch.size 1 MiB)"
PRODUCER_MEMORY = (
    f"KafkaProducer javadoc: a buffer per active partition; {confluent('throughput: buffer.memory')} "
    "(the × 2 is kafka-advisor's inference)"
)
RECORD_TOO_LARGE = "Kafka documentation: max.request.size; KafkaProducer: RecordTooLargeException"
MSK_WRITE_IO = f"{AWS_MSK_SIZING} (total write IO = ingress × RF)"
MSK_REPLICATION = f"{AWS_MSK_SIZING} (write IO = ingress × RF; the RF − 1 split is kafka-advisor's inference)"
CONSUMER_COMMITS = "KafkaConsumer javadoc: Manual Offset Control (commit after the records are processed)"
SESSION_TIMEOUT = "KIP-735: Increase default consumer session timeout (10 s to 45 s, Kafka 3.0)"
BROKER_COMPRESSION = "Kafka documentation: compression.type ('producer' keeps the codec the producer chose)"
RETRIES = "KIP-91: Provide Intuitive User Timeouts in The Producer (retries up to delivery.timeout.ms); KIP-679"
IN_FLIGHT = "Kafka documentation: max.in.flight.requests.per.connection (ordering kept up to 5 with idempotence)"
ISOLATION = (
    "Kafka documentation: isolation.level (read_committed returns only committed transactional records); "
    "KIP-98: Exactly Once Delivery and Transactional Messaging"
)
RECOVERY_THREADS = (
    "KIP-1030: Change constraints and default values for various configurations (2 from Kafka 4.0); "
    "Kafka's config/server.properties (raise it for log dirs on a RAID array)"
)

_KIP = "https://cwiki.apache.org/confluence/display/KAFKA/"
_CONFIGS = "https://kafka.apache.org/documentation/#"
# Each document named above, by the words that name it in a source, and where to read it.
LINKS: tuple[tuple[str, str], ...] = (
    (OMB_DRIVER, "https://github.com/openmessaging/benchmark/tree/master/driver-kafka"),
    (f"{KAFKA_OPS}: Hardware and OS", f"{_CONFIGS}hwandos"),
    (AWS_MSK_SIZING, "https://docs.aws.amazon.com/msk/latest/developerguide/bestpractices.html"),
    (CONFLUENT_PARTITIONS, "https://www.confluent.io/blog/how-choose-number-topics-partitions-kafka-cluster/"),
    ("KIP-74", f"{_KIP}KIP-74%3A+Add+Fetch+Response+Size+Limit+in+Bytes"),
    ("KIP-91", f"{_KIP}KIP-91+Provide+Intuitive+User+Timeouts+in+The+Producer"),
    ("KIP-98", f"{_KIP}KIP-98+-+Exactly+Once+Delivery+and+Transactional+Messaging"),
    ("KIP-679", f"{_KIP}KIP-679%3A+Producer+will+enable+the+strongest+delivery+guarantee+by+default"),
    ("KIP-735", f"{_KIP}KIP-735%3A+Increase+default+consumer+session+timeout"),
    ("KIP-1030", f"{_KIP}KIP-1030%3A+Change+constraints+and+default+values+for+various+configurations"),
    ("ProducerConfig (kafka-clients)", "https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/"
     "kafka/clients/producer/ProducerConfig.java"),
    ("librdkafka CONFIGURATION.md", "https://github.com/confluentinc/librdkafka/blob/master/CONFIGURATION.md"),
    ("KafkaConsumer javadoc", "https://kafka.apache.org/39/javadoc/org/apache/kafka/clients/consumer/KafkaConsumer.html"),
    ("KafkaProducer javadoc", "https://kafka.apache.org/39/javadoc/org/apache/kafka/clients/producer/KafkaProducer.html"),
    ("Kafka documentation: max.request.size", f"{_CONFIGS}producerconfigs_max.request.size"),
    ("Kafka documentation: message.max.bytes", f"{_CONFIGS}brokerconfigs_message.max.bytes"),
    ("Kafka documentation: compression.type", f"{_CONFIGS}brokerconfigs_compression.type"),
    ("Kafka documentation: max.in.flight.requests.per.connection",
     f"{_CONFIGS}producerconfigs_max.in.flight.requests.per.connection"),
    ("Kafka documentation: isolation.level", f"{_CONFIGS}consumerconfigs_isolation.level"),
    ("Kafka's config/server.properties", "https://github.com/apache/kafka/blob/3.9/config/server.properties"),
)  # fmt: skip


_CONFLUENT_PAGES = "https://docs.confluent.io/cloud/current/client-apps/optimizing/{}.html"


def links(source: str) -> list[str]:
    """The links of the documents a source names, in the order they are named: Confluent's
    guide by the goals named in its parentheses (its per-goal pages)."""
    found = [(source.find(words), url) for words, url in LINKS if words in source]
    at = source.find(CONFLUENT_OPTIMIZING)
    if at >= 0:
        named = source[at + len(CONFLUENT_OPTIMIZING) :].split(")")[0]
        found += [(at, _CONFLUENT_PAGES.format(goal)) for goal in ("throughput", "latency", "durability",
                                                                    "availability") if goal in named]  # fmt: skip
    return list(dict.fromkeys(url for _, url in sorted(found, key=lambda pair: pair[0])))


# A rule's references name documents in a few recurring ways; these give each the page a user can
# open (never a page of this repository): the Kafka documentation's sections, JIRA issues, the KIP
# index for a KIP without a link above, librdkafka's and kafka-python's documents.
_GENERIC: tuple[tuple[str, str], ...] = (
    ("Kafka documentation, Monitoring", f"{_CONFIGS}monitoring"),
    ("Kafka monitoring", f"{_CONFIGS}monitoring"),
    ("upgrade notes", f"{_CONFIGS}upgrade"),
    ("Kafka documentation", "https://kafka.apache.org/documentation/"),
    ("librdkafka STATISTICS.md", "https://github.com/confluentinc/librdkafka/blob/master/STATISTICS.md"),
    ("librdkafka rdkafka_conf.c", "https://github.com/confluentinc/librdkafka/blob/master/src/rdkafka_conf.c"),
    ("kafka-python KafkaProducer", "https://kafka-python.readthedocs.io/en/master/apidoc/KafkaProducer.html"),
    ("kafka-python KafkaConsumer", "https://kafka-python.readthedocs.io/en/master/apidoc/KafkaConsumer.html"),
)
_KIP_INDEX = f"{_KIP}Kafka+Improvement+Proposals"


def reference_links(reference: str) -> list[str]:
    """The links of a rule's reference: its documents' own (`links`), else the page of its kind."""
    import re

    found = links(reference)
    found += [f"https://issues.apache.org/jira/browse/{issue}" for issue in re.findall(r"\bKAFKA-\d+\b", reference)]
    if found:
        return list(dict.fromkeys(found))
    generic = next((url for words, url in _GENERIC if words in reference), None)
    if generic is None and re.search(r"\bKIP-\d+", reference):
        generic = _KIP_INDEX
    return [generic] if generic else []
