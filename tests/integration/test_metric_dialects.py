"""Proof of the metric vocabulary's aliases: the real JMX exporter (standalone, over a test-bed
node's remote JMX port) exports the real broker under each dialect's rules
(tools/jmx-exporter/dialects/), at exporter 0.20.0 and 1.0.1, and `analyze` must find every
metric the rules read, attribute every name to the dialect that wrote it, read the same values,
and reach the same verdicts whichever dialect produced the scrape.
"""

from __future__ import annotations

import subprocess
import time
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import fetch_kafka  # tools/, on the path through tests/conftest.py
import kafka_cluster
import pytest
from testbed import KafkaTestCluster, wait_until

from advisor.metrics import exposition, vocabulary
from advisor.metrics.inputs import Capture
from advisor.metrics.observe import observe
from advisor.report import session

pytestmark = pytest.mark.kafka

DIALECT_DIR = Path(__file__).resolve().parents[2] / "tools" / "jmx-exporter" / "dialects"
DIALECTS = {
    vocabulary.JMX_EXAMPLE: "jmx-exporter-example.yaml",
    vocabulary.STRIMZI: "strimzi-jmx-exporter.yaml",
    vocabulary.CONFLUENT: "confluent-jmx-monitoring-stacks.yaml",
    vocabulary.JMX_DEFAULT: "jmx-exporter-default.yaml",
    vocabulary.JMX_DEFAULT_CASE: "jmx-exporter-default-jmx-case.yaml",
}
DEFAULT_FORMAT = (vocabulary.JMX_DEFAULT, vocabulary.JMX_DEFAULT_CASE)  # no rules: names by the bean's `name` key
VERSIONS = ("0.20.0", "1.0.1")
URP = "kafka_server_replicamanager_underreplicatedpartitions"
GAUGES = [m for m in vocabulary.METRICS if m.kind == "gauge"]
FAST = {rule: {"sustained_seconds": ("1", 0)} for rule in ("KM001", "KM002", "KM003", "KM004", "KM006")}


def comparable(verdicts: dict[tuple[str, str], set[str]]) -> dict[tuple[str, str], frozenset[str]]:
    """Each dialect's verdicts on the rules whose metric every dialect here exports (Strimzi's rules
    leave out request histograms and quotas: KM010 and KM011 cannot be judged from its scrapes)."""
    from advisor.rules.registry import load_rules

    shared = set()
    for rule in load_rules():
        watch = rule.definition.watch
        if watch is None or watch.metric not in {m.mbean for m in vocabulary.METRICS}:
            continue  # not a broker metric (client metrics come from the clients, in no dialect)
        dialects = vocabulary.dialects_of(vocabulary.by_mbean(watch.metric))
        if {d for d, _ in verdicts} <= dialects:
            shared.add(rule.definition.id)
    return {key: frozenset(rules & shared) for key, rules in verdicts.items()}


@contextmanager
def exporter(version: str, rules: Path, jmx_port: int, port: int, folder: Path) -> Iterator[str]:
    """The standalone JMX exporter serving one node under `rules`; its /metrics address."""
    config = folder / f"{rules.stem}-{version}.yaml"
    config.write_text(f"hostPort: 127.0.0.1:{jmx_port}\n" + rules.read_text())
    jar = fetch_kafka.artifact_jar(f"io.prometheus.jmx:jmx_prometheus_httpserver:{version}")
    log = (folder / f"{config.stem}.log").open("w")
    process = subprocess.Popen(["java", "-Xmx96m", "-jar", str(jar), f"127.0.0.1:{port}", str(config)],
                               stdout=log, stderr=subprocess.STDOUT)  # fmt: skip
    url = f"http://127.0.0.1:{port}/metrics"
    try:
        wait_until(lambda: _answers(url), 90, f"the {version} exporter on {rules.name}")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return "underreplicatedpartitions" in response.read().decode().lower()  # every dialect's
    except OSError:
        return False


def scrape(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read().decode()


def _quota_client(cluster: KafkaTestCluster) -> None:
    """A client under a (generous) produce quota that has produced to every node: the brokers then
    register its quota metrics, which only exist where quotas are in use."""
    from confluent_kafka import Producer

    client = f"dialects-{uuid.uuid4().hex[:8]}"
    libs = fetch_kafka.classpath(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION))
    command = ["java", "-cp", libs, "org.apache.kafka.tools.ConfigCommand", "--bootstrap-server",
               cluster.bootstrap_servers, "--alter", "--entity-type", "clients", "--entity-name", client,
               "--add-config", "producer_byte_rate=10485760"]  # fmt: skip
    subprocess.run(command, capture_output=True, timeout=120, check=True)
    producer = Producer({"bootstrap.servers": cluster.bootstrap_servers, "client.id": client})
    for partition in range(6):
        producer.produce(_spread(cluster), b"x", partition=partition)
    assert producer.flush(60) == 0


_SPREAD: list[str] = []


def _spread(cluster: KafkaTestCluster) -> str:
    """A topic of six partitions, RF 3, led by every node (made once)."""
    if not _SPREAD:
        from confluent_kafka.admin import AdminClient, NewTopic
        from testbed import wait_for_topic

        admin = AdminClient({"bootstrap.servers": cluster.bootstrap_servers})
        name = f"dialects-{uuid.uuid4().hex[:8]}"
        admin.create_topics([NewTopic(name, num_partitions=6, replication_factor=3)], request_timeout=30)[name].result(
            60
        )
        wait_for_topic(admin, name, 6)
        _SPREAD.append(name)
    return _SPREAD[0]


@pytest.fixture(scope="module")
def dialect_urls(kafka_cluster_handle: KafkaTestCluster, tmp_path_factory) -> Iterator[dict]:  # type: ignore[no-untyped-def]
    """(dialect, exporter version) → a /metrics address serving node 1 under that dialect."""
    _quota_client(kafka_cluster_handle)
    node = kafka_cluster_handle.state.nodes[0]
    folder = tmp_path_factory.mktemp("dialects")
    base = kafka_cluster.port_base() + 80  # the cluster uses base .. base+40, the standalone broker +60
    with ExitStack() as stack:
        urls = {(vocabulary.TEST_BED, "1.0.1"): node.metrics_url}  # the node's own agent
        for offset, (dialect, version) in enumerate((d, v) for d in DIALECTS for v in VERSIONS):
            rules = DIALECT_DIR / DIALECTS[dialect]
            urls[(dialect, version)] = stack.enter_context(exporter(version, rules, node.jmx_port, base + offset,
                                                                    folder))  # fmt: skip
        yield urls


def _names(text: str) -> set[str]:
    return {sample.name for sample in exposition.parse(text.splitlines(), "scrape")}


CASES = [*((d, v) for d in DIALECTS for v in VERSIONS), (vocabulary.TEST_BED, "1.0.1")]  # the agent: one version


@pytest.mark.parametrize(("dialect", "version"), CASES)
def test_every_metric_is_found_and_every_name_belongs_to_its_dialect(dialect_urls, dialect, version) -> None:  # type: ignore[no-untyped-def]
    text = scrape(dialect_urls[(dialect, version)])
    names = _names(text)
    resolved = names & set(vocabulary.ALIASES)
    strangers = sorted(name for name in resolved if dialect not in vocabulary.ALIASES[name].dialects)
    assert strangers == [], f"names the vocabulary gives to other dialects: {strangers}"
    observations, problems = observe([Capture("scrape", None, list(
        exposition.parse(text.splitlines(), "scrape")), True)])  # fmt: skip
    lines = text.splitlines()
    assert problems == [], [(p.message, [n + 1 for n, line in enumerate(lines) if line.startswith(
        p.message.split(" ", 1)[0])], lines[p.line - 1]) for p in problems]  # fmt: skip
    found = {series.metric for series in observations.every()}
    expected = {m.mbean for m in vocabulary.METRICS if dialect in vocabulary.dialects_of(m)}
    assert expected - found == set(), f"not found under {dialect} {version}"
    if dialect in DEFAULT_FORMAT:  # every name the vocabulary derives for the default format is one it writes
        written = {(s.name, dict(s.labels).get("name", "")) for s in exposition.parse(lines, "scrape")}
        derived = {key for key, found in vocabulary.DEFAULT_NAMES.items() if found.dialect == dialect}
        missing = sorted(key for key in derived if key not in written and vocabulary.DEFAULT_NAMES[key].metric.mbean
                         in found)  # fmt: skip
        assert missing == [], f"derived but not written under {dialect} {version}: {missing}"
    # Exporter 1.x writes a counter named ..._count as ..._count_total, 0.x as ..._count (the test
    # bed types its _count untyped, Confluent writes no _count).
    counts = {name for name in resolved if name.endswith(("_count", "_count_total"))}
    if dialect in (vocabulary.JMX_EXAMPLE, vocabulary.STRIMZI):
        assert counts and all(name.endswith("_count_total") == (version == "1.0.1") for name in counts), counts


def test_every_dialect_reads_the_same_gauges_and_reaches_the_same_verdicts(dialect_urls) -> None:  # type: ignore[no-untyped-def]
    values: dict[tuple[str, str], dict[str, float]] = {}
    verdicts: dict[tuple[str, str], set[str]] = {}
    for key, url in dialect_urls.items():
        text = scrape(url)
        observations, _ = observe([Capture(url, None, list(
            exposition.parse(text.splitlines(), url)), True)])  # fmt: skip
        values[key] = {s.metric: s.points[-1].value for s in observations.every() if s.reading == "value"
                       and s.metric in {m.mbean for m in GAUGES} and not s.labels}  # fmt: skip
        report = session.run(session.RunRequest(paths=(), params=FAST, endpoints=(url,)))
        verdicts[key] = {f.rule for f in report.findings}
    stable = [vocabulary.UNDER_REPLICATED, vocabulary.UNDER_MIN_ISR, vocabulary.OFFLINE_PARTITIONS,
              vocabulary.ACTIVE_CONTROLLERS, vocabulary.OFFLINE_LOG_DIRS]  # fmt: skip
    reference = values[(vocabulary.TEST_BED, "1.0.1")]
    for key, read in values.items():
        assert {m.mbean: read.get(m.mbean) for m in stable} == {m.mbean: reference.get(m.mbean) for m in stable}, key
    assert len(set(comparable(verdicts).values())) == 1, verdicts


def test_a_stopped_node_fires_the_same_rules_under_every_dialect(kafka_cluster_handle, dialect_urls) -> None:  # type: ignore[no-untyped-def]
    cluster = kafka_cluster_handle
    stopped = cluster.node_ids[-1]
    first = cluster.node_ids[0]
    with cluster.node_stopped(stopped):
        wait_until(lambda: cluster.metric(first, URP) > 0, 90, "node 1 to lead under-replicated partitions")
        time.sleep(2)  # every dialect's exporter reads the same, settled, state
        fired = {}
        for key, url in dialect_urls.items():
            request = session.RunRequest(paths=(), params=FAST, endpoints=(url,),
                                              samples=2, interval=1.0)  # fmt: skip
            fired[key] = {f.rule for f in session.run(request).findings}
        assert all("KM001" in rules for rules in fired.values()), fired
        assert len(set(comparable(fired).values())) == 1, fired
