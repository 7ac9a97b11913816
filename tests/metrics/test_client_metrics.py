"""Client metrics read from each client's own output: the Java/kafka-python dump, librdkafka
statistics, kafka-python's metrics(); what a rule reads from each, and errors for the rest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.metrics import clients, sniff
from advisor.report.session import analyze_files


def java_dump(time_ms: int, **values: float | None) -> str:
    metrics = [{"group": "producer-metrics", "name": name.replace("_", "-"), "tags": {"client-id": "orders"},
                "value": value} for name, value in values.items()]  # fmt: skip
    return json.dumps({"format": "kafka-client-metrics", "time_ms": time_ms, "client_type": "producer",
                       "client_id": "orders", "metrics": metrics})  # fmt: skip


def test_a_java_dump_gives_the_metrics_rules_read_and_records_per_batch() -> None:
    text = java_dump(1000, batch_size_avg=3000.0, record_size_avg=150.0, record_send_total=40.0, io_ratio=0.2,
                     bufferpool_wait_ratio=None)  # fmt: skip
    assert sniff.kind(text) == "client-metrics:java"
    samples = {s.metric.id: s for s in clients.read(text, "dump.json", "java")}
    assert set(samples) == {"producer-metrics/batch-size-avg", "producer-metrics/record-size-avg",
                            "producer-metrics/record-send-total", "producer/records-per-batch"}  # fmt: skip
    per_batch = samples["producer/records-per-batch"]
    assert (per_batch.value, per_batch.client, per_batch.timestamp_ms, per_batch.library) == (20.0, "orders", 1000,
                                                                                               "java")  # fmt: skip


def test_librdkafka_statistics_read_its_windows_only_when_they_counted_something() -> None:
    stats = {"name": "rdkafka#producer-1", "client_id": "edge", "type": "producer", "ts": 1, "time": 1764561600,
             "msg_cnt": 90000, "msg_max": 100000, "msg_size": 10, "msg_size_max": 1000, "txmsgs": 500,
             "brokers": {"k1:9092/1": {"int_latency": {"avg": 2500, "cnt": 10}, "rtt": {"avg": 1800, "cnt": 3},
                                       "throttle": {"avg": 40, "cnt": 3}},
                         "GroupCoordinator": {"int_latency": {"avg": 0, "cnt": 0}, "rtt": {"avg": 0, "cnt": 0}}},
             "topics": {"t": {"batchcnt": {"avg": 3, "cnt": 4}, "batchsize": {"avg": 0, "cnt": 0}}}}  # fmt: skip
    text = json.dumps(stats)
    assert sniff.kind(text) == "client-metrics:librdkafka"
    found = {(s.metric.id, s.written): s.value for s in clients.read(text, "stats.json", "librdkafka")}
    assert found == {
        ("librdkafka/queue-fill", "msg_cnt/msg_max"): 0.9,
        ("librdkafka/queue-fill", "msg_size/msg_size_max"): 0.01,
        ("producer-metrics/record-send-total", "txmsgs"): 500.0,
        ("producer-metrics/record-queue-time-avg", "brokers.k1:9092/1.int_latency.avg"): 2.5,  # µs read as ms
        ("producer-metrics/request-latency-avg", "brokers.k1:9092/1.rtt.avg"): 1.8,  # µs read as ms
        ("producer-metrics/produce-throttle-time-avg", "brokers.k1:9092/1.throttle.avg"): 40.0,  # already ms
        ("producer/records-per-batch", "topics.t.batchcnt.avg"): 3.0,
    }


def test_kafka_python_s_plain_metrics_dict_is_read_with_its_tags_gone() -> None:
    values = {"batch-size-avg": 800.0, "record-size-avg": 100.0}
    text = json.dumps({"producer-metrics": values, "kafka-metrics-count": {}})
    assert sniff.kind(text) == "client-metrics:kafka-python"
    samples = clients.read(text, "kp.json", "kafka-python")
    assert {(s.metric.id, s.value, s.client) for s in samples} >= {("producer/records-per-batch", 8.0, "kp.json")}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"format": "kafka-client-metrics", "metrics": 3}', 'needs "metrics"'),
        ('{"format": "kafka-client-metrics", "metrics": [1]}', "each metric is an object"),
        ('{"format": "kafka-client-metrics", "metrics": []}\n{oops\n', "2: not JSON"),
    ],
)
def test_malformed_dumps_are_path_line_errors(text: str, says: str, tmp_path: Path) -> None:
    path = tmp_path / "dump.json"
    path.write_text(text)
    report = analyze_files([path])
    assert report.exit_code == 2 and any(says in str(p) for p in report.problems), report.problems


def test_a_dump_repeated_without_times_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "kp.json"
    path.write_text(json.dumps({"producer-metrics": {"batch-size-avg": 1.0}}) + "\n" +
                    json.dumps({"producer-metrics": {"batch-size-avg": 2.0}}) + "\n")  # fmt: skip
    report = analyze_files([path])
    assert any("appears again without a time" in p.message and p.line == 2 for p in report.problems), report.problems


def test_lint_leaves_metrics_to_analyze(tmp_path: Path) -> None:
    from advisor.report.session import RunRequest, run

    path = tmp_path / "dump.json"
    path.write_text(java_dump(1, batch_size_avg=1.0))
    report = run(RunRequest(paths=(path,)))
    assert [p.message for p in report.problems] == ["client metrics, not configuration: kafka-advisor analyze reads it"]
    walked = run(RunRequest(paths=(tmp_path,)))
    assert not walked.problems and "kafka-advisor analyze reads it" in str(walked.skipped)


def test_librdkafka_consumer_lag_is_read_per_partition_and_unknown_lag_is_not() -> None:
    stats = {"name": "rdkafka#consumer-1", "client_id": "reader", "type": "consumer", "ts": 1, "time": 1764561600,
             "topics": {"t": {"partitions": {"0": {"consumer_lag": 42}, "1": {"consumer_lag": -1},
                                             "-1": {"consumer_lag": 7}}}}}  # fmt: skip
    samples = clients.read(json.dumps(stats), "stats.json", "librdkafka")
    assert [(s.metric.id, s.labels, s.value, s.written) for s in samples] == [
        ("consumer/records-lag", (("partition", "0"), ("topic", "t")), 42.0, "topics.t.partitions.0.consumer_lag")
    ]


def test_a_stream_is_read_a_line_at_a_time_and_every_input_is_bounded(tmp_path: Path) -> None:
    from advisor.report.session import RunRequest, run
    from advisor.sources.limits import Limits

    def analyze(path: Path, limits: Limits):  # type: ignore[no-untyped-def]
        return run(RunRequest(paths=(), limits=limits, metric_files=(path,)))

    lines = [java_dump(1000 * i, batch_size_avg=150.0, record_size_avg=150.0) for i in range(40)]
    stream = tmp_path / "stream.json"
    stream.write_text("\n".join(lines) + "\n")  # ~8 KB of JSON lines
    assert analyze(stream, Limits(file_bytes=1000)).problems == []  # streamed: the file-size bound is not it
    assert "limits.metric-bytes" in str(analyze(stream, Limits(metric_bytes=4000)).problems)
    assert "limits.metric-points" in str(analyze(stream, Limits(metric_points=10)).problems)
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps(json.loads(lines[0]), indent=2))  # one document over many lines: read whole
    assert analyze(pretty, Limits()).problems == []
    assert "one JSON document larger than 100" in str(analyze(pretty, Limits(file_bytes=100)).problems)


def test_every_java_metric_name_read_is_one_the_kafka_clients_jar_defines() -> None:
    """The Java names the readers map (group and metric name) are string constants of the real
    kafka-clients jar: a renamed metric fails here, not silently in the field."""
    import zipfile

    import fetch_kafka  # tools/, on the path through tests/conftest.py

    jar = next(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION).glob("kafka-clients-*.jar"))
    with zipfile.ZipFile(jar) as archive:
        constants = b"".join(archive.read(name) for name in archive.namelist()
                             if name.startswith("org/apache/kafka/clients/") and name.endswith(".class"))  # fmt: skip
    java = {key for key in clients.JAVA_NAMES if key.split("/", 1)[0].endswith("-metrics")}
    assert "consumer-coordinator-metrics/rebalance-total" in java

    # Exactly the name, as a class file's constant pool holds it (tag 1, two-byte length, the bytes):
    # "records-lag" must not pass on the strength of "records-lag-max". (A group is built from a prefix,
    # "producer" or "consumer", and "-metrics" or "-coordinator-metrics": not a constant.)
    def constant(text: str) -> bytes:
        return b"\x01" + len(text.encode()).to_bytes(2, "big") + text.encode()

    missing = sorted(key for key in java if constant(key.split("/", 1)[1]) not in constants)
    assert missing == []
