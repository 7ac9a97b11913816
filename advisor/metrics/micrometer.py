"""Java client metrics as Micrometer's Kafka binder (`KafkaClientMetrics`, io.micrometer's
KafkaMetrics) publishes them to Prometheus — the commonest way a Java or Spring application's
producer and consumer metrics reach a scrape.

The binder names a Kafka `MetricName` `kafka.<group>.<name>` with "-metrics" taken out and every
"-" made a ".", registers names ending in `total` or `count` as counters (Prometheus adds
`_total` where the name has none) and the rest as gauges, and turns each tag's "-" into "."
(`client.id` → `client_id`, beside its own `kafka_version`). Where Kafka gives one metric with
and without topic or partition tags, it keeps the one with more. The names are derived here
from the Java client names the rules read (clients.JAVA_NAMES), not typed one by one;
tests/integration/test_micrometer_client_metrics.py binds the real binder to real clients and
requires them.
"""

from __future__ import annotations

from collections.abc import Iterable

from advisor.metrics import clients
from advisor.metrics.clients import ClientMetric, ClientSample
from advisor.metrics.exposition import Sample

LIBRARY = "java"
DIALECT = "micrometer-kafka-client-metrics"
OWN_LABELS = ("topic", "partition")  # the tags a rule reads; the rest (node_id, kafka_version...) are dropped


def meter_name(java_id: str) -> str:
    """A Java client metric's series name once Micrometer's binder and its Prometheus registry
    have named it (`consumer-fetch-manager-metrics/records-lag-max` →
    `kafka_consumer_fetch_manager_records_lag_max`)."""
    group, name = java_id.split("/", 1)
    meter = f"kafka.{group}.{name}".replace("-metrics", "").replace("-", ".")
    series = meter.replace(".", "_")
    if meter.endswith(("total", "count")) and not series.endswith("_total"):
        series += "_total"  # a counter
    return series


NAMES: dict[str, ClientMetric] = {
    meter_name(java_id): metric
    for java_id, metric in clients.JAVA_NAMES.items()
    if java_id.split("/", 1)[0].endswith("-metrics")  # Java's groups; not the ids of derived figures
}


def client_samples(samples: Iterable[Sample]) -> list[ClientSample]:
    """The Micrometer samples among `samples` (a name it gives and a `client_id` label) as client
    samples of the Java client with that id, records per batch derived as from Java's own dump."""
    found = []
    for sample in samples:
        metric = NAMES.get(sample.name)
        labels = dict(sample.labels)
        client = labels.get("client_id")
        if metric is None or not client or sample.value != sample.value:  # NaN: no value yet
            continue
        own = tuple(sorted((key, labels[key]) for key in OWN_LABELS if key in labels))
        written = sample.name + "{" + ",".join(f'{k}="{v}"' for k, v in sample.labels) + "}"
        found.append(ClientSample(metric, client, own, sample.value, sample.timestamp_ms, sample.line, written,
                                  LIBRARY))  # fmt: skip
    return found + clients.records_per_batch(found, same_line=False)
