"""The public documents behind the recommendations, named as a user can look them up
(the team's notes cite the same documents; users cannot open the notes)."""

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
