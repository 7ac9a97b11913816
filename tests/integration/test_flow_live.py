"""The flow-control view from real clients on the real test cluster.

A producer writes steadily; a librdkafka consumer (confluent-kafka, statistics every second) that
reads slower falls behind: its flow is diverging, not draining, its lag in seconds rises, and KM040
fires (and KM041, with the brokers' retention said to be short). One that reads faster than the
producer writes drains a backlog: converging, with a finite drain time that its lag then bears out.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Producer
from testbed import KafkaTestCluster, new_topic

from advisor.analysis import flow
from advisor.metrics import files as metric_files
from advisor.metrics.observe import observe, wanted
from advisor.report import session

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
    request = session.RunRequest(paths=configs, params=PARAMS, metric_files=(path,))
    report = session.run(request)
    assert not report.problems, report.problems
    assert report.flow is not None and report.flow["groups"]
    captures = [metric_files.read_file(path, wanted(), request.limits)]
    view = flow.view(observe(captures)[0])
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


@pytest.fixture(scope="module")
def node_exporter_url() -> Iterator[str]:
    """The real node_exporter (built from its Go module: tools/fetch_node_exporter.py) serving this
    host's filesystems (its filesystem collector alone)."""
    import subprocess
    import urllib.request

    import fetch_node_exporter
    import kafka_cluster as cluster_tool
    from testbed import wait_until

    port = cluster_tool.port_base() + 90  # the cluster uses base .. base+40, standalone brokers +60, dialects +80
    process = subprocess.Popen([str(fetch_node_exporter.node_exporter()), f"--web.listen-address=127.0.0.1:{port}",
                                "--collector.disable-defaults", "--collector.filesystem"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    url = f"http://127.0.0.1:{port}/metrics"

    def serving() -> bool:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return b"node_filesystem_avail_bytes" in response.read()
        except OSError:
            return False

    try:
        wait_until(serving, 60, "node_exporter to serve filesystem metrics")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


def _mountpoint(path: Path) -> str:
    while not os.path.ismount(path):
        path = path.parent
    return str(path)


def _disk_findings(url: str) -> list:  # type: ignore[type-arg]
    params = {"KM042": {"threshold": ("0.5", 0), "sustained_seconds": ("1", 0)}}  # full within half an hour
    request = session.RunRequest(paths=(), params=params, endpoints=(url,), samples=4,
                                      interval=1.0)  # fmt: skip
    report = session.run(request)
    assert not report.problems, report.problems
    return [f for f in report.findings if f.rule == "KM042"]


@pytest.mark.parametrize("writing", [True, False])
def test_a_filesystem_filling_fast_is_said_to_fill_within_the_threshold(
    node_exporter_url: str, tmp_path: Path, writing: bool
) -> None:
    """While a writer allocates 64 MB every 200 ms in the test's folder, the real free space of its
    filesystem falls at ~320 MB/s, and KM042 says the filesystem fills within half an hour, naming
    its mountpoint; with nothing written there, the same capture is quiet."""
    stop = threading.Event()

    def allocate() -> None:
        number = 0
        while not stop.wait(0.2):
            with (tmp_path / f"fill-{number}").open("wb") as stream:
                os.posix_fallocate(stream.fileno(), 0, 64 << 20)
            number += 1

    writer = threading.Thread(target=allocate)
    if writing:
        writer.start()
    try:
        found = _disk_findings(node_exporter_url)
    finally:
        stop.set()
        if writing:
            writer.join(30)
        for file in tmp_path.glob("fill-*"):
            file.unlink()  # the space back at once
    if not writing:
        assert found == [], [f.message for f in found]
        return
    mountpoint = _mountpoint(tmp_path)
    assert [f for f in found if f" {mountpoint}: full in about" in f.message], [f.message for f in found]
