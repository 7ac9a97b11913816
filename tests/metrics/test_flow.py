"""The flow-control view: lag in seconds by interpolation, scissors, drain and disk-fill times,
replication traffic; from every offset source, with the known failure modes handled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.analysis import flow
from advisor.analysis.broker_settings import BrokerSettings
from advisor.metrics import clients
from advisor.metrics.exposition import parse
from advisor.metrics.files import split_inputs
from advisor.metrics.inputs import Capture
from advisor.metrics.observe import observe
from advisor.model.observations import Point
from advisor.model.provenance import Location
from advisor.output import RenderOptions, render
from advisor.report import session
from advisor.report.model import Report
from advisor.rules.checks.flow import retention_seconds
from advisor.sources import LoadOptions, load

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "rules" / "metrics"


def points(pairs: list[tuple[float, float]]) -> list[Point]:
    return [Point(t, v, Location("f.prom", n)) for n, (t, v) in enumerate(pairs, start=1)]


def view_of(text: str) -> flow.FlowView:
    captures = [Capture("scrape.prom", None, list(parse(text.splitlines(), "scrape.prom")), True)]
    observations, problems = observe(captures)
    assert problems == []
    return flow.view(observations)


def write(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def test_lag_seconds_is_when_the_end_offset_passed_the_group_s_offset() -> None:
    end = points([(0, 1000), (60, 7000), (120, 13000)])  # 100 records/s
    found = flow.lag_seconds(end, 4000, 120)
    assert (found.kind, found.seconds) == ("interpolated", pytest.approx(90.0))  # written at t=30
    assert flow.lag_seconds(end, 13000, 120).kind == "caught-up"


def test_an_idle_producer_does_not_stretch_the_lag_in_seconds() -> None:
    """A burst, then nothing for ten minutes: the next record was written during the burst's
    last minute, not at the start of the idle stretch's extrapolation."""
    end = points([(0, 0), (60, 6000), (120, 6000), (600, 6000), (660, 6600)])
    found = flow.lag_seconds(end, 6300, 660)
    assert found.kind == "interpolated" and found.seconds == pytest.approx(30.0)  # written at t=630


def test_a_position_older_than_the_window_is_a_lower_bound_with_an_estimate() -> None:
    end = points([(0, 10000), (60, 16000)])  # 100 records/s
    found = flow.lag_seconds(end, 4000, 60)
    assert found.kind == "at-least" and found.seconds == 60 and found.estimate == pytest.approx(120.0)
    one = flow.lag_seconds(points([(0, 10000)]), 4000, 0)
    assert (one.seconds, one.estimate) == (0, None)  # one point: no rate to extrapolate with


def test_the_exporter_fixture_s_groups_diverge_converge_and_catch_up() -> None:
    view = view_of((FIXTURES / "kafka-exporter-groups.prom").read_text())
    rows = {(r.group, r.partition): r for r in view.partitions}
    billing = rows[("billing", "1")]
    assert billing.trend == "diverging" and not billing.draining
    assert billing.rate_in == pytest.approx(240) and billing.rate_out == pytest.approx(120)
    assert billing.lag_time.kind == "interpolated"  # type: ignore[union-attr]
    assert billing.lag_time.seconds == pytest.approx(billing.lag / 240, rel=0.01)  # type: ignore[union-attr, operator]
    search = rows[("search", "0")]
    assert search.trend == "converging"
    assert search.drain_seconds == pytest.approx(search.lag / (400 - 240), rel=0.01)  # type: ignore[operator]
    fresh = rows[("fresh", "0")]
    assert fresh.lag is None and fresh.lag_time is None and "no committed offset" in fresh.note
    assert rows[("reports", "0")].trend == "caught-up"  # the idle topic's group is not behind


def test_every_offset_exporter_s_labels_name_group_topic_and_partition() -> None:
    text = write([
        'kminion_kafka_topic_partition_high_water_mark{topic_name="t",partition_id="3"} 500 1000',
        'kminion_kafka_consumer_group_topic_partition_lag{group_id="g1",topic_name="t",partition_id="3"} 50 1000',
        'kafka_partition_latest_offset{cluster_name="east",topic="t",partition="3"} 500 1000',
        'kafka_consumergroup_group_offset{cluster_name="east",group="g2",topic="t",partition="3",client_id="c"} 480'
        " 1000",
    ])  # fmt: skip
    rows = {(r.cluster, r.group): r for r in view_of(text).partitions}
    assert rows[(None, "g1")].lag == 50 and rows[(None, "g1")].topic == "t" and rows[(None, "g1")].partition == "3"
    assert rows[("east", "g2")].lag == 20  # its end offset from the same cluster's exporter
    assert rows[(None, "g1")].source == "kminion" and rows[("east", "g2")].source == "kafka-lag-exporter"


def test_a_broker_s_log_end_offset_serves_where_no_exporter_gives_one() -> None:
    text = write([
        'kafka_log_log_logendoffset{instance="b1",topic="t",partition="0"} 1000 0',
        'kafka_log_log_logendoffset{instance="b2",topic="t",partition="0"} 990 0',  # a follower behind
        'kafka_log_log_logendoffset{instance="b1",topic="t",partition="0"} 2000 10000',
        'kafka_log_log_logendoffset{instance="b2",topic="t",partition="0"} 1995 10000',
        'kafka_consumergroup_current_offset{consumergroup="g",topic="t",partition="0"} 900 0',
        'kafka_consumergroup_current_offset{consumergroup="g",topic="t",partition="0"} 1500 10000',
    ])  # fmt: skip
    (row,) = view_of(text).partitions
    assert row.lag == 500 and row.rate_in == pytest.approx(100) and row.rate_out == pytest.approx(60)
    assert row.lag_time.seconds == pytest.approx(5.0)  # type: ignore[union-attr]  # 1500 passed at t=5 s


def test_replicas_end_offsets_are_kept_as_their_partition_s_furthest() -> None:
    """A large cluster has a series a replica; the flow view reads one a partition: the replica
    furthest ahead at each time, whichever broker that is (a leader change between the samples)."""
    from advisor.metrics import exposition, vocabulary
    from advisor.metrics.observe import FURTHEST, wanted

    lines = ['kafka_log_log_logendoffset{instance="b1",topic="t",partition="0"} 1000 0',
             'kafka_log_log_logendoffset{instance="b2",topic="t",partition="0"} 990 0',
             'kafka_log_log_logendoffset{instance="b2",topic="t",partition="0"} 2000 10000',  # b2 leads now
             'kafka_log_log_logendoffset{instance="b1",topic="t",partition="0"} 1995 10000',
             'kafka_log_log_logendoffset{instance="b1",topic="t",partition="1"} 70 0']  # fmt: skip
    samples = list(exposition.parse(lines, "scrape.prom", wanted()))
    observations, problems = observe([Capture("scrape.prom", None, samples, True)])
    assert problems == []
    ends = {s.label("partition"): s for s in observations.of(vocabulary.LOG_END_OFFSET.mbean)}
    assert set(ends) == {"0", "1"} and {s.node for s in ends.values()} == {FURTHEST}
    assert [(p.time, p.value, p.place.line) for p in ends["0"].points] == [(0.0, 1000, 1), (10.0, 2000, 3)]


def librdkafka_stats(moment: float, hi: int, committed: int, desired: bool = True) -> str:
    partitions = {"0": {"desired": desired, "hi_offset": hi, "committed_offset": committed,
                        "consumer_lag": hi - committed if committed >= 0 else -1},
                  "-1": {"hi_offset": -1, "committed_offset": -1001, "consumer_lag": -1}}  # fmt: skip
    return json.dumps({"name": "rdkafka#consumer-1", "client_id": "ledger", "type": "consumer", "ts": 1,
                       "time": moment, "topics": {"payments": {"partitions": partitions}}})  # fmt: skip


def test_a_librdkafka_consumer_s_statistics_give_its_own_flow() -> None:
    text = "\n".join(librdkafka_stats(1764561600 + s, 1000 + 100 * s, 900 + 50 * s) for s in range(0, 31, 5))
    samples = clients.read(text, "stats.json", "librdkafka")
    assert {s.written for s in samples if s.metric is clients.COMMITTED_OFFSET} == {
        "topics.payments.partitions.0.committed_offset"
    }  # the UA partition (-1) is not one
    observations, problems = observe([Capture("stats.json", None, samples, True)])
    assert problems == []
    (row,) = flow.view(observations).partitions
    assert (row.group, row.source, row.trend) == ("client ledger", "librdkafka", "diverging")
    assert row.rate_in == pytest.approx(100) and row.rate_out == pytest.approx(50)
    unassigned = clients.read(librdkafka_stats(1764561600, 1000, -1001, desired=False), "s.json", "librdkafka")
    assert not [s for s in unassigned if s.metric in (clients.COMMITTED_OFFSET, clients.PARTITION_END)]


def test_disks_fill_at_their_fall_and_pseudo_filesystems_are_passed_over() -> None:
    view = view_of((FIXTURES / "disk-space.prom").read_text())
    volumes = {d.volume: d for d in view.disks}
    assert "/run" not in volumes  # tmpfs
    assert volumes["/var/lib/kafka"].fill_seconds is not None
    kafka_1 = next(d for d in view.disks if d.node == "kafka-1.internal:9100")
    assert kafka_1.slope == pytest.approx(-4.5e6) and kafka_1.size == 500e9
    assert kafka_1.fill_seconds == pytest.approx(kafka_1.free / 4.5e6)
    one = view_of('node_filesystem_avail_bytes{mountpoint="/data",fstype="ext4"} 5e9\n')
    assert one.disks[0].fill_seconds is None  # one snapshot: no fall known


def test_replication_traffic_is_ingress_times_the_followers() -> None:
    text = write([
        'kafka_server_brokertopicmetrics_bytesin_total{instance="b1",topic="t"} 0 0',
        'kafka_server_brokertopicmetrics_bytesin_total{instance="b1",topic="t"} 600000 60000',
        'kafka_server_brokertopicmetrics_bytesin_total{instance="b2",topic="t"} 0 0',
        'kafka_server_brokertopicmetrics_bytesin_total{instance="b2",topic="t"} 60000 60000',
        'kafka_topic_partition_replicas{topic="t",partition="0"} 3 60000',
    ])  # fmt: skip
    (traffic,) = view_of(text).traffic
    assert traffic.bytes_in == pytest.approx(11000) and traffic.replication == pytest.approx(22000)


@pytest.mark.parametrize(
    ("lines", "seconds"),
    [
        ([], 168 * 3600),
        (["log.retention.hours=6"], 6 * 3600),
        (["log.retention.hours=6", "log.retention.minutes=30"], 1800),
        (["log.retention.minutes=30", "log.retention.ms=60000"], 60),
        (["log.retention.ms=-1"], -1),
    ],
)
def test_retention_is_read_as_kafka_reads_it(tmp_path: Path, lines: list[str], seconds: float) -> None:
    path = tmp_path / "server.properties"
    path.write_text("process.roles=broker\nnode.id=1\n" + "\n".join(lines) + "\n")
    document = load([path], LoadOptions()) if lines else None
    found, _, _ = retention_seconds(BrokerSettings(document))
    assert found == seconds


def test_analyze_reports_the_view_in_json_and_text_and_finds_metrics_in_a_folder() -> None:
    folder = FIXTURES / "projects" / "short-retention"
    files, _, configs = split_inputs([str(folder)])
    assert [p.name for p in files] == ["exporter.prom"] and configs == [folder]
    report = session.run(session.RunRequest(paths=tuple(configs), metric_files=tuple(files)))  # fmt: skip
    assert report.problems == [] and not [p for p in report.skipped if p.path.endswith("exporter.prom")]
    assert {f.rule for f in report.findings} >= {"KM040", "KM041"}
    document = json.loads(render(report, "json"))
    groups = {g["group"]: g for g in document["flow"]["groups"]}
    assert groups["archiver"]["trend"] == "diverging" and groups["archiver"]["draining"] is False
    assert groups["replay"]["lag"] == 0
    text = render(report, "text", RenderOptions(color=False))
    assert "Consumer groups" in text and "not draining" in text


def test_a_hostile_group_name_is_shown_inert() -> None:
    text = 'kafka_consumergroup_lag{consumergroup="evil\\u001b[2J",topic="t",partition="0"} 5 1000\n'
    view = view_of(text.replace("\\u001b", "\x1b"))
    report = Report(tool_version="0", files=[], findings=[], problems=[], rules=[], flow=view.to_dict())
    for color in (False, True):
        assert "\x1b[2J" not in render(report, "text", RenderOptions(color=color)).replace("\x1b[0m", "")


def test_infinite_and_overflowing_offsets_leave_valid_json_and_text() -> None:
    text = write([
        'kafka_topic_partition_current_offset{topic="t",partition="0"} +Inf 1000',
        'kafka_topic_partition_current_offset{topic="t",partition="0"} 1e308 2000',
        'kafka_topic_partition_current_offset{topic="t",partition="0"} 1.7e308 3000',
        'kafka_consumergroup_current_offset{consumergroup="g",topic="t",partition="0"} 0 2000',
        'kafka_consumergroup_current_offset{consumergroup="g",topic="t",partition="0"} 1e-300 3000',
        'node_filesystem_avail_bytes{mountpoint="/d",fstype="xfs"} 1.7e308 1000',
        'node_filesystem_avail_bytes{mountpoint="/d",fstype="xfs"} -1.7e308 2000',
    ])  # fmt: skip
    report = Report(tool_version="0", files=[], findings=[], problems=[], rules=[], flow=view_of(text).to_dict())
    json.loads(render(report, "json"), parse_constant=lambda word: pytest.fail(f"{word} is not JSON"))
    assert "Consumer groups" in render(report, "text", RenderOptions(color=False))
