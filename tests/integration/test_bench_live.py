"""`kafka-advisor bench` on the real test cluster, kept short: Kafka's own ProducerPerformance from
the Maven jars, the defaults against the throughput profile's settings, interleaved after a
warm-up; its topic deleted afterwards; the cluster's credentials never printed. The long
comparison (the ≥ 2× goal) is tools/bench_producer.py, its figures in docs/performance.md."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import fetch_kafka  # tools/, on the path through tests/conftest.py
import pytest
from confluent_kafka.admin import AdminClient
from testbed import KafkaTestCluster

pytestmark = pytest.mark.kafka
SECRET = "bench-secret-never-shown"


def test_a_short_bench_compares_both_sides_and_leaves_no_topic(kafka_cluster: KafkaTestCluster, tmp_path: Path) -> None:
    libs = fetch_kafka.classpath(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION))
    security = tmp_path / "client.properties"
    security.write_text(f"client.id=bench-test\nsasl.password={SECRET}\n")  # unused over PLAINTEXT: never printed
    command = [sys.executable, "-m", "advisor", "bench", "--bootstrap-server", kafka_cluster.bootstrap_servers,
               "--classpath", libs, "--goal", "throughput", "--message-bytes", "200", "--rate-mb-s", "20",
               "--records", "20000", "--rounds", "2", "--command-config", str(security),
               "--output-format", "json"]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert SECRET not in result.stdout + result.stderr
    outcome = json.loads(result.stdout)
    assert len(outcome["before"]["runs"]) == len(outcome["after"]["runs"]) == 2
    assert all(run["records"] == 20000 for side in ("before", "after") for run in outcome[side]["runs"])
    assert outcome["after"]["settings"]["linger.ms"] != outcome["before"]["settings"].get("linger.ms")
    assert {outcome[side]["settings"]["acks"] for side in ("before", "after")} == {"all"}  # equal durability
    assert outcome["ratios"]["mib_per_second"] > 0
    # the producer's own metrics say why: the tuned side's batches are fuller
    assert outcome["after"]["metrics"]["batch-size-avg"] > outcome["before"]["metrics"]["batch-size-avg"], outcome
    assert "run 12/12" in result.stderr  # producers: two warm-ups, then A B A B; the consumers the same
    consumer = outcome["consumer"]
    assert len(consumer["before"]["runs"]) == len(consumer["after"]["runs"]) == 2
    assert consumer["after"]["settings"]["fetch.min.bytes"] != consumer["before"]["settings"].get("fetch.min.bytes")
    assert all(run["records"] >= 20000 for side in ("before", "after") for run in consumer[side]["runs"])
    assert SECRET not in json.dumps(consumer)
    topics = AdminClient({"bootstrap.servers": kafka_cluster.bootstrap_servers}).list_topics(timeout=30).topics
    assert outcome["topic"] not in topics and not [t for t in topics if t.startswith("kafka-advisor-bench-")]


def test_verify_scrapes_endpoints_given_for_a_side(kafka_cluster: KafkaTestCluster) -> None:
    """Endpoints in --before/--after are scraped --samples times: the brokers' bytes in per message
    is measured on both sides (earlier tests produced to the cluster), within its noise."""
    url = next(iter(kafka_cluster.metrics_urls.values()))
    command = [sys.executable, "-m", "advisor", "verify", "--before", url, "--after", url, "--samples", "2",
               "--interval", "1", "--expect", "compression.type", "--output-format", "json"]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    verdicts = {v["metric"]: v for v in json.loads(result.stdout)["verdicts"]}
    assert verdicts["bytes in per message"]["verdict"] in ("inconclusive", "not measured"), verdicts


def test_a_payload_file_makes_compression_measurable(kafka_cluster: KafkaTestCluster, tmp_path: Path) -> None:
    """Records from a file of the user's own shape (JSON events, repetitive as real ones are): the
    throughput profile's lz4 shrinks them to well under half, measured by the producer itself
    (compression-rate-avg), while the uncompressed side stays at 1 — what the tool's random
    letters could never show."""
    libs = fetch_kafka.classpath(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION))
    events = tmp_path / "events.jsonl"
    events.write_text("".join(f'{{"event": "page_view", "user": "user-{n % 97:04d}", "page": "/catalog/item/{n}", '
                              f'"referrer": "https://shop.example/search?q=item", "ms": {n * 37 % 1000}}}\n'
                              for n in range(500)))  # fmt: skip
    command = [sys.executable, "-m", "advisor", "bench", "--bootstrap-server", kafka_cluster.bootstrap_servers,
               "--classpath", libs, "--goal", "throughput", "--rate-mb-s", "20", "--payload-file", str(events),
               "--records", "20000", "--rounds", "1", "--no-consumer", "--output-format", "json"]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout)
    assert outcome["payload_file"] == {"name": "events.jsonl", "records": 500}
    assert outcome["record_size"] == 133  # their average in bytes, not the profile's size
    assert "page_view" not in result.stdout + result.stderr  # the records themselves are never shown
    assert outcome["after"]["settings"]["compression.type"] != "none"
    assert outcome["before"]["metrics"]["compression-rate-avg"] == pytest.approx(1.0)
    assert outcome["after"]["metrics"]["compression-rate-avg"] < 0.5, outcome["after"]["metrics"]


def test_the_runs_bench_saves_get_the_same_verdict_from_verify(kafka_cluster: KafkaTestCluster, tmp_path: Path) -> None:
    """bench --save-runs keeps each counted producer run as the real tool printed it; verify reads
    those files (the summary and --print-metrics) and judges records a second as bench did."""
    libs = fetch_kafka.classpath(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION))
    runs = tmp_path / "runs"
    runs.mkdir()
    command = [sys.executable, "-m", "advisor", "bench", "--bootstrap-server", kafka_cluster.bootstrap_servers,
               "--classpath", libs, "--goal", "throughput", "--message-bytes", "200", "--rate-mb-s", "20",
               "--records", "20000", "--rounds", "2", "--no-consumer", "--save-runs", str(runs),
               "--output-format", "json"]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout)
    saved = sorted(p.name for p in runs.iterdir())
    assert saved == ["after-1.txt", "after-2.txt", "before-1.txt", "before-2.txt"], saved
    verify = [sys.executable, "-m", "advisor", "verify", "--before", str(runs / "before-1.txt"),
              str(runs / "before-2.txt"), "--after", str(runs / "after-1.txt"), str(runs / "after-2.txt"),
              "--expect", "linger.ms", "--output-format", "json"]  # fmt: skip
    judged = subprocess.run(verify, capture_output=True, text=True, timeout=120)
    assert judged.returncode in (0, 1), judged.stderr
    verdicts = {v["metric"]: v for v in json.loads(judged.stdout)["verdicts"]}
    rate = verdicts["records a second (perf test)"]
    assert rate["verdict"] == outcome["verdicts"]["records_per_second"], (rate, outcome["verdicts"])
    assert rate["before"]["median"] == pytest.approx(outcome["before"]["records_per_second"]["median"])
    assert verdicts["batch size (bytes)"]["before"]["samples"] == 2  # the printed metrics, one sample a run
