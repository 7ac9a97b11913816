"""Kafka's own JmxTool, run against a real test-bed node's remote JMX port in each of its four
report formats, saved with what it writes on stderr first (`2>&1`, or a terminal paste): `analyze`
reads every dump, finds the metrics the rules use, and reads the same values the node's
Prometheus exporter serves."""

from __future__ import annotations

import subprocess
from pathlib import Path

import fetch_kafka  # tools/, on the path through tests/conftest.py
import pytest
from testbed import SETTLED, KafkaTestCluster, settled, wait_until

from advisor.metrics import files as metric_files
from advisor.metrics import vocabulary
from advisor.metrics.observe import observe
from advisor.report import session

pytestmark = pytest.mark.kafka

QUERIES = ["kafka.server:type=ReplicaManager,*", "kafka.controller:type=KafkaController,*",
           "kafka.server:type=KafkaRequestHandlerPool,*"]  # fmt: skip
EXPECTED = {vocabulary.UNDER_REPLICATED, vocabulary.UNDER_MIN_ISR, vocabulary.ACTIVE_CONTROLLERS,
            vocabulary.OFFLINE_PARTITIONS, vocabulary.REQUEST_HANDLER_IDLE, vocabulary.ISR_SHRINKS}  # fmt: skip


def jmxtool(cluster: KafkaTestCluster, report_format: str, folder: Path) -> Path:
    """Polls a second apart (the tool runs until stopped), as an operator saves them: three, so two are whole."""
    node = cluster.state.nodes[0]
    libs = fetch_kafka.classpath(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION))
    command = ["java", "-cp", libs, "org.apache.kafka.tools.JmxTool", "--jmx-url",
               f"service:jmx:rmi:///jndi/rmi://127.0.0.1:{node.jmx_port}/jmxrmi", "--report-format", report_format,
               "--reporting-interval", "1000"]  # fmt: skip
    for query in QUERIES:
        command += ["--object-name", query]
    path = folder / f"dump-{report_format}.txt"
    with path.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        try:
            wait_until(lambda: path.read_text().count("\n") > 0 and _polls(path, report_format) >= 3, 60, "three polls")
        finally:
            process.terminate()
            process.wait(timeout=30)
    return path


PREAMBLE = "Trying to connect to JMX url: "


def _report(text: str) -> list[str]:
    """The report's lines, after what the tool wrote on stderr before it (none yet while it is
    still connecting: the preamble comes first, the first poll when the connection is made)."""
    lines = text.splitlines()
    return lines[next((n for n, line in enumerate(lines) if not line.startswith(PREAMBLE)), len(lines)) :]


def _polls(path: Path, report_format: str) -> int:
    lines = _report(path.read_text())
    if report_format == "original":
        return len(lines) - 1
    return sum(1 for line in lines if line.startswith("time"))


@pytest.mark.parametrize("report_format", ["original", "properties", "csv", "tsv"])
def test_every_report_format_is_read_with_the_exporter_s_values(
    kafka_cluster: KafkaTestCluster, report_format: str, tmp_path: Path
) -> None:
    wait_until(lambda: settled(kafka_cluster), 120, SETTLED)
    dump = jmxtool(kafka_cluster, report_format, tmp_path)
    assert metric_files.metric_format(dump) == f"jmxtool:{report_format}"
    text = dump.read_text()
    assert text.startswith(PREAMBLE)  # the real tool's stderr, kept as a terminal shows it
    lines = text.splitlines()
    preamble = len(lines) - len(_report(text))
    if report_format == "original":  # a truncated last row (the tool stopped mid-write) is not a poll
        dump.write_text("\n".join(lines[: preamble + 3]) + "\n")
    else:
        last_time = max(n for n, line in enumerate(lines) if line.startswith("time"))
        dump.write_text("\n".join(lines[:last_time]) + "\n")
    capture = metric_files.read_file(dump, frozenset(), session.RunRequest(paths=()).limits)
    observations, problems = observe([capture])
    assert problems == []
    found = {vocabulary.by_mbean(s.metric) for s in observations.series}
    assert found >= EXPECTED, EXPECTED - found
    # Two polls: a time series, so the idle meter's count gives a rate, a fraction of 1.
    (idle,) = [s for s in observations.of(vocabulary.REQUEST_HANDLER_IDLE.mbean, "count") if not s.labels]
    assert len(idle.points) == 2
    from advisor.metrics import windows

    # JmxTool stamps a poll after reading its attributes, so a one-second rate carries a few
    # percent of timing error: an idle broker's fraction reads about 1.
    (rate,) = windows.rates(idle)
    assert 0.5 < rate.value < 1.2, rate
    exported = kafka_cluster.metric(kafka_cluster.node_ids[0], "kafka_controller_kafkacontroller_activecontrollercount")
    (active,) = observations.of(vocabulary.ACTIVE_CONTROLLERS.mbean)
    assert active.points[-1].value == exported
    report = session.analyze_files([dump])
    assert not report.problems and not [f for f in report.findings if f.rule in ("KM001", "KM002", "KM003")]
