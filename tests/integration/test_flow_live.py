"""The flow-control view from real clients on the real test cluster.

A producer writes steadily; a librdkafka consumer (confluent-kafka, statistics every second) that
reads slower falls behind: its flow is diverging, not draining, its lag in seconds rises, and KM040
fires (and KM041, with the brokers' retention said to be short). One that reads faster than the
producer writes drains a backlog: converging, with a finite drain time that its lag then bears out.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Producer
from testbed import KafkaTestCluster, new_topic

from advisor.analysis import flow
from advisor.report import analysis, session

pytestmark = pytest.mark.kafka

RATE = 300  # records a second the producer writes
PARAMS = {"KM040": {"threshold": ("3", 0), "sustained_seconds": ("3", 0)},
          "KM041": {"threshold": ("1", 0), "sustained_seconds": ("3", 0)}}  # fmt: skip


def produce(cluster: KafkaTestCluster, topic: str, stop: threading.Event, backlog: int = 0) -> None:
    producer = Producer({"bootstrap.servers": cluster.bootstrap_servers, "linger.ms": 5})
    for _ in range(backlog):
        producer.produce(topic, b"b" * 100)
        producer.poll(0)
    producer.flush(30)
    started, sent = time.monotonic(), 0
    while not stop.is_set():
        while sent < int((time.monotonic() - started) * RATE):
            producer.produce(topic, b"y" * 100)
            sent += 1
        producer.poll(0.01)
    producer.flush(30)


def consume(cluster: KafkaTestCluster, topic: str, per_second: int, seconds: float, folder: Path, name: str) -> Path:
    """Reads about `per_second` records a second for `seconds`, committing every 500 ms; returns
    the consumer's statistics, one emit a line."""
    emitted: list[str] = []
    consumer = Consumer({"bootstrap.servers": cluster.bootstrap_servers, "group.id": f"{topic}-{name}",
                         "client.id": name, "auto.offset.reset": "earliest", "auto.commit.interval.ms": 500,
                         "statistics.interval.ms": 1000, "stats_cb": emitted.append})  # fmt: skip
    consumer.subscribe([topic])
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            batch = consumer.consume(max(1, per_second // 10), 0.1)  # about a tenth of a second's worth
            if batch:
                time.sleep(0.1)
    finally:
        consumer.close()
    path = folder / f"{name}.json"
    path.write_text("\n".join(emitted) + "\n")
    return path


def analyze(path: Path, configs: tuple[Path, ...] = ()) -> tuple[flow.PartitionFlow, set[str]]:
    request = analysis.AnalyzeRequest(run=session.RunRequest(paths=configs, params=PARAMS), metric_files=(path,))
    report = analysis.run(request)
    assert not report.problems, report.problems
    assert report.flow is not None and report.flow["groups"]
    captures = [analysis._read_metric_file(path, analysis.wanted(), request.run.limits)]
    view = flow.view(analysis.observe(captures)[0])
    (row,) = [r for r in view.partitions if r.lag is not None]
    return row, {f.rule for f in report.findings}


def test_a_slow_consumer_diverges_and_its_lag_in_seconds_rises(kafka_cluster: KafkaTestCluster, tmp_path: Path) -> None:
    with new_topic(kafka_cluster, "flow") as topic:
        stop = threading.Event()
        writer = threading.Thread(target=produce, args=(kafka_cluster, topic, stop))
        writer.start()
        try:
            stats = consume(kafka_cluster, topic, RATE // 5, 14, tmp_path, "slow-reader")
        finally:
            stop.set()
            writer.join(60)
    row, rules = analyze(stats)
    assert row.trend == "diverging" and not row.draining, row
    assert row.rate_in == pytest.approx(RATE, rel=0.35) and row.rate_out < RATE / 2, (row.rate_in, row.rate_out)
    ages = [seconds for _, seconds in row.lag_time_points]
    assert ages[-1] > ages[len(ages) // 2] > 0 and ages[-1] > 3, ages  # older and older
    assert "KM040" in rules
    short = tmp_path / "server.properties"
    short.write_text("process.roles=broker\nnode.id=1\nlog.retention.ms=60000\n")
    assert "KM041" in analyze(stats, (short,))[1]  # a minute's retention: lost within the hour
    assert "KM041" not in rules  # the default week: far off


def test_a_fast_consumer_drains_its_backlog(kafka_cluster: KafkaTestCluster, tmp_path: Path) -> None:
    with new_topic(kafka_cluster, "flow") as topic:
        stop = threading.Event()
        writer = threading.Thread(target=produce, args=(kafka_cluster, topic, stop, 6000))
        writer.start()
        try:
            time.sleep(2)  # the backlog written first
            stats = consume(kafka_cluster, topic, RATE * 3, 8, tmp_path, "fast-reader")
        finally:
            stop.set()
            writer.join(60)
    row, rules = analyze(stats)
    assert row.trend in ("converging", "caught-up"), row
    assert row.draining and row.rate_out > row.rate_in, (row.rate_in, row.rate_out)  # type: ignore[operator]
    if row.trend == "converging":  # the time it gives is what the lag then does: backlog / (out - in)
        assert row.drain_seconds == pytest.approx(row.lag / (row.rate_out - row.rate_in), rel=0.5)  # type: ignore[operator]
    assert "KM041" not in rules
