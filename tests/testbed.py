"""What tests get from the `kafka_cluster` fixture: addresses, metrics and node control.

The cluster itself is run by tools/kafka_cluster.py (a real Apache Kafka, not a mock).
"""

from __future__ import annotations

import re
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import kafka_cluster  # tools/, put on sys.path by conftest

_SAMPLE = re.compile(r"^(?P<name>[a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(?P<labels>[^}]*)\})?\s+(?P<value>\S+)")
_LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def parse_samples(text: str, name: str) -> list[tuple[dict[str, str], float]]:
    """Samples of one metric family from Prometheus text exposition (test helper)."""
    samples = []
    for line in text.splitlines():
        match = _SAMPLE.match(line)
        if match and match["name"] == name:
            labels = dict(_LABEL.findall(match["labels"] or ""))
            samples.append((labels, float(match["value"])))
    return samples


@dataclass
class KafkaTestCluster:
    state: kafka_cluster.ClusterState

    @property
    def bootstrap_servers(self) -> str:
        return self.state.bootstrap_servers

    @property
    def node_ids(self) -> list[int]:
        return [node.node_id for node in self.state.nodes]

    @property
    def metrics_urls(self) -> dict[int, str]:
        return {node.node_id: node.metrics_url for node in self.state.nodes}

    def bootstrap_without(self, node_id: int) -> str:
        return ",".join(node.bootstrap for node in self.state.nodes if node.node_id != node_id)

    def scrape(self, node_id: int) -> str:
        with urllib.request.urlopen(self.metrics_urls[node_id], timeout=15) as response:
            return response.read().decode()

    def metric(self, node_id: int, name: str) -> float:
        """Sum of all samples of metric `name` on one node (raises if absent)."""
        samples = parse_samples(self.scrape(node_id), name)
        if not samples:
            raise AssertionError(f"node {node_id} serves no {name}")
        return sum(value for _, value in samples)

    def stop_node(self, node_id: int) -> None:
        kafka_cluster.stop_node(node_id)
        self._reload()

    def start_node(self, node_id: int) -> None:
        kafka_cluster.start_node(node_id)
        self._reload()

    @contextmanager
    def node_stopped(self, node_id: int) -> Iterator[None]:
        """Stop one node for a block; it is started again however the block ends."""
        self.stop_node(node_id)
        try:
            yield
        finally:
            self.start_node(node_id)

    def _reload(self) -> None:
        state = kafka_cluster.ClusterState.load()
        assert state is not None, "the cluster state file disappeared"
        self.state = state


def wait_until(predicate: Callable[[], bool], timeout: float, what: str, interval: float = 0.5) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")


def commit_offset(bootstrap: str, group: str, topic: str, partition: int, offset: int, timeout: float = 60) -> None:
    """Commit one offset for a group that has no member, as a consumer does; retried while the
    group's coordinator is still being elected (a fresh cluster's __consumer_offsets)."""
    from confluent_kafka import Consumer, KafkaException, TopicPartition

    committer = Consumer({"bootstrap.servers": bootstrap, "group.id": group})

    def committed() -> bool:
        try:
            committer.commit(offsets=[TopicPartition(topic, partition, offset)], asynchronous=False)
        except KafkaException as error:
            if error.args[0].retriable() or error.args[0].name() in ("NOT_COORDINATOR", "COORDINATOR_NOT_AVAILABLE"):
                return False
            raise
        return True

    try:
        wait_until(committed, timeout, f"group {group}'s commit")
    finally:
        committer.close()


def wait_for_topic(admin, topic: str, partitions: int, timeout: float = 30) -> None:  # type: ignore[no-untyped-def]
    """CreateTopics returns when the controller has committed the topic; brokers learn of it
    asynchronously, each on its own, and a client's metadata request goes to any of them (seen in
    CI: the next request met a broker that had not caught up). Wait until every live broker,
    asked one by one, shows every partition with a leader."""
    from kafka.admin import KafkaAdminClient

    brokers = admin.list_topics(timeout=10).brokers
    checker = KafkaAdminClient(bootstrap_servers=[f"{b.host}:{b.port}" for b in brokers.values()])
    try:
        wait_until(lambda: all(_broker_knows(checker, node, topic, partitions) for node in sorted(brokers)),
                   timeout, f"topic {topic} to reach every broker's metadata")  # fmt: skip
    finally:
        checker.close()


def _broker_knows(checker, node_id: int, topic: str, partitions: int) -> bool:  # type: ignore[no-untyped-def]
    """One broker's own metadata answer (kafka-python sends to the node named; the pinned release's
    manager is what its admin calls use)."""
    import kafka.errors
    from kafka.protocol.metadata import MetadataRequest

    wanted = [MetadataRequest.MetadataRequestTopic(name=topic)]
    request = MetadataRequest(topics=wanted, allow_auto_topic_creation=False)
    try:
        answer = checker._manager.run(checker._manager.send, request, node_id).topics[0]
    except kafka.errors.KafkaError:  # a broker still starting or a connection refused: not ready yet
        return False
    return (
        answer.error_code == 0
        and len(answer.partitions) == partitions
        and all(p.leader_id >= 0 for p in answer.partitions)
    )


def describe_topic_configs(admin, topic: str, timeout: float = 30) -> dict:  # type: ignore[no-untyped-def]
    """DescribeConfigs for a topic goes to any broker, and the one wait_for_topic asked is not
    necessarily it: a broker whose metadata has not caught up answers UNKNOWN_TOPIC_OR_PART
    (seen in CI). Ask again until one answers or `timeout` passes."""
    from confluent_kafka import KafkaError, KafkaException
    from confluent_kafka.admin import ConfigResource

    resource = ConfigResource(ConfigResource.Type.TOPIC, topic)
    deadline = time.monotonic() + timeout
    while True:
        try:
            return admin.describe_configs([resource], request_timeout=10)[resource].result(timeout=20)
        except KafkaException as error:
            unknown = error.args[0].code() == KafkaError.UNKNOWN_TOPIC_OR_PART
            if not unknown or time.monotonic() > deadline:
                raise
        time.sleep(0.5)


@contextmanager
def new_topic(
    cluster: KafkaTestCluster, prefix: str, partitions: int = 1, replicas: int = 3, config: dict[str, str] | None = None
) -> Iterator[str]:
    """A topic of its own for one test (`prefix-<random>`, with `config`), known to every broker, deleted
    after: every partition left behind lengthens each scrape of the brokers (a test bed scrape is
    ~0.5 MB fresh)."""
    import uuid

    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": cluster.bootstrap_servers})
    name = f"{prefix}-{uuid.uuid4().hex[:8]}"
    topic = NewTopic(name, partitions, replicas, config=config or {})
    admin.create_topics([topic], request_timeout=30)[name].result(60)
    try:
        wait_for_topic(admin, name, partitions)
        yield name
    finally:
        admin.delete_topics([name], request_timeout=30)[name].result(timeout=60)


SETTLED = "no under-replicated partitions, network threads ticking, no client throttled"


def settled(cluster: KafkaTestCluster) -> bool:
    """The cluster at rest, as the metric rules judge it: no under-replicated partitions, every
    node's network-idle gauge measured (a restarted broker's reads 0 until its meters first tick,
    every 5 s) and no client held back by a quota (earlier tests throttle one)."""
    for node_id in cluster.node_ids:
        text = cluster.scrape(node_id)
        if sum(v for _, v in parse_samples(text, "kafka_server_replicamanager_underreplicatedpartitions")) > 0:
            return False
        if any(v <= 0.3 for _, v in parse_samples(text, "kafka_network_socketserver_networkprocessoravgidlepercent")):
            return False
        if any(v > 0 for _, v in parse_samples(text, "kafka_server_quota_throttle_time")):  # NaN: not throttled
            return False
    return True


REASSIGN = "org.apache.kafka.tools.reassign.ReassignPartitionsCommand"


def reassign_partitions(bootstrap: str, plan, *arguments: str) -> str:  # type: ignore[no-untyped-def]
    """The real kafka-reassign-partitions (Kafka 4.4.0's tool, from the Maven jars) with `plan`;
    what it printed."""
    import subprocess

    import fetch_kafka  # tools/, put on sys.path by conftest

    classpath = fetch_kafka.classpath(fetch_kafka.kafka_libs("4.4.0"))
    command = ["java", "-cp", classpath, REASSIGN, "--bootstrap-server", bootstrap,
               "--reassignment-json-file", str(plan), *arguments]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    return done.stdout + done.stderr
