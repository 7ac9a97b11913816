"""Micrometer's Kafka binder (KafkaClientMetrics) bound to real Java clients on the real test
cluster, its Prometheus registry scraped as an application serves it: `analyze` reads the
scrape as Java client metrics — every name advisor/metrics/micrometer.py derives that the binder
exports for these clients, the same values the clients report — and says it recognised them."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import fetch_kafka  # tools/, on the path through tests/conftest.py
import pytest
from oracles import compile_java
from testbed import KafkaTestCluster, new_topic

from advisor.metrics import clients, exposition, micrometer
from advisor.metrics.files import observed
from advisor.report import session

pytestmark = pytest.mark.kafka

REPO_ROOT = Path(__file__).resolve().parents[2]
RECORDS = 2000
# What these clients do and so report: a producer that sent, a consumer that fetched, rebalanced once
# and has a lag left (it read half). Retries, errors, throttles and buffer waits have no value yet
# (the binder leaves out a metric that is NaN), so they are not required here.
EXPECTED = {clients.BATCH_SIZE_AVG, clients.RECORD_SIZE_AVG, clients.RECORDS_PER_BATCH, clients.RECORD_SEND_TOTAL,
            clients.RECORD_QUEUE_TIME_AVG, clients.REQUEST_LATENCY_AVG, clients.COMPRESSION_RATE_AVG,
            clients.FETCH_SIZE_AVG, clients.FETCH_TOTAL, clients.REBALANCE_TOTAL, clients.RECORDS_LAG,
            clients.TIME_BETWEEN_POLL_MAX}  # fmt: skip


@pytest.fixture(scope="module")
def scrape(kafka_cluster_handle: KafkaTestCluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    libs = fetch_kafka.classpath(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION))
    libs += ":" + fetch_kafka.classpath(fetch_kafka.micrometer())
    out = tmp_path_factory.mktemp("micrometer")
    compile_java(REPO_ROOT / "tests" / "java" / "MicrometerScrape.java", out, libs)
    with new_topic(kafka_cluster_handle, "micrometer", partitions=3) as topic:
        group = f"micrometer-{uuid.uuid4().hex[:8]}"
        command = ["java", "-cp", f"{out}:{libs}", "MicrometerScrape", kafka_cluster_handle.bootstrap_servers, topic,
                   group, str(RECORDS), "200"]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=True)
        path = out / "actuator-prometheus.txt"
        path.write_text(done.stdout)
        yield path


def test_every_derived_name_the_binder_exports_is_read_as_the_java_clients_metric(scrape: Path) -> None:
    text = scrape.read_text()
    written = {sample.name for sample in exposition.parse(text.splitlines(), str(scrape))}
    read = observed([scrape], session.RunRequest(paths=()).limits)
    assert read.problems == []
    found = {clients.BY_ID[s.metric] for s in read.observations.series if s.metric in clients.BY_ID}
    assert found >= EXPECTED, sorted(m.id for m in EXPECTED - found)
    derived = {name for name, metric in micrometer.NAMES.items() if metric in EXPECTED}
    assert derived - written == set(), "derived names the binder did not write"
    nodes = {s.node: s.component for s in read.observations.series if s.metric in clients.BY_ID}
    assert nodes == {"micrometer-producer": "producer", "micrometer-consumer": "consumer"}
    (sent,) = [s for s in read.observations.of(clients.RECORD_SEND_TOTAL.id)]
    assert sent.points[-1].value == RECORDS and sent.library == "java"
    lag = [s for s in read.observations.of(clients.RECORDS_LAG.id) if s.points[-1].value > 0]
    assert lag and all(s.label("topic") and s.label("partition") for s in lag)  # the binder keeps the per-partition lag


def test_analyze_says_what_it_recognised(scrape: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "advisor", "analyze", str(scrape), "--output-format", "json"],
                          capture_output=True, text=True, check=False)  # fmt: skip
    report = json.loads(done.stdout)
    (entry,) = report["files"]
    assert entry["recognised"] == [micrometer.DIALECT] and entry["series"] >= len(EXPECTED)
    assert report["skipped"] == [] and report["errors"] == []
