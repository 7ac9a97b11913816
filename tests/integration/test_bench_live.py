"""`kafka-advisor bench` on the real test cluster, kept short: Kafka's own ProducerPerformance from
the Maven jars, the defaults against the throughput profile's settings, interleaved after a
warm-up; its topic deleted afterwards; the cluster's credentials never printed. The long
comparison is tools/bench_profiles.py, the proof table in docs/performance.md; its smoke is here."""

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
               "--records", "20000", "--rounds", "4", "--no-consumer", "--save-runs", str(runs),
               "--output-format", "json"]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout)
    saved = sorted(p.name for p in runs.iterdir())
    assert saved == [f"{side}-{n}.txt" for side in ("after", "before") for n in range(1, 5)], saved
    before, after = ([str(runs / f"{side}-{n}.txt") for n in range(1, 5)] for side in ("before", "after"))
    verify = [sys.executable, "-m", "advisor", "verify", "--before", *before, "--after", *after,
              "--expect", "linger.ms", "--output-format", "json"]  # fmt: skip
    judged = subprocess.run(verify, capture_output=True, text=True, timeout=120)
    assert judged.returncode in (0, 1), judged.stderr
    verdicts = {v["metric"]: v for v in json.loads(judged.stdout)["verdicts"]}
    rate = verdicts["records a second (perf test)"]
    assert rate["verdict"] == outcome["verdicts"]["records_per_second"], (rate, outcome["verdicts"])
    assert rate["before"]["median"] == pytest.approx(outcome["before"]["records_per_second"]["median"])
    assert verdicts["batch size (bytes)"]["before"]["samples"] == 4  # the printed metrics, one sample a run
    # four runs a side: the throughput profile's fuller batches are a verdict, not a guess
    assert verdicts["batch size (bytes)"]["verdict"] == "improved", verdicts["batch size (bytes)"]


def test_a_live_stream_shows_what_the_throughput_consumer_buys_and_costs(
    kafka_cluster: KafkaTestCluster, tmp_path: Path
) -> None:
    """The proof table's script, one short row (its smoke): besides the unbounded producer and the
    backlog read, a live stream at 3,000 records a second read by the Java consumer with each
    side's values, the producer the same on both sides. The throughput profile's fetch.min.bytes of
    1 MB is never reached at 600 kB/s over three brokers, so each fetch waits out fetch.max.wait.ms
    (500 ms): a fraction of the fetches a record, and end-to-end latency of hundreds of ms where the
    defaults answer at once."""
    script = Path(__file__).resolve().parents[2] / "tools" / "bench_profiles.py"
    result = subprocess.run([sys.executable, str(script), "--smoke", str(tmp_path), "--rate", "3000",
                             "--only", "throughput-consumer",
                             "--bootstrap-server", kafka_cluster.bootstrap_servers],
                            capture_output=True, text=True, timeout=900)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    row = json.loads((tmp_path / "proofs.json").read_text())["rows"][0]
    assert row["id"] == "throughput-consumer-200B" and row["live_rate"] == 3000
    assert row["consumer"]["fetch.min.bytes"] == "1000000" and row["producer"] == {}  # the consumer's doing alone
    figures = row["figures"]
    assert figures["live.records_per_second"]["before"] == pytest.approx(3000, rel=0.1)
    assert figures["live.fetches_per_1000_records"]["ratio"] < 0.5, figures["live.fetches_per_1000_records"]
    e2e = figures["live.e2e_p50_ms"]
    assert e2e["after"] > e2e["before"] + 100, e2e
    assert (
        figures["producer.records_per_second"]["before"] > 0 and figures["consumer.fetch_mib_per_second"]["after"] > 0
    )
    assert "### throughput-consumer-200B" in (tmp_path / "table.md").read_text()
