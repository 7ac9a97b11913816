"""`analyze --prometheus URL` and saved API results, against a real Prometheus server
(Debian's package, tools/fetch_prometheus.py) scraping the real test cluster's exporters.

A steady cluster gives no finding; with a node stopped, the range query shows the live nodes'
under-replicated partitions over time and KM001 fires at each such node (its `instance`), from
the server and from the same response saved to a file alike.
"""

from __future__ import annotations

import json
import subprocess
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import fetch_prometheus  # tools/, on the path through tests/conftest.py
import kafka_cluster
import pytest
from confluent_kafka.admin import AdminClient, NewTopic
from testbed import SETTLED, KafkaTestCluster, settled, wait_for_topic, wait_until

from advisor.report import session

pytestmark = pytest.mark.kafka

URP = "kafka_server_replicamanager_underreplicatedpartitions"
FAST = {rule: {"sustained_seconds": ("2", 0)} for rule in ("KM001", "KM002", "KM003", "KM004", "KM006")}
FAST["KM010"] = {"threshold": ("60000", 0)}  # the operator's budget; this test bed's p99 is no target


@pytest.fixture(scope="module")
def prometheus(kafka_cluster_handle: KafkaTestCluster, tmp_path_factory) -> Iterator[str]:  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("prometheus")
    targets = [url.removeprefix("http://").removesuffix("/metrics") for url in
               kafka_cluster_handle.metrics_urls.values()]  # fmt: skip
    config = folder / "prometheus.yml"
    config.write_text(
        # A test bed scrape is ~0.5 MB and takes ~0.5 s fresh, more with every topic earlier tests made:
        # a 1 s timeout loses whole scrapes on a busy machine. Range queries step every 1 s regardless.
        "global: {scrape_interval: 3s, scrape_timeout: 3s}\n"
        f"scrape_configs:\n  - job_name: kafka\n    static_configs:\n      - targets: {json.dumps(targets)}\n"
    )
    port = kafka_cluster.port_base() + 90
    log = (folder / "prometheus.log").open("w")
    process = subprocess.Popen(
        [str(fetch_prometheus.prometheus_binary()), f"--config.file={config}", f"--storage.tsdb.path={folder / 'data'}",
         f"--web.listen-address=127.0.0.1:{port}", "--log.level=warn"],
        stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: len(_query(url, URP)) == len(targets), 120, "Prometheus to scrape every node")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def _get(url: str) -> dict:  # type: ignore[type-arg]
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return json.loads(response.read())
    except OSError:
        return {}


def _query(base: str, query: str) -> list:  # type: ignore[type-arg]
    answer = _get(f"{base}/api/v1/query?{urllib.parse.urlencode({'query': query})}")
    return answer.get("data", {}).get("result", []) if answer.get("status") == "success" else []


def analyze_server(url: str, window: float) -> list:  # type: ignore[type-arg]
    request = session.RunRequest(paths=(), params=FAST, prometheus=(url,),
                                      window=window, step=1.0)  # fmt: skip
    report = session.run(request)
    assert not report.problems, report.problems
    return report.findings


def test_a_steady_cluster_seen_through_prometheus_gives_no_finding(
    kafka_cluster: KafkaTestCluster, prometheus: str
) -> None:
    wait_until(lambda: settled(kafka_cluster), 120, SETTLED)
    time.sleep(7)  # a few scrapes per series, all at rest
    assert analyze_server(prometheus, 6) == []


def test_under_replication_through_prometheus_fires_per_instance_from_server_and_file(
    kafka_cluster: KafkaTestCluster, prometheus: str, tmp_path: Path
) -> None:
    admin = AdminClient({"bootstrap.servers": kafka_cluster.bootstrap_servers})
    topic = f"prometheus-{uuid.uuid4().hex[:8]}"
    admin.create_topics([NewTopic(topic, num_partitions=6, replication_factor=3)], request_timeout=30)[topic].result(60)
    wait_for_topic(admin, topic, 6)
    stopped = kafka_cluster.node_ids[-1]
    try:
        with kafka_cluster.node_stopped(stopped):
            wait_until(lambda: any(float(r["value"][1]) > 0 for r in _query(prometheus, URP)), 90, "URP in Prometheus")
            time.sleep(8)  # scrapes over more than the 2 s window, in Prometheus's history
            leading = {r["metric"]["instance"] for r in _query(prometheus, URP) if float(r["value"][1]) > 0}
            fired = {(f.rule, f.subject) for f in analyze_server(prometheus, 20)}
            assert {("KM001", instance) for instance in leading} <= fired, fired
            # The same answer saved to a file (curl > range.json) reads the same way, at its lines.
            end = time.time()
            range_query = urllib.parse.urlencode({"query": URP, "start": end - 20, "end": end, "step": 1})
            saved = tmp_path / "range.json"
            saved.write_text(json.dumps(_get(f"{prometheus}/api/v1/query_range?{range_query}"), indent=2))
            report = session.analyze_files([saved], params=FAST)
            assert not report.problems, report.problems
            from_file = {(f.rule, f.subject) for f in report.findings}
            assert {("KM001", instance) for instance in leading} <= from_file
            assert all(f.location.line > 1 for f in report.findings)  # the line of the value judged
    finally:
        admin.delete_topics([topic], request_timeout=30)[topic].result(timeout=60)
