from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tools"))

import kafka_cluster as cluster_tool  # noqa: E402
from testbed import KafkaTestCluster  # noqa: E402

# What `make unit` leaves to `make test`: the real software run as oracles (Java harnesses,
# brokers, Maven, librdkafka), the catalog regenerated from the jars, wheels built and installed on
# several Pythons, the pre-commit hook and the Action run as users run them.
SLOW = ("tests/integration/", "tests/catalog/test_regeneration.py", "tests/test_packaging.py",
        "tests/test_precommit_hook.py", "tests/test_github_action.py")  # fmt: skip


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        # Any test that uses the cluster is an integration test, marked or not.
        if "kafka_cluster" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.kafka)
        if Path(item.path).resolve().relative_to(REPO_ROOT).as_posix().startswith(SLOW):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def kafka_cluster_handle() -> Iterator[KafkaTestCluster]:
    """The running test cluster: `make test` starts it; otherwise this fixture
    starts one for the session and stops it at the end. Under CI a cluster
    that cannot be reached fails the test; locally it is a skip."""
    state = cluster_tool.running_state()
    started_here = False
    if state is None:
        try:
            state = cluster_tool.up(nodes=3)
            started_here = True
        except cluster_tool.ClusterError as error:
            message = f"the Kafka test cluster is not running and could not be started:\n{error}"
            if os.environ.get("CI"):
                pytest.fail(message, pytrace=False)
            pytest.skip(message)
    if len(state.nodes) != 3:
        message = f"the running test cluster has {len(state.nodes)} node(s); integration tests need 3"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    try:
        yield KafkaTestCluster(state)
    finally:
        if started_here:
            cluster_tool.down()


@pytest.fixture
def kafka_cluster(kafka_cluster_handle: KafkaTestCluster) -> KafkaTestCluster:
    """Per test: the session cluster, checked to have every node running."""
    for node in kafka_cluster_handle.state.nodes:
        if not cluster_tool.is_alive(node):
            kafka_cluster_handle.start_node(node.node_id)
    return kafka_cluster_handle
