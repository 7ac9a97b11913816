"""Every metrics input understood or said not understood: what each file was read as, the naming
dialects or client recognised and the series the rules read, in every output format; a file of
which the rules read nothing is a note saying what its names look like (an error with
--unread=error); files that look like client metrics in a shape no reader takes are refused when
named and said when walked, with what to save instead."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.metrics import clients, sniff
from advisor.metrics.files import split_inputs
from advisor.model.document import Problem

# Names as each exporter setup writes them, values of our own.
STRIMZI_SCRAPE = (
    "# TYPE kafka_server_replicamanager_underreplicatedpartitions gauge\n"
    'kafka_server_replicamanager_underreplicatedpartitions{pod="bus-kafka-0"} 0.0\n'
    "# TYPE kafka_server_replicamanager_offlinereplicacount gauge\n"
    'kafka_controller_kafkacontroller_activecontrollercount{pod="bus-kafka-0"} 1.0\n'
)
JMX_DEFAULT = (
    '# HELP kafka_server_replicamanager_value Attribute exposed for management ("kafka.server"<type=ReplicaManager, '
    "name=UnderReplicatedPartitions><>Value)\n"
    "# TYPE kafka_server_replicamanager_value untyped\n"
    'kafka_server_replicamanager_value{name="UnderReplicatedPartitions",} 2.0\n'
    'kafka_server_replicamanager_value{name="UnderMinIsrPartitionCount",} 0.0\n'
)
JMX_CASE = (
    'kafka_server_ReplicaManager_Value{name="UnderReplicatedPartitions",} 2.0\n'
    'kafka_controller_KafkaController_Value{name="ActiveControllerCount",} 0.0\n'
)
MICROMETER = (
    "# TYPE kafka_consumer_fetch_manager_records_lag_max gauge\n"
    'kafka_consumer_fetch_manager_records_lag_max{client_id="orders-consumer-1",kafka_version="3.7.1",} 5120.0\n'
    'kafka_producer_record_send_total{client_id="orders-producer-1",kafka_version="3.7.1",} 88210.0\n'
)
# Micrometer's meters of a metric no rule reads: said as such.
MICROMETER_UNREAD = (
    'kafka_consumer_fetch_manager_records_consumed_total{client_id="orders-consumer-1",kafka_version="3.7.1",} 12.0\n'
)
LAG_EXPORTER_TOTALS = (
    'kafka_consumergroup_group_max_lag{cluster_name="main",group="billing",is_simple_consumer="false",} 81234.0\n'
    'kafka_consumergroup_group_sum_lag{cluster_name="main",group="billing",} 152001.0\n'
)
NOT_KAFKA = "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 12.5\njvm_threads_live_threads 41\n"
PYTHON_REPR = (
    "{'producer-metrics': {'record-send-rate': 120.5, 'batch-size-avg': 1500.0}, "
    "'kafka-metrics-count': {'count': 52.0}}\n"
)
JAVA_TO_STRING = (
    "{MetricName [name=record-send-rate, group=producer-metrics, description=..., tags={client-id=p-1}]="
    "org.apache.kafka.common.metrics.KafkaMetric@6d1e7682}\n"
)


def _analyze(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "advisor", "analyze", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=60, check=False)  # fmt: skip


def _json(done: subprocess.CompletedProcess[str]) -> dict:  # type: ignore[type-arg]
    return json.loads(done.stdout)  # type: ignore[no-any-return]


# The exporter's default format, for beans no rule reads: said as such.
JMX_DEFAULT_UNREAD = 'kafka_server_sessionexpirelistener_value{name="ZooKeeperExpiresPerSec",} 0.0\n'
JMX_CASE_UNREAD = 'kafka_server_KafkaServer_Value{name="BrokerState",} 3.0\n'


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (JMX_DEFAULT_UNREAD, "the JMX exporter's default names, without rules (lower-cased), such as kafka_server_se"),
        (JMX_CASE_UNREAD, "JMX case, as Amazon MSK's Open Monitoring serves them"),
        (MICROMETER_UNREAD, "Micrometer's Kafka client meters, such as kafka_consumer_fetch_manager_records_consumed"),
        (NOT_KAFKA, "no Kafka metric names, only names such as process_cpu_seconds_total"),
        (LAG_EXPORTER_TOTALS, "kafka-lag-exporter's group aggregates (kafka_consumergroup_group_max_lag"),
    ],
)
def test_a_scrape_of_which_the_rules_read_nothing_is_said_with_what_it_looks_like(
    text: str, said: str, tmp_path: Path
) -> None:
    (tmp_path / "scrape.prom").write_text(text)
    done = _analyze(".", "--output-format", "json", cwd=tmp_path)
    report = _json(done)
    assert done.returncode == 0
    (entry,) = report["files"]
    assert (entry["format"], entry["series"], entry["recognised"]) == ("prometheus", 0, [])
    (note,) = report["skipped"]
    assert note["path"] == "scrape.prom" and said in note["message"]
    assert "kafka_server_replicamanager_underreplicatedpartitions" in note["message"]  # a name that is read
    text_out = _analyze(".", cwd=tmp_path).stdout
    assert "metrics: scrape.prom: Prometheus exposition: 0 series read" in text_out
    assert "1 file(s) read of which nothing was judged (see stderr)" in text_out
    gate = _analyze(".", "--unread=error", cwd=tmp_path)
    assert gate.returncode == 2 and "no metric the rules read was found in it" in gate.stderr


@pytest.mark.parametrize("fmt", ["sarif", "junit", "github"])
def test_the_note_is_in_every_format(fmt: str, tmp_path: Path) -> None:
    (tmp_path / "scrape.prom").write_text(JMX_CASE_UNREAD)
    assert "no metric the rules read was found in it" in _analyze(".", "--output-format", fmt, cwd=tmp_path).stdout


@pytest.mark.parametrize(
    ("text", "series", "dialect"),
    [(STRIMZI_SCRAPE, 2, "strimzi-jmx-exporter"), (JMX_DEFAULT, 2, "jmx-exporter-default"),
     (JMX_CASE, 2, "jmx-exporter-default-jmx-case"), (MICROMETER, 2, "micrometer-kafka-client-metrics")],
)  # fmt: skip
def test_a_file_read_says_its_dialects_and_series(text: str, series: int, dialect: str, tmp_path: Path) -> None:
    (tmp_path / "scrape.prom").write_text(text)
    report = _json(_analyze("scrape.prom", "--output-format", "json", cwd=tmp_path))
    (entry,) = report["files"]
    assert entry["series"] == series and dialect in entry["recognised"]
    assert report["skipped"] == []
    out = _analyze("scrape.prom", cwd=tmp_path).stdout
    assert "metrics: scrape.prom: Prometheus exposition, " in out and dialect in out and f"{series} series read" in out


def test_the_exporters_default_names_are_read_by_the_beans_name() -> None:
    from advisor.metrics import exposition, vocabulary
    from advisor.metrics.inputs import Capture
    from advisor.metrics.observe import observe, wanted

    text = JMX_CASE + 'kafka_network_RequestMetrics_99thPercentile{name="TotalTimeMs",request="Produce",} 41.0\n'
    samples = list(exposition.parse(text.splitlines(), "msk.prom", wanted()))
    observations, problems = observe([Capture("msk.prom", None, samples, True)])
    assert problems == []
    urp = observations.of(vocabulary.UNDER_REPLICATED.mbean)
    assert [(s.reading, s.labels, s.points[0].value) for s in urp] == [("value", (), 2.0)]
    (p99,) = observations.of(vocabulary.REQUEST_TOTAL_TIME.mbean)
    assert (p99.reading, p99.labels) == ("quantile", (("quantile", "0.99"), ("request", "Produce")))


@pytest.mark.parametrize(("text", "said"), [(PYTHON_REPR, "json.dumps(producer.metrics())"),
                                            (JAVA_TO_STRING, "printed with toString()")])  # fmt: skip
def test_client_metrics_in_a_shape_no_reader_takes_are_refused_named_and_said_walked(
    text: str, said: str, tmp_path: Path
) -> None:
    assert sniff.kind(text) is None and said in (sniff.near_miss(text) or "")
    (tmp_path / "metrics.txt").write_text(text)
    named = _analyze("metrics.txt", cwd=tmp_path)
    assert named.returncode == 2 and "metrics.txt:1: not read: " in named.stderr and said in named.stderr
    passed: list[Problem] = []
    assert split_inputs([str(tmp_path)], passed=passed)[0] == []
    (note,) = passed
    assert note.kafka and said in note.message
    walked = _json(_analyze(".", "--output-format", "json", cwd=tmp_path))
    said_there = [entry for entry in walked["skipped"] if entry["path"].endswith("metrics.txt")]
    assert len(said_there) == 1 and said in said_there[0]["message"]


# librdkafka's statistics as versions before 0.11.5 write them (src/rdkafka.c of v0.9.0 to v0.11.4:
# no client_id; `name` is the handle's), with our own numbers.
OLD_STATISTICS = {
    "name": "rdkafka#producer-1", "type": "producer", "ts": 5093941029, "time": 1733390000, "replyq": 0,
    "msg_cnt": 98000, "msg_max": 100000, "simple_cnt": 0,
    "brokers": {"kafka-1:9092/1": {"name": "kafka-1:9092/1", "nodeid": 1, "state": "UP", "outbuf_cnt": 0,
                                  "tx": 1200, "txretries": 4, "rtt": {"min": 900, "max": 41000, "avg": 2300,
                                                                      "sum": 2760000, "cnt": 1200}}},
    "topics": {},
}  # fmt: skip


def test_librdkafka_statistics_before_client_id_are_read_by_the_handle_name() -> None:
    text = json.dumps(OLD_STATISTICS)
    assert clients.kind_of(text) == "librdkafka"
    samples = clients.read_lines([text], "stats.json", "librdkafka", 1 << 20, 10_000)
    assert samples and {s.client for s in samples} == {"rdkafka#producer-1"}
    assert any(s.written.startswith("brokers.") and "rtt" in s.written for s in samples)
