"""The ZM rules on Zeebe's own Prometheus names: what one snapshot can and cannot say, how export
lag is measured against the committed log of the same partition, and that a finding names the
Camunda component and product."""

from __future__ import annotations

from pathlib import Path

from advisor.report.session import RunRequest, run


def _analyze(tmp_path: Path, text: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "zeebe.prom"
    path.write_text(text)
    report = run(RunRequest(paths=(), metric_files=(path,)))
    assert not report.problems, report.problems
    return report


def test_one_snapshot_judges_levels_but_not_counts(tmp_path: Path) -> None:
    report = _analyze(
        tmp_path,
        (
            'zeebe_dropped_request_count_total{partition="1"} 9000\n'
            'zeebe_received_request_count_total{partition="1"} 10000\n'  # since the broker started: not judged
            'zeebe_log_appender_last_committed_position{partition="1"} 900000\n'
            'zeebe_exporter_last_exported_position{exporter="es",partition="1"} 100000\n'
        ),
    )
    (lag,) = report.findings
    assert lag.rule == "ZM002" and lag.component == "zeebe-broker" and lag.product == "camunda"
    assert "800000 records behind partition 1" in lag.message and "its trend unknown" in lag.message
    assert lag.confidence == "low"


def test_export_lag_is_measured_per_partition_and_exporter(tmp_path: Path) -> None:
    report = _analyze(
        tmp_path,
        (
            'zeebe_log_appender_last_committed_position{partition="1"} 900000 1764547200000\n'
            'zeebe_log_appender_last_committed_position{partition="2"} 200000 1764547200000\n'
            'zeebe_exporter_last_exported_position{exporter="es",partition="1"} 890000 1764547200000\n'
            'zeebe_exporter_last_exported_position{exporter="slow",partition="1"} 100 1764547200000\n'
            'zeebe_exporter_last_exported_position{exporter="es",partition="2"} 100 1764547200000\n'
            'zeebe_exporter_last_exported_position{exporter="es",partition="3"} 100 1764547200000\n'  # no committed
        ),
    )
    lagging = sorted((f.message.split("exporter ")[1].split(" ")[0], f.message.split("behind partition ")[1][0])
                     for f in report.findings)  # fmt: skip
    assert lagging == [("es", "2"), ("slow", "1")]  # partition 1's es is 10000 behind; partition 3 has no log


DISK = (
    'zeebe_received_request_count_total{partition="1",pod="zeebe-0"} 5000 1764561600000\n'
    'kubelet_volume_stats_available_bytes{persistentvolumeclaim="data-0",pod="zeebe-0"} 9000000000 1764561600000\n'
    'kubelet_volume_stats_available_bytes{persistentvolumeclaim="data-0",pod="zeebe-0"} 8000000000 1764563400000\n'
)


def test_the_disk_is_judged_against_the_watermark_the_configurations_say(tmp_path: Path) -> None:
    alone = _analyze(tmp_path, DISK)
    (default,) = [f for f in alone.findings if f.rule == "ZM004"]
    assert "watermark 2GB, Camunda's default" in default.message
    assert not [f for f in alone.findings if f.rule == "KM042"]  # the brokers are Zeebe's: KM042 leaves the disk
    config = tmp_path / "application.yaml"
    config.write_text("camunda:\n  data:\n    primary-storage:\n      disk:\n        free-space:\n"
                      "          processing: 7GB\n          replication: 5GB\n")  # fmt: skip
    metrics = tmp_path / "zeebe.prom"
    report = run(RunRequest(paths=(config,), metric_files=(metrics,)))
    (told,) = [f for f in report.findings if f.rule == "ZM004"]
    assert "watermark 7GB, as the 1 broker configuration(s) given say" in told.message
    assert "at the processing watermark in about 15 min" in told.message  # (8e9 − 7 × 1024³) bytes at 0.56 MB/s
    assert "at the replication watermark (5GB) in about 79 min" in told.message  # (8e9 − 5 × 1024³) bytes


def test_a_disk_check_slower_than_the_fall_between_the_watermarks(tmp_path: Path) -> None:
    # 1 GB over 30 min: 0.56 MB/s. With the defaults (1s, 2GB above 1GB) a check sees every step.
    alone = _analyze(tmp_path, DISK)
    assert not [f for f in alone.findings if f.rule == "ZM005"]
    config = tmp_path / "application.yaml"
    metrics = tmp_path / "zeebe.prom"

    def judged(interval: str, processing: str, replication: str) -> list[str]:
        config.write_text("camunda:\n  data:\n    primary-storage:\n      disk:\n"
                          f"        monitoring-interval: {interval}\n        free-space:\n"
                          f"          processing: {processing}\n          replication: {replication}\n")  # fmt: skip
        report = run(RunRequest(paths=(config,), metric_files=(metrics,)))
        return [f.message for f in report.findings if f.rule == "ZM005"]

    # 30 min between checks: 1 GB is lost in one, more than 2GB − 1536MB.
    (message,) = judged("30m", "2GB", "1536MB")
    assert "it loses 954 MiB in one disk-check interval (30m, configured)" in message
    assert "more than the 512 MiB between the watermarks" in message
    assert not judged("30m", "3GB", "1GB")  # a 2 GB gap outlasts the interval's 1 GB
    assert not judged("1s", "2GB", "1536MB")  # checked every second: 0.56 MB between checks
    assert not judged("30m", "1GB", "2GB")  # replication above processing: ZB006, the broker refuses to start


def test_export_lag_is_a_flow_with_the_age_of_its_oldest_record(tmp_path: Path) -> None:
    # Committed 1000 records/s for 10 minutes; the exporter stopped at 30000, committed at t0 + 20 s.
    lines = []
    for minute in range(11):
        at = 1764547200000 + minute * 60000
        lines.append(f'zeebe_log_appender_last_committed_position{{partition="1",pod="zeebe-0"}} '
                     f"{10000 + minute * 60000} {at}")  # fmt: skip
        lines.append(f'zeebe_exporter_last_exported_position{{exporter="es",partition="1",pod="zeebe-0"}} 30000 {at}')
    report = _analyze(tmp_path, "\n".join(lines) + "\n")
    (exporter,) = report.flow["exports"]
    assert (exporter["exporter"], exporter["broker"], exporter["lag"]) == ("es", "zeebe-0", 580000)
    (partition,) = exporter["partitions"]
    assert partition["lag_seconds"] == 580 and exporter["trend"] == "diverging"  # 600 s − the 20 s to reach 30000
    assert exporter["rate_in"] == 1000 and exporter["rate_out"] == 0
    (lag,) = [f for f in report.findings if f.rule == "ZM002"]
    assert "its oldest unexported record was committed 10 min ago" in lag.message  # 580 s, rounded
    assert not report.flow["groups"]  # an exporter is no consumer group: Kafka's lag rules never see it


def _stalled(at: int, samples: int, first_exported_behind: int) -> str:
    """Partition 4 commits 5 records/s; its exporter stops at the position committed `first_exported_behind`
    records before the first sample, scraped each minute."""
    lines = []
    for i in range(samples):
        when = 1764633600000 + 60000 * i
        lines.append(f'zeebe_log_appender_last_committed_position{{partition="4"}} {at + 300 * i} {when}')
        lines.append(f'zeebe_exporter_last_exported_position{{exporter="es",partition="4"}} '
                     f"{at - first_exported_behind} {when}")  # fmt: skip
    return "\n".join(lines) + "\n"


def test_an_exporter_stuck_on_a_quiet_partition_is_judged_by_age_not_depth(tmp_path: Path) -> None:
    report = _analyze(tmp_path, _stalled(500_000, 13, 0))  # exported up to the first sample, then nothing
    (finding,) = report.findings  # 3,600 records behind: far under ZM002's depth
    assert finding.rule == "ZM006" and finding.product == "camunda"
    assert "partition 4 was committed 12 min ago for 6 min" in finding.message
    assert "3600 records behind" in finding.message and not finding.assumptions


def test_an_age_older_than_the_first_sample_is_a_lower_bound_and_said(tmp_path: Path) -> None:
    report = _analyze(tmp_path, _stalled(500_000, 13, 1_000))  # committed before anything observed
    (finding,) = report.findings
    assert finding.rule == "ZM006" and "more than" not in finding.message
    assert any("is a lower bound" in note for note in finding.assumptions)


def test_an_exporter_under_the_threshold_or_not_long_enough_is_silent(tmp_path: Path) -> None:
    assert not _analyze(tmp_path, _stalled(500_000, 6, 0)).findings  # at most 5 min old
    assert not _analyze(tmp_path, _stalled(500_000, 10, 0)).findings  # over 5 min for only 3 min
