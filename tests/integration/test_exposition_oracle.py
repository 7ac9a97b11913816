"""The exposition reader against prometheus_client's parser, on what the real Prometheus JMX
exporter serves from every node of the test cluster (its rules: tools/jmx-exporter)."""

from __future__ import annotations

import io
import math
from collections import Counter

import pytest
from prometheus_client.parser import text_string_to_metric_families
from testbed import KafkaTestCluster

from advisor.metrics.exposition import parse, wanted_names

pytestmark = pytest.mark.kafka


def _key(name: str, labels: dict[str, str], value: float) -> tuple:
    return name, tuple(sorted(labels.items())), "NaN" if math.isnan(value) else value


def _ours(text: str, wanted: frozenset[str] | None = None) -> Counter:
    return Counter(_key(s.name, dict(s.labels), s.value) for s in parse(io.StringIO(text), "scrape", wanted))


def _theirs(text: str) -> Counter:
    return Counter(_key(s.name, s.labels, s.value) for f in text_string_to_metric_families(text) for s in f.samples)


def test_every_sample_of_a_real_scrape_reads_as_prometheus_client_reads_it(kafka_cluster: KafkaTestCluster) -> None:
    for node_id in kafka_cluster.node_ids:
        text = kafka_cluster.scrape(node_id)
        ours, theirs = _ours(text), _theirs(text)
        assert sum(ours.values()) > 500, f"node {node_id}: a real scrape has hundreds of samples"
        assert ours == theirs


def test_the_filter_keeps_exactly_the_families_asked_for(kafka_cluster: KafkaTestCluster) -> None:
    text = kafka_cluster.scrape(kafka_cluster.node_ids[0])
    families = ["kafka_server_replicamanager_underreplicatedpartitions", "kafka_network_requestmetrics_totaltimems"]
    wanted = wanted_names(families)
    kept = _ours(text, wanted)
    expected = Counter({key: n for key, n in _theirs(text).items() if key[0] in wanted})
    assert kept == expected and any(key[0].startswith("kafka_server_replicamanager") for key in kept)
