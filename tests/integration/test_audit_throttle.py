"""KO121 on the real cluster: a reassignment throttled below the rate a producer writes does not
finish while that lasts (what Kafka's documentation says and the rule rests on); `audit` with the
brokers' exporter endpoints finds the throttle rates that hold it, and `lint --bootstrap-server`
finds the script's --throttle; the same move with a throttle above the rate finishes."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient
from kafka.admin import KafkaAdminClient, NewTopic
from testbed import KafkaTestCluster, reassign_partitions, wait_for_topic, wait_until

pytestmark = pytest.mark.kafka

REPO = Path(__file__).resolve().parents[2]
SLOW, FAST = 200_000, 50_000_000  # bytes/s: below and far above the ~1 MB/s the writer sends


def advisor(*args: str) -> tuple[int, dict]:
    result = subprocess.run([sys.executable, "-m", "advisor", *args, "--output-format", "json"],
                            capture_output=True, text=True, cwd=REPO, timeout=180)  # fmt: skip
    assert result.stdout, result.stderr
    return result.returncode, json.loads(result.stdout)


def ko121(report: dict) -> set[str]:
    """Where KO121's findings are: a live resource (`broker:2`) or a file's name and line."""
    return {loc["path"].split("/", 3)[-1] if loc["path"].startswith("live://") else
            f"{Path(loc['path']).name}:{loc['line']}"
            for f in report["findings"] if f["rule"] == "KO121" for loc in f["locations"]}  # fmt: skip


def not_judged(report: dict) -> list[str]:
    return [n["message"] for n in report["skipped"] if n["message"].startswith("KO121 not judged")]


def test_a_throttle_below_the_write_rate_holds_a_move_until_it_is_raised(
    kafka_cluster: KafkaTestCluster, tmp_path: Path
) -> None:
    bootstrap = kafka_cluster.bootstrap_servers
    topic = f"live-slow-{uuid.uuid4().hex[:8]}"
    admin = KafkaAdminClient(bootstrap_servers=bootstrap.split(","))
    admin.create_topics([NewTopic(topic, -1, -1, replica_assignments={0: [1]})])
    confluent = AdminClient({"bootstrap.servers": bootstrap})
    wait_for_topic(confluent, topic, 1)
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 20})
    for _ in range(600):  # 3 MB already there: the copy alone takes 15 s at the slow throttle
        producer.produce(topic, b"s" * 5000, partition=0)
    producer.flush(30)
    stop = threading.Event()

    def write() -> None:  # about 1 MB/s for as long as the test runs
        while not stop.is_set():
            for _ in range(20):
                producer.produce(topic, b"w" * 5000, partition=0)
            producer.poll(0)
            time.sleep(0.1)
        producer.flush(30)

    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"version": 1, "partitions": [{"topic": topic, "partition": 0, "replicas": [1, 2]}]}))

    def reassign(*arguments: str) -> str:
        return reassign_partitions(bootstrap, plan, *arguments)

    def moving() -> bool:
        return bool(admin.list_partition_reassignments())

    metrics = [a for url in kafka_cluster.metrics_urls.values() for a in ("--metrics", url)]
    measured = [*metrics, "--samples", "2", "--interval", "4", "--select", "KO121"]
    writer = threading.Thread(target=write)
    writer.start()
    try:
        time.sleep(3)  # the writer's rate settles before the move starts
        reassign("--execute", "--throttle", str(SLOW))
        time.sleep(20)  # long enough to copy the 3 MB at the throttle, were it not for the writes
        isr = list(confluent.list_topics(topic, timeout=10).topics[topic].partitions[0].isrs)
        assert moving() and 2 not in isr, isr  # Kafka: the new replica has not caught up

        _, audited = advisor("audit", "--bootstrap-server", bootstrap, *measured)
        assert {"broker:1", "broker:2"} <= ko121(audited), audited["findings"]
        messages = " ".join(f["message"] for f in audited["findings"] if f["rule"] == "KO121")
        assert "follower.replication.throttled.rate=200000 on broker 2 (200.0 kB/s)" in messages, messages
        assert "leader.replication.throttled.rate=200000 on broker 1" in messages, messages

        script = tmp_path / "move.sh"
        script.write_text(f"kafka-reassign-partitions.sh --bootstrap-server {bootstrap} "
                          f"--reassignment-json-file plan.json --execute --throttle {SLOW}\n")  # fmt: skip
        _, linted = advisor("lint", str(plan), str(script), "--bootstrap-server", bootstrap, *measured)
        assert "move.sh:1" in ko121(linted), linted["findings"]
        script.write_text(script.read_text().replace(str(SLOW), str(FAST)))
        _, quiet = advisor("lint", str(plan), str(script), "--bootstrap-server", bootstrap, *measured)
        assert "move.sh:1" not in ko121(quiet) and not not_judged(quiet), quiet  # judged, and held

        reassign("--execute", "--additional", "--throttle", str(FAST))  # the same move, a throttle above the rate
        wait_until(lambda: not moving(), 90, "the move to finish once its throttle is above the write rate")
    finally:
        stop.set()
        writer.join(60)
        if moving():
            reassign("--cancel")
        reassign("--verify")  # removes the throttles once nothing moves
        admin.delete_topics([topic])
        admin.close()
