"""Scrapes saved without timestamps (what every exporter serves and every `curl` saves): a file's
samples take its modification time, so two files of one target are two points in time; a lag
from one snapshot is known, its trend is not, and the text and the JSON say the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from advisor.metrics import vocabulary
from advisor.metrics.files import observed
from advisor.report.session import RunRequest

LAG = (
    'kafka_consumergroup_lag{consumergroup="billing",partition="0",topic="invoices"} 250000\n'
    'kafka_consumergroup_current_offset{consumergroup="billing",partition="0",topic="invoices"} 1000000\n'
    'kafka_topic_partition_current_offset{partition="0",topic="invoices"} 1250000\n'
)
IDLE = (
    "kafka_server_kafkarequesthandlerpool_requesthandleravgidlepercent_count_total"
    + '{{instance="kafka-1:7071"}} {count}\n'
)


def _scrape(path: Path, text: str, mtime: float) -> Path:
    path.write_text(text)
    os.utime(path, (mtime, mtime))
    return path


def test_two_scrapes_of_one_target_are_two_points_in_time(tmp_path: Path) -> None:
    first = _scrape(tmp_path / "a.prom", IDLE.format(count=1.0e12), 1_700_000_000)
    second = _scrape(tmp_path / "b.prom", IDLE.format(count=1.054e12), 1_700_000_060)
    read = observed([first, second], RunRequest(paths=()).limits)
    assert read.problems == []  # not "appears again without a time"
    (idle,) = read.observations.of(vocabulary.REQUEST_HANDLER_IDLE.mbean, "count")
    assert idle.node == "kafka-1:7071" and [p.time for p in idle.points] == [1_700_000_000, 1_700_000_060]


def test_a_restart_between_two_scrapes_gives_no_rate(tmp_path: Path) -> None:
    before = _scrape(tmp_path / "a.prom", IDLE.format(count=9.0e14), 1_700_000_000)
    after = _scrape(tmp_path / "b.prom", IDLE.format(count=4.0e9), 1_700_000_060)  # restarted a few s ago
    done = subprocess.run([sys.executable, "-m", "advisor", "analyze", str(before), str(after), "--output-format",
                           "json"], capture_output=True, text=True, check=False)  # fmt: skip
    assert "KM007" not in {f["rule"] for f in json.loads(done.stdout)["findings"]}  # not "idle 0.07"


def test_one_snapshot_has_a_lag_and_no_trend_and_says_why(tmp_path: Path) -> None:
    _scrape(tmp_path / "lag.prom", LAG, 1_700_000_000)
    command = [sys.executable, "-m", "advisor", "analyze", "lag.prom"]
    report = json.loads(subprocess.run([*command, "--output-format", "json"], capture_output=True, text=True,
                                       cwd=tmp_path, check=False).stdout)  # fmt: skip
    (group,) = report["flow"]["groups"]
    assert group["lag"] == 250000 and group["trend"] == "unknown"
    assert group["draining"] is None and "one snapshot" in group["draining_unknown"]
    assert group["lag_seconds_max"] is None  # one end offset says nothing of when the records came
    text = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, check=False).stdout
    assert "250,000" in text and "unknown" in text and "not draining" not in text
    assert "drain unknown: one snapshot" in text


def test_time_given_for_a_file_is_its_samples_time(tmp_path: Path) -> None:
    first = _scrape(tmp_path / "a.prom", IDLE.format(count=1.0e12), 1_700_000_000)
    second = _scrape(tmp_path / "b.prom", IDLE.format(count=1.054e12), 1_700_000_000)  # copied: one mtime
    base = [sys.executable, "-m", "advisor", "analyze", "a.prom", "b.prom", "--output-format", "json"]
    times = ["--time", "a.prom=2026-12-05T08:00:00Z", "--time", "b.prom=1796457660"]  # a minute later
    done = subprocess.run([*base, *times], capture_output=True, text=True, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr
    from advisor.cli.analyze import _timed_file

    assert _timed_file("a.prom=2026-12-05T08:00:00Z") == ("a.prom", 1796457600.0) == _timed_file("a.prom=1796457600")
    assert _timed_file("a.prom=2026-12-05T08:00:00") == ("a.prom", 1796457600.0)  # no offset: UTC
    read = observed([first, second], RunRequest(paths=()).limits, times={first: 1796457600.0, second: 1796457660.0})
    (idle,) = read.observations.of(vocabulary.REQUEST_HANDLER_IDLE.mbean, "count")
    assert [p.time for p in idle.points] == [1796457600.0, 1796457660.0]
    wrong = subprocess.run([*base, "--time", "c.prom=1796457660"], capture_output=True, text=True, cwd=tmp_path,
                           check=False)  # fmt: skip
    assert wrong.returncode == 2 and "--time names c.prom, which is no metrics file of this run" in wrong.stderr


CONTROLLER = (
    "# TYPE kafka_controller_kafkacontroller_activecontrollercount gauge\n"
    "kafka_controller_kafkacontroller_activecontrollercount {active}\n"
    'kafka_server_brokertopicmetrics_bytesinpersec_total{{topic="{topic}"}} 5.0e9\n'
)


def _controllers(tmp_path: Path, files: list[tuple[str, str, float]]) -> tuple[list[str], set[str]]:
    """Label-less scrapes, as curl saves them: (the nodes the controller count was read on, the rules fired)."""
    paths = [_scrape(tmp_path / name, text, mtime) for name, text, mtime in files]
    read = observed(paths, RunRequest(paths=()).limits)
    nodes = sorted({s.node for s in read.observations.of(vocabulary.ACTIVE_CONTROLLERS.mbean)})
    done = subprocess.run([sys.executable, "-m", "advisor", "analyze", *map(str, paths), "--output-format", "json"],
                          capture_output=True, text=True, check=False)  # fmt: skip
    return nodes, {f["rule"] for f in json.loads(done.stdout)["findings"]}


def test_one_process_scraped_twice_without_labels_is_one_node(tmp_path: Path) -> None:
    scrape = CONTROLLER.format(active=1.0, topic="orders") + "process_start_time_seconds 1.6999e9\n"
    nodes, fired = _controllers(tmp_path, [("before.prom", scrape, 1_700_000_000), ("after.prom", scrape,
                                                                                   1_700_000_300)])  # fmt: skip
    assert nodes == [str(tmp_path / "before.prom")] and "KM004" not in fired  # not "2 active controllers"
    read = observed([tmp_path / "before.prom", tmp_path / "after.prom"], RunRequest(paths=()).limits)
    (note,) = [n for n in read.unread if n.kind == "note"]
    assert note.path.endswith("after.prom") and "process_start_time_seconds" in note.message


def test_two_processes_alive_at_once_are_two_nodes_even_with_the_same_series(tmp_path: Path) -> None:
    first = CONTROLLER.format(active=1.0, topic="orders") + "process_start_time_seconds 1.6999e9\n"
    second = CONTROLLER.format(active=1.0, topic="orders") + "process_start_time_seconds 1.69991e9\n"
    nodes, fired = _controllers(tmp_path, [("a.prom", first, 1_700_000_000), ("b.prom", second, 1_700_000_010)])
    assert len(nodes) == 2 and "KM004" in fired  # two controllers that both say they are active


def test_a_process_started_after_the_earlier_scrape_is_the_node_restarted(tmp_path: Path) -> None:
    before = CONTROLLER.format(active=1.0, topic="orders") + "process_start_time_seconds 1.6999e9\n"
    after = CONTROLLER.format(active=1.0, topic="orders") + "process_start_time_seconds 1.7000001e9\n"
    nodes, fired = _controllers(tmp_path, [("a.prom", before, 1_700_000_000), ("b.prom", after, 1_700_000_600)])
    assert len(nodes) == 1 and "KM004" not in fired


def test_without_a_start_time_the_series_decide(tmp_path: Path) -> None:
    same = CONTROLLER.format(active=1.0, topic="orders")
    nodes, fired = _controllers(tmp_path, [("a.prom", same, 1_700_000_000), ("b.prom", same, 1_700_000_060)])
    assert len(nodes) == 1 and "KM004" not in fired
    other = CONTROLLER.format(active=0.0, topic="payments")  # another broker: other partitions' topics
    nodes, _ = _controllers(tmp_path, [("c.prom", same, 1_700_000_000), ("d.prom", other, 1_700_000_060)])
    assert len(nodes) == 2


def test_two_files_of_one_moment_are_two_nodes(tmp_path: Path) -> None:
    same = CONTROLLER.format(active=1.0, topic="orders")
    nodes, fired = _controllers(tmp_path, [("a.prom", same, 1_700_000_000), ("b.prom", same, 1_700_000_000)])
    assert len(nodes) == 2 and "KM004" in fired
