"""Client metrics from real clients on the real test cluster, judged by `analyze`.

A busy producer with linger.ms 0 sends batches of about one record: KM020 fires, from a real Java
producer's metrics dump (tests/java/ClientMetricsDump.java, the documented format) and from real
librdkafka statistics (confluent-kafka's stats callback). With linger.ms 100 the same load fills
its batches — the metric that proves the change — and the rule is quiet.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import fetch_kafka  # tools/, on the path through tests/conftest.py
import pytest
from confluent_kafka import Producer
from oracles import compile_java
from testbed import KafkaTestCluster, new_topic, wait_until

from advisor.metrics import clients
from advisor.metrics import files as metric_files
from advisor.report import session

pytestmark = pytest.mark.kafka

REPO_ROOT = Path(__file__).resolve().parents[2]
RATE = 2000  # records a second offered
# Batches count as nearly empty below 20 records here (the rule's default is 2): a linger-0
# producer's batches hold one to eight records depending on how busy the sender (and the machine)
# is, a linger-100 one's about 200 at this rate. A producer counts as busy from 100 records a
# second (the rule's default is 500): librdkafka with one record a request transmits 1,100-1,300 of
# the 2,000 offered on an idle test machine, and less on a loaded one — what it transmits is the rate.
PARAMS = {"KM020": {"threshold": ("20", 0), "sustained_seconds": ("1", 0), "rate": ("100", 0)}}


@pytest.fixture(scope="module")
def topic(kafka_cluster_handle: KafkaTestCluster) -> Iterator[str]:
    with new_topic(kafka_cluster_handle, "client-metrics") as name:
        yield name


@pytest.fixture(scope="module")
def java_dump(tmp_path_factory: pytest.TempPathFactory) -> str:
    libs = fetch_kafka.classpath(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION))
    out = tmp_path_factory.mktemp("dump")
    compile_java(REPO_ROOT / "tests" / "java" / "ClientMetricsDump.java", out, libs)
    return f"{out}:{libs}"


def judge(path: Path) -> tuple[list, list]:  # type: ignore[type-arg]
    """(KM020 findings, records per batch observed) of one metrics file."""
    report = session.run(session.RunRequest(paths=(), params=PARAMS, metric_files=(path,)))  # fmt: skip
    assert not report.problems, report.problems
    text = path.read_text()
    kind = metric_files.metric_format(path)
    samples = clients.read(text, str(path), kind.split(":", 1)[1])  # type: ignore[union-attr]
    per_batch = [s.value for s in samples if s.metric is clients.RECORDS_PER_BATCH]
    return [f for f in report.findings if f.rule == "KM020"], per_batch


def run_java(classpath: str, cluster: KafkaTestCluster, topic: str, linger: str, folder: Path, *extra: str,
             size: int = 100, seconds: int = 6) -> Path:  # fmt: skip
    """A real Java producer at RATE records/s of `size` bytes for `seconds`, its metrics every 2 s;
    `extra` settings (key=value) beside linger.ms."""
    name = "-".join([f"linger-{linger}", *(setting.replace("=", "-") for setting in extra)])
    command = ["java", "-cp", classpath, "ClientMetricsDump", cluster.bootstrap_servers, topic, str(RATE), str(size),
               str(seconds), "2000", f"linger.ms={linger}", f"client.id=dump-{name}", *extra]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    path = folder / f"java-{name}.json"
    path.write_text(result.stdout)
    return path


def run_librdkafka(cluster: KafkaTestCluster, topic: str, linger: str, folder: Path) -> Path:
    emitted: list[str] = []
    producer = Producer({"bootstrap.servers": cluster.bootstrap_servers, "linger.ms": linger,
                         "client.id": f"rdkafka-linger-{linger}", "statistics.interval.ms": 1000,
                         "stats_cb": emitted.append})  # fmt: skip
    producer.list_topics(topic, timeout=30)  # metadata before the clock starts, as the Java producer does
    emitted.clear()
    started, sent = time.monotonic(), 0
    while time.monotonic() - started < 6:
        due = int((time.monotonic() - started) * RATE)
        while sent < due:
            producer.produce(topic, b"x" * 100)
            sent += 1
        producer.poll(0.001)
    assert producer.flush(30) == 0
    path = folder / f"librdkafka-linger-{linger}.json"
    path.write_text("\n".join(emitted) + "\n")
    return path


@pytest.mark.parametrize("library", ["java", "librdkafka"])
def test_a_busy_producer_with_linger_zero_sends_nearly_empty_batches(
    kafka_cluster: KafkaTestCluster, topic: str, java_dump: str, library: str, tmp_path: Path
) -> None:
    def run(linger: str) -> Path:
        if library == "java":
            return run_java(java_dump, kafka_cluster, topic, linger, tmp_path)
        return run_librdkafka(kafka_cluster, topic, linger, tmp_path)

    before = run("0")
    eager, eager_batches = judge(before)
    assert eager, f"no KM020 with linger.ms 0; records per batch seen: {eager_batches}"
    assert all(f.client == library and f.component == "producer" for f in eager)
    after = run("100")
    patient, patient_batches = judge(after)
    assert patient == []
    # The number that proves the change: batches several times fuller with linger.ms 100.
    assert max(patient_batches) > 5 * max(min(eager_batches), 1), (eager_batches, patient_batches)
    # ... and `verify` says so from the two captures, beyond their noise; the reverse change regresses.
    verdicts = _verify(before, after)
    assert verdicts["records per batch"] == "improved", verdicts
    assert _verify(after, before)["records per batch"] == "regressed"


def _verify(before: Path, after: Path) -> dict[str, str]:
    import json
    import sys

    result = subprocess.run([sys.executable, "-m", "advisor", "verify", "--before", str(before), "--after", str(after),
                             "--expect", "linger.ms", "--output-format", "json"], capture_output=True, text=True,
                            timeout=120)  # fmt: skip
    assert result.returncode in (0, 1), result.stderr
    return {v["metric"]: v["verdict"] for v in json.loads(result.stdout)["verdicts"]}


def consume_while_producing(cluster: KafkaTestCluster, pause: float, folder: Path) -> Path:
    """A producer writing 400 records/s for 10 s beside a librdkafka consumer that takes one record
    every `pause` seconds, committing as it goes; the consumer's statistics, one emit a line."""
    with new_topic(cluster, "lag") as name:
        return _consume_while_producing(cluster, name, pause, folder)


def _consume_while_producing(cluster: KafkaTestCluster, name: str, pause: float, folder: Path) -> Path:
    import threading

    from confluent_kafka import Consumer

    stop = threading.Event()

    def produce() -> None:
        producer = Producer({"bootstrap.servers": cluster.bootstrap_servers, "linger.ms": 5})
        started, sent = time.monotonic(), 0
        while not stop.is_set():
            while sent < int((time.monotonic() - started) * 400):
                producer.produce(name, b"y" * 100)
                sent += 1
            producer.poll(0.01)
        producer.flush(30)

    emitted: list[str] = []
    consumer = Consumer({"bootstrap.servers": cluster.bootstrap_servers, "group.id": f"{name}-group",
                         "client.id": f"reader-{pause}", "auto.offset.reset": "earliest",
                         "auto.commit.interval.ms": 500, "statistics.interval.ms": 1000,
                         "stats_cb": emitted.append})  # fmt: skip
    writer = threading.Thread(target=produce)
    writer.start()
    try:
        consumer.subscribe([name])
        deadline = time.monotonic() + 12
        while time.monotonic() < deadline:
            consumer.poll(0.5)
            if pause:
                time.sleep(pause)
    finally:
        stop.set()
        writer.join(60)
        consumer.close()
    path = folder / f"consumer-{pause}.json"
    path.write_text("\n".join(emitted) + "\n")
    return path


def test_a_slow_consumer_s_lag_rises_and_a_fast_one_s_does_not(kafka_cluster: KafkaTestCluster, tmp_path: Path) -> None:
    lag_params = {"KM030": {"threshold": ("500", 0), "sustained_seconds": ("5", 0)}}

    def rising(path: Path) -> list:  # type: ignore[type-arg]
        request = session.RunRequest(paths=(), params=lag_params, metric_files=(path,))
        report = session.run(request)
        assert not report.problems, report.problems
        return [f for f in report.findings if f.rule == "KM030"]

    slow = rising(consume_while_producing(kafka_cluster, 0.02, tmp_path))  # ~40 records/s against 400
    assert slow and all(f.client == "librdkafka" and "consumer_lag" in f.keys[0] for f in slow), slow
    assert rising(consume_while_producing(kafka_cluster, 0.0, tmp_path)) == []


def test_a_group_that_members_keep_joining_and_leaving_fires_the_rebalance_rule(
    kafka_cluster: KafkaTestCluster, tmp_path: Path
) -> None:
    """A librdkafka consumer stays in its group while a second member joins and leaves three times:
    each join and each leave is a rebalance in the first one's statistics (cgrp.rebalance_cnt), and
    KM032 fires; a consumer alone in its group goes through its first join only and stays quiet."""
    import threading

    from confluent_kafka import Consumer

    with new_topic(kafka_cluster, "rebalance", partitions=4) as topic:
        params = {"KM032": {"threshold": ("2", 0)}}

        def member(group: str, client: str, emitted: list[str] | None = None) -> Consumer:
            settings = {"bootstrap.servers": kafka_cluster.bootstrap_servers, "group.id": group, "client.id": client,
                        "auto.offset.reset": "earliest", "session.timeout.ms": 10000}  # fmt: skip
            if emitted is not None:
                settings |= {"statistics.interval.ms": 1000, "stats_cb": emitted.append}
            consumer = Consumer(settings)
            consumer.subscribe([topic])
            return consumer

        def churn(stop: threading.Event) -> None:
            for number in range(3):
                visitor = member(f"{topic}-busy", f"visitor-{number}")
                deadline = time.monotonic() + 15
                while not visitor.assignment() and time.monotonic() < deadline and not stop.is_set():
                    visitor.poll(0.2)
                visitor.close()  # leaves the group: another rebalance
                time.sleep(2)

        def run(group: str, client: str, with_churn: bool) -> Path:
            emitted: list[str] = []
            consumer = member(group, client, emitted)
            stop = threading.Event()
            visitor = threading.Thread(target=churn, args=(stop,)) if with_churn else None
            try:
                deadline = time.monotonic() + 6
                while time.monotonic() < deadline:
                    consumer.poll(0.2)  # joined first
                if visitor is not None:
                    visitor.start()
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline and (visitor is None or visitor.is_alive()):
                    consumer.poll(0.2)
                for _ in range(10):
                    consumer.poll(0.2)  # the last rebalance into the statistics
            finally:
                stop.set()
                if visitor is not None:
                    visitor.join(60)
                consumer.close()
            path = tmp_path / f"{client}.json"
            path.write_text("\n".join(emitted) + "\n")
            return path

        def rebalancing(path: Path) -> list:  # type: ignore[type-arg]
            request = session.RunRequest(paths=(), params=params, metric_files=(path,))
            report = session.run(request)
            assert not report.problems, report.problems
            return [f for f in report.findings if f.rule == "KM032"]

        busy = rebalancing(run(f"{topic}-busy", "steady-member", with_churn=True))
        assert busy and busy[0].client == "librdkafka" and busy[0].keys[0] == "cgrp.rebalance_cnt", busy
        assert rebalancing(run(f"{topic}-alone", "lone-member", with_churn=False)) == []


def test_a_busy_producer_without_a_codec_sends_uncompressed_and_lz4_shrinks_it(
    kafka_cluster: KafkaTestCluster, topic: str, java_dump: str, tmp_path: Path
) -> None:
    """A real Java producer sending 2,000 records/s of 1 kB: without a codec compression-rate-avg is
    1 and KM026 fires; with lz4 the same (very compressible) records shrink and it is quiet."""
    params = {"KM026": {"rate": ("500000", 0), "sustained_seconds": ("1", 0)}}

    def judged(path: Path) -> tuple[list, list[float]]:  # type: ignore[type-arg]
        request = session.RunRequest(paths=(), params=params, metric_files=(path,))
        report = session.run(request)
        assert not report.problems, report.problems
        samples = clients.read(path.read_text(), str(path), "java")
        ratios = [s.value for s in samples if s.metric is clients.COMPRESSION_RATE_AVG and not s.labels]
        return [f for f in report.findings if f.rule == "KM026"], ratios

    plain, plain_ratios = judged(run_java(java_dump, kafka_cluster, topic, "5", tmp_path, size=1000))
    assert plain and "uncompressed" in plain[0].message, (plain, plain_ratios)
    packed, packed_ratios = judged(run_java(java_dump, kafka_cluster, topic, "5", tmp_path, "compression.type=lz4",
                                            size=1000))  # fmt: skip
    assert packed == [], packed
    assert max(packed_ratios) < 0.5 <= min(plain_ratios), (plain_ratios, packed_ratios)  # the number that proves it


def test_a_producer_faster_than_its_buffer_drains_waits_and_fires_the_buffer_rules(
    kafka_cluster: KafkaTestCluster, topic: str, java_dump: str, tmp_path: Path
) -> None:
    """Records produced faster than the client can hand them to the brokers fill its buffer: a real
    Java producer with 64 kB of buffer.memory waits in send() (KM021), a real librdkafka producer
    with a 2,000-message queue holding its batches 2 s keeps the queue full (KM022). With the
    default buffers and a moderate rate both stay quiet."""
    params = {"KM021": {"sustained_seconds": ("1", 0)}, "KM022": {"sustained_seconds": ("1", 0)}}

    def fired(path: Path, rule: str) -> list:  # type: ignore[type-arg]
        request = session.RunRequest(paths=(), params=params, metric_files=(path,))
        report = session.run(request)
        assert not report.problems, report.problems
        return [f for f in report.findings if f.rule == rule]

    cramped = run_java(java_dump, kafka_cluster, topic, "100", tmp_path, "buffer.memory=65536", size=1000)
    waits = fired(cramped, "KM021")
    assert waits and waits[0].client == "java", waits
    assert fired(run_java(java_dump, kafka_cluster, topic, "5", tmp_path), "KM021") == []

    def librdkafka(queue: int, linger: int, name: str) -> Path:
        emitted: list[str] = []
        producer = Producer({"bootstrap.servers": kafka_cluster.bootstrap_servers, "client.id": name,
                             "queue.buffering.max.messages": queue, "linger.ms": linger,
                             "statistics.interval.ms": 500, "stats_cb": emitted.append})  # fmt: skip
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                producer.produce(topic, b"q" * 100)
            except BufferError:  # QUEUE_FULL: what the rule warns of
                producer.poll(0.05)
                continue
            if queue > 10_000:
                time.sleep(0.0005)  # a moderate pace for the roomy queue
            producer.poll(0)
        producer.flush(30)
        path = tmp_path / f"{name}.json"
        path.write_text("\n".join(emitted) + "\n")
        return path

    full = fired(librdkafka(2000, 2000, "cramped-queue"), "KM022")
    assert full and full[0].client == "librdkafka" and "msg_cnt" in full[0].keys[0], full
    assert fired(librdkafka(100_000, 5, "roomy-queue"), "KM022") == []


def test_a_producer_held_back_by_a_quota_waits_in_its_queue_and_for_its_answers(
    kafka_cluster: KafkaTestCluster, topic: str, java_dump: str, tmp_path: Path
) -> None:
    """Producers at fifty times their 20 kB/s client quota: the brokers throttle them, and stop
    reading their connections meanwhile, so the requests already sent wait too. A real Java producer's
    records wait in its queue far past linger.ms (KM025) and its round trips grow (KM027), both naming
    the throttle the client reports; records still queued when delivery.timeout.ms passes fail (KM023).
    A real librdkafka producer's rtt grows the same way. The same load without a quota fires none."""
    import uuid

    params = {rule: {"sustained_seconds": ("1", 0)} for rule in ("KM025", "KM027")}
    libs = fetch_kafka.classpath(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION))
    held = {library: f"held-{library}-{uuid.uuid4().hex[:6]}" for library in ("java", "librdkafka")}
    for client in held.values():
        command = ["java", "-cp", libs, "org.apache.kafka.tools.ConfigCommand", "--bootstrap-server",
                   kafka_cluster.bootstrap_servers, "--alter", "--entity-type", "clients", "--entity-name", client,
                   "--add-config", "producer_byte_rate=20480"]  # fmt: skip
        subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)

    def rules(path: Path) -> dict[str, list]:  # type: ignore[type-arg]
        request = session.RunRequest(paths=(), params=params, metric_files=(path,))
        report = session.run(request)
        assert not report.problems, report.problems
        found: dict[str, list] = {}  # type: ignore[type-arg]
        for finding in report.findings:
            found.setdefault(finding.rule, []).append(finding)
        return found

    timeouts = ("request.timeout.ms=5000", "delivery.timeout.ms=10000")  # fail what is stuck, quickly
    # Ten seconds of load: the throttle, computed over the quota's window, grows by about 100 ms a
    # second (round trips here 140, 310, 560 ms at 2, 4, 6 s), so the round trip stays above the
    # rule's 200 ms over several samples even on a loaded machine, not only after the flush.
    java = rules(run_java(java_dump, kafka_cluster, topic, "5", tmp_path, f"client.id={held['java']}", *timeouts,
                          size=1000, seconds=10))  # fmt: skip
    assert {"KM025", "KM027", "KM023"} <= set(java), java
    for rule in ("KM025", "KM027"):
        (finding,) = java[rule]
        assert finding.client == "java" and "a broker quota throttled it" in finding.message, finding.message

    emitted: list[str] = []
    producer = Producer({"bootstrap.servers": kafka_cluster.bootstrap_servers, "client.id": held["librdkafka"],
                         "message.timeout.ms": 10000, "statistics.interval.ms": 1000,
                         "stats_cb": emitted.append})  # fmt: skip
    started = time.monotonic()
    while time.monotonic() - started < 6:
        with contextlib.suppress(BufferError):  # a full queue: keep offering
            producer.produce(topic, b"r" * 1000)
        producer.poll(0.001)
    under_load = list(emitted)  # what a capture taken during the load holds (after it, the wait drains)
    producer.flush(20)
    rdkafka = tmp_path / "librdkafka-held.json"
    rdkafka.write_text("\n".join(under_load) + "\n")
    slow = rules(rdkafka).get("KM027", [])
    assert slow and all(".rtt.avg" in f.keys[0] and "throttled" in f.message for f in slow), slow

    free = rules(run_java(java_dump, kafka_cluster, topic, "5", tmp_path, *timeouts))
    assert not {"KM025", "KM027", "KM023"} & set(free), free


def test_kafka_python_reports_its_queue_time_in_seconds_and_it_is_read_as_ms(
    kafka_cluster: KafkaTestCluster, topic: str, tmp_path: Path
) -> None:
    """kafka-python's record-queue-time-avg says ms but records seconds (sender.py: drained - created,
    both time.time()). A real kafka-python producer lingering 300 ms over a trickle of records: its
    own figure is about 0.3, the one analyze reads about 300 ms, and records that wait only for their
    linger are no KM025 finding."""
    import json

    from kafka import KafkaProducer

    producer = KafkaProducer(bootstrap_servers=kafka_cluster.bootstrap_servers, linger_ms=300,
                             client_id="kafka-python-linger")  # fmt: skip
    for _ in range(20):
        producer.send(topic, b"k" * 100)
        time.sleep(0.1)
    producer.flush(30)
    metrics = producer.metrics()
    raw_metrics = producer.metrics(raw=True)
    producer.close(10)
    raw = metrics["producer-metrics"]["record-queue-time-avg"]
    assert 0.1 < raw < 2.0, raw  # seconds, whatever its description says
    plain = tmp_path / "kafka-python.json"
    plain.write_text(json.dumps(metrics, default=str))
    (read,) = [s.value for s in clients.read(plain.read_text(), str(plain), "kafka-python")
               if s.metric is clients.RECORD_QUEUE_TIME_AVG]  # fmt: skip
    assert read == raw * 1000
    # The documented dump of metrics(raw=True), with the producer's configuration beside it: the
    # queue time is its linger, not a wait past it.
    dump = tmp_path / "kafka-python-raw.json"
    dump.write_text(json.dumps({"format": "kafka-client-metrics", "library": "kafka-python",
                                "time_ms": int(time.time() * 1000), "client_type": "producer",
                                "client_id": "kafka-python-linger",
                                "metrics": [{"group": n.group, "name": n.name, "tags": n.tags, "value": m.value()}
                                            for n, m in raw_metrics.items()]}, default=str))  # fmt: skip
    config = tmp_path / "producer.properties"
    config.write_text(
        f"bootstrap.servers={kafka_cluster.bootstrap_servers}\nclient.id=kafka-python-linger\nlinger.ms=300\nacks=all\n"
    )
    report = session.run(session.RunRequest(paths=(config,), metric_files=(dump,)))
    assert not report.problems, report.problems
    queued = [s for s in clients.read(dump.read_text(), str(dump), "java") if s.metric is clients.RECORD_QUEUE_TIME_AVG]
    assert queued and 100 < queued[0].value < 2000, queued
    assert "KM025" not in {f.rule for f in report.findings}, report.findings


@pytest.fixture(scope="module")
def java_consumer_dump(java_dump: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    """ConsumerMetricsDump compiled beside ClientMetricsDump, whose dump format it uses."""
    out = tmp_path_factory.mktemp("consumer-dump")
    compile_java(REPO_ROOT / "tests" / "java" / "ConsumerMetricsDump.java", out, java_dump)
    return f"{out}:{java_dump}"


@pytest.mark.parametrize(("pause_ms", "fires"), [(4300, True), (200, False)])
def test_a_consumer_slow_between_polls_nears_its_max_poll_interval(
    kafka_cluster: KafkaTestCluster, topic: str, java_consumer_dump: str, tmp_path: Path, pause_ms: int, fires: bool
) -> None:
    """A real Java consumer pausing 4.3 s after each poll under max.poll.interval.ms 5000 (its
    configuration file given beside the dump, found by client.id): its own time-between-poll-max
    passes 80% of the limit and KM031 says so with the setting from the file; pausing 200 ms, quiet."""
    client = f"ledger-{pause_ms}"
    settings = {"client.id": client, "group.id": f"group-{client}-{time.time_ns()}", "max.poll.interval.ms": "5000",
                "auto.offset.reset": "earliest"}  # fmt: skip
    config = tmp_path / "consumer.properties"
    config.write_text("".join(f"{key}={value}\n" for key, value in settings.items()))
    command = ["java", "-cp", java_consumer_dump, "ConsumerMetricsDump", kafka_cluster.bootstrap_servers, topic, "3",
               str(pause_ms), *(f"{key}={value}" for key, value in settings.items())]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=180, check=True)
    dump = tmp_path / "consumer-metrics.json"
    dump.write_text(result.stdout)
    report = session.run(session.RunRequest(paths=(config,), metric_files=(dump,)))
    assert not report.problems, report.problems
    slow = [f for f in report.findings if f.rule == "KM031"]
    assert bool(slow) == fires, [(f.rule, f.message) for f in report.findings]
    if fires:
        (finding,) = slow
        assert finding.component == "consumer" and finding.client == "java"
        assert f"max.poll.interval.ms 5000 (client.id {client} in {config.name})" in finding.message, finding.message


def _in_sync(cluster: KafkaTestCluster, topic: str) -> int:
    from confluent_kafka.admin import AdminClient

    metadata = AdminClient({"bootstrap.servers": cluster.bootstrap_servers}).list_topics(topic, timeout=30)
    return len(metadata.topics[topic].partitions[0].isrs)


RDKAFKA_RATE = 200  # records a second the librdkafka producer of the retry test offers


def _librdkafka_stats(cluster: KafkaTestCluster, topic: str, folder: Path) -> Path:
    """A real librdkafka producer (acks=all, its default) at 200 records/s for 6 s, statistics every
    second, unsent records failed after 10 s."""
    emitted: list[str] = []
    producer = Producer({"bootstrap.servers": cluster.bootstrap_servers, "client.id": "rdkafka-retrying",
                         "message.timeout.ms": 10000, "request.timeout.ms": 3000, "statistics.interval.ms": 1000,
                         "stats_cb": emitted.append})  # fmt: skip
    started, sent = time.monotonic(), 0
    while time.monotonic() - started < 6:
        while sent < int((time.monotonic() - started) * RDKAFKA_RATE):
            producer.produce(topic, b"z" * 100)
            sent += 1
        producer.poll(0.01)
    producer.flush(20)
    path = folder / "librdkafka-stats.json"
    path.write_text("\n".join(emitted) + "\n")
    return path


def test_a_producer_refused_for_too_few_in_sync_replicas_retries(
    kafka_cluster: KafkaTestCluster, java_dump: str, tmp_path: Path
) -> None:
    """A topic of RF 3 with min.insync.replicas 3: with one node stopped every acks=all send is
    answered NOT_ENOUGH_REPLICAS, a retriable error, and the clients retry until their delivery
    timeout. A real Java producer's own record-retry-total against record-send-total fires KM024;
    with every node up the same producer retries nothing and the rule is quiet. A real librdkafka
    producer puts those messages back in its queue and sends them in new requests: its txmsgs
    outgrows the messages produced while its request retries (txretries, KM028's count) stay 0 —
    what KM028's rationale says it does not see."""
    params = {rule: {"sustained_seconds": ("1", 0)} for rule in ("KM024", "KM028")}
    settings = ("acks=all", "delivery.timeout.ms=10000", "request.timeout.ms=3000")

    def retried(folder: Path, topic: str) -> tuple[dict[str, list], list[dict]]:  # type: ignore[type-arg]
        folder.mkdir()
        stats = _librdkafka_stats(kafka_cluster, topic, folder)
        found: dict[str, list] = {}  # type: ignore[type-arg]
        for dump in (run_java(java_dump, kafka_cluster, topic, "0", folder, *settings), stats):
            report = session.run(session.RunRequest(paths=(), params=params, metric_files=(dump,)))  # fmt: skip
            assert not report.problems, report.problems
            for finding in report.findings:
                if finding.rule in params:
                    found.setdefault(finding.rule, []).append(finding)
        return found, [json.loads(line) for line in stats.read_text().splitlines() if line.strip()]

    with new_topic(kafka_cluster, "retrying", config={"min.insync.replicas": "3"}) as topic:
        healthy, _ = retried(tmp_path / "healthy", topic)
        assert healthy == {}
        with kafka_cluster.node_stopped(kafka_cluster.node_ids[-1]):
            wait_until(lambda: _in_sync(kafka_cluster, topic) == 2, 60, "the stopped node to leave the ISR")
            refused, emits = retried(tmp_path / "refused", topic)
    assert list(refused) == ["KM024"] and len(refused["KM024"]) == 1, refused
    assert refused["KM024"][0].client == "java" and refused["KM024"][0].component == "producer"
    last = emits[-1]
    produced = RDKAFKA_RATE * 6
    assert last["txmsgs"] > 2 * produced, last["txmsgs"]  # each message sent again and again
    assert sum(broker["txretries"] for broker in last["brokers"].values()) == 0
