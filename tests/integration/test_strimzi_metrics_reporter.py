"""Proof of the Strimzi Metrics Reporter dialect: the real reporter (io.strimzi:metrics-reporter,
its Kafka-metrics and Yammer reporters) loaded into a real broker serves its own Prometheus
endpoint, and `analyze` must find there every metric the vocabulary names for that dialect,
attribute every name to it, and judge a healthy node healthy — as the JMX exporter dialects are
proven in test_metric_dialects.py. The broker is a standalone node (tests/oracles.py), since the
reporter is a plugin on the broker's own classpath."""

from __future__ import annotations

import subprocess
import time
import urllib.request
import uuid
from pathlib import Path

import fetch_kafka  # tools/, on the path through tests/conftest.py
import kafka_cluster
import pytest
from oracles import standalone_broker
from testbed import wait_until

from advisor.metrics import exposition, vocabulary
from advisor.metrics.inputs import Capture
from advisor.metrics.observe import observe
from advisor.report import session

pytestmark = pytest.mark.kafka

REPORTERS = {
    "metric.reporters": "io.strimzi.kafka.metrics.KafkaPrometheusMetricsReporter",
    "kafka.metrics.reporters": "io.strimzi.kafka.metrics.YammerPrometheusMetricsReporter",
    "prometheus.metrics.reporter.listener.enable": "true",
}
SINGLE_NODE = {
    "offsets.topic.replication.factor": "1",
    "transaction.state.log.replication.factor": "1",
    "transaction.state.log.min.isr": "1",
}


def _scrape(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read().decode()


def _serves(url: str, name: str) -> bool:
    try:
        return name in _scrape(url)
    except OSError:
        return False


def _traffic(bootstrap: str) -> None:
    """A topic written to and read from by a client under (generous) produce, fetch and request
    quotas: the broker registers its topic meters and its quota metrics only once they are used."""
    from confluent_kafka import Consumer, Producer

    client = f"reporter-{uuid.uuid4().hex[:8]}"
    topic = f"reporter-{client}"
    libs = fetch_kafka.classpath(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION))
    command = ["java", "-cp", libs, "org.apache.kafka.tools.ConfigCommand", "--bootstrap-server", bootstrap,
               "--alter", "--entity-type", "clients", "--entity-name", client, "--add-config",
               "producer_byte_rate=10485760,consumer_byte_rate=10485760,request_percentage=200"]  # fmt: skip
    subprocess.run(command, capture_output=True, timeout=120, check=True)
    producer = Producer({"bootstrap.servers": bootstrap, "client.id": client})
    for number in range(50):
        producer.produce(topic, f"record {number}".encode())
    assert producer.flush(60) == 0
    consumer = Consumer({"bootstrap.servers": bootstrap, "client.id": client, "group.id": client,
                         "auto.offset.reset": "earliest"})  # fmt: skip
    consumer.subscribe([topic])
    read = 0
    deadline = time.monotonic() + 60
    while read < 50 and time.monotonic() < deadline:
        read += len(consumer.consume(50, 1.0))
    consumer.close()
    assert read == 50


def test_the_strimzi_metrics_reporter_serves_every_name_the_vocabulary_gives_it(tmp_path: Path) -> None:
    port = kafka_cluster.port_base() + 62
    url = f"http://127.0.0.1:{port}/metrics"
    overrides = {**REPORTERS, "prometheus.metrics.reporter.listener": f"http://127.0.0.1:{port}", **SINGLE_NODE}
    with standalone_broker(tmp_path, overrides, plugins=fetch_kafka.strimzi_metrics_reporter()) as bootstrap:
        _traffic(bootstrap)
        wait_until(lambda: _serves(url, "bytesinpersec_total"), 60, "the reporter to serve the topic meters")
        text = _scrape(url)
        samples = list(exposition.parse(text.splitlines(), url))
        resolved = {sample.name for sample in samples} & set(vocabulary.ALIASES)
        strangers = sorted(n for n in resolved if vocabulary.STRIMZI_REPORTER not in vocabulary.ALIASES[n].dialects)
        assert strangers == [], f"names the vocabulary gives to other dialects: {strangers}"
        observations, problems = observe([Capture(url, None, samples, True)])
        assert problems == [], [p.message for p in problems]
        found = {series.metric for series in observations.every()}
        expected = {m.mbean for m in vocabulary.METRICS
                    if any(vocabulary.STRIMZI_REPORTER in d for _, _, d in vocabulary.names(m))}  # fmt: skip
        assert expected, "the vocabulary names nothing for the reporter"
        assert sorted(expected - found) == [], "named for the reporter but not served by it"
        # Quota metrics: the reporter names a Kafka metric <domain>_<group>_<name>, as Confluent's rules do.
        throttles = {n for n in resolved if n.endswith("_throttle_time")}
        assert throttles == {f"kafka_server_{kind}_throttle_time" for kind in ("produce", "fetch", "request")}
        report = session.run(session.RunRequest(paths=(), endpoints=(url,),
                                                      samples=2, interval=1.0))  # fmt: skip
        assert not report.problems, report.problems
        health = {"KM001", "KM002", "KM003", "KM004", "KM005"}
        assert not {f.rule for f in report.findings} & health, [(f.rule, f.message) for f in report.findings]
