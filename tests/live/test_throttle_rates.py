"""A replication throttle against the brokers' measured write rate (KO121): which figure is the
brokers' (the all-topics series, else the topics' summed; a count gives a rate only between two
timed samples), when the run's metrics are the cluster's, and every way it is not judged is said."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.analysis.write_rates import peak_write_rates
from advisor.cli import main
from advisor.report.session import LiveTarget, RunRequest, read, run

LIVE = Path(__file__).resolve().parents[2] / "fixtures" / "live"
SNAPSHOT = LIVE / "throttled-move.snapshot.json"  # broker 4's follower throttle: 10 MB/s
COUNT = "kafka_server_brokertopicmetrics_bytesin_total"


def _scrapes(path: Path, rows: list[tuple[str, str, float, int | None]]) -> Path:
    """(labels, series suffix, value, time in ms or None) as exposition lines."""
    lines = [f"# TYPE {COUNT} counter"]
    lines += [f"{COUNT}{{{labels}}} {value:.0f}" + (f" {when}" if when is not None else "")
              for labels, _, value, when in rows]  # fmt: skip
    path.write_text("\n".join(lines) + "\n")
    return path


def _observed(path: Path):  # type: ignore[no-untyped-def]
    return read(RunRequest(paths=(), metric_files=(path,))).document.observations


def test_the_all_topics_series_is_the_brokers_rate_and_its_peak_is_kept(tmp_path: Path) -> None:
    at = 1764590400000
    rows = [('instance="b1:7071"', "", 0, at), ('instance="b1:7071"', "", 6e8, at + 60000),
            ('instance="b1:7071"', "", 9e8, at + 120000),  # 10 MB/s, then 5 MB/s
            ('instance="b1:7071",topic="t"', "", 0, at),
            ('instance="b1:7071",topic="t"', "", 6e10, at + 60000)]  # fmt: skip
    (rate,) = peak_write_rates(_observed(_scrapes(tmp_path / "m.prom", rows)))
    assert (rate.node, rate.bytes_per_second, rate.signals) == ("b1:7071", 10e6, 2)


def test_without_an_all_topics_series_the_topics_are_summed_and_a_restart_gives_no_rate(tmp_path: Path) -> None:
    at = 1764590400000
    rows = [('instance="b1:7071",topic="a"', "", 0, at), ('instance="b1:7071",topic="a"', "", 1.2e8, at + 60000),
            ('instance="b1:7071",topic="b"', "", 0, at), ('instance="b1:7071",topic="b"', "", 6e7, at + 60000),
            ('instance="b2:7071"', "", 9e9, at), ('instance="b2:7071"', "", 1e6, at + 60000)]  # fmt: skip
    rates = peak_write_rates(_observed(_scrapes(tmp_path / "m.prom", rows)))
    assert [(r.node, r.bytes_per_second) for r in rates] == [("b1:7071", 3e6)]  # b2 restarted: no rate


def _audit(*metrics: Path) -> list[str]:
    report = run(RunRequest(paths=(), metric_files=metrics, live=(LiveTarget(str(SNAPSHOT), path=SNAPSHOT),)))
    assert not report.problems, report.problems
    fired = [f.subject for f in report.findings if f.rule == "KO121"]
    return fired + [note.message for note in report.skipped if "KO121" in note.message or note.kind == "not-joined"]


def test_a_throttle_is_judged_against_the_busiest_broker(tmp_path: Path) -> None:
    at = 1764590400000
    busy = [('pod="kafka-0"', "", 0, at), ('pod="kafka-0"', "", 1.2e9, at + 60000)]  # 20 MB/s
    assert _audit(_scrapes(tmp_path / "busy.prom", busy)) == ["broker 4"]  # 10 MB/s follower throttle
    calm = [('pod="kafka-0"', "", 0, at), ('pod="kafka-0"', "", 3e8, at + 60000)]  # 5 MB/s
    assert _audit(_scrapes(tmp_path / "calm.prom", calm)) == []


@pytest.mark.parametrize(
    ("rows", "said"),
    [
        ([], "KO121 not judged: the run has no metrics of its brokers"),
        ([('pod="kafka-0"', "", 5e9, None)], "KO121 not judged: the metrics given hold no write rate"),  # one count
    ],
)
def test_a_throttle_without_a_measured_rate_is_said_not_judged(tmp_path: Path, rows, said: str) -> None:  # type: ignore[no-untyped-def]
    metrics = (_scrapes(tmp_path / "once.prom", rows),) if rows else ()
    (note,) = _audit(*metrics)
    assert note.startswith(said), note


def test_metrics_that_name_two_clusters_are_joined_to_none_and_say_so(tmp_path: Path) -> None:
    at = 1764590400000
    rows = [(f'pod="kafka-0",strimzi_io_cluster="{name}"', "", v, at + i * 60000)
            for name in ("east", "west") for i, v in enumerate((0, 1.2e9))]  # fmt: skip
    notes = _audit(_scrapes(tmp_path / "two.prom", rows))
    assert any("the metrics name clusters east, west" in n for n in notes), notes
    assert any(n.startswith("KO121 not judged: the run has no metrics of its brokers") for n in notes), notes


def test_the_not_judged_note_is_in_json_and_sarif(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["audit", "--snapshot", str(SNAPSHOT), "--select", "KO121", "--output-format", "json"]) == 0
    notes = [n["message"] for n in json.loads(capsys.readouterr().out)["skipped"]]
    assert any(n.startswith("KO121 not judged") for n in notes), notes
    assert main(["audit", "--snapshot", str(SNAPSHOT), "--select", "KO121", "--output-format", "sarif"]) == 0
    sarif = capsys.readouterr().out
    assert "KO121 not judged" in sarif


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["lint", "{plan}", "--metrics", "{metrics}"], "--metrics and --prometheus measure a cluster"),
        (["audit", "--snapshot", "{snapshot}", "--metrics", "{missing}"], "no such file or directory"),
        (["audit", "--snapshot", "{snapshot}", "--metrics", "{plan}"], "not metrics kafka-advisor reads"),
        (["audit", "--snapshot", "{snapshot}", "--samples", "2", "--metrics", "{metrics}"], "--samples needs an"),
    ],
)
def test_metrics_that_cannot_be_read_as_given_are_an_error(tmp_path: Path, capsys, arguments, said) -> None:  # type: ignore[no-untyped-def]
    plan = tmp_path / "plan.json"
    plan.write_text('{"version": 1, "partitions": [{"topic": "orders", "partition": 0, "replicas": [1, 4]}]}')
    metrics = _scrapes(tmp_path / "m.prom", [('pod="kafka-0"', "", 1, 1764590400000)])
    names = {"plan": plan, "metrics": metrics, "snapshot": SNAPSHOT, "missing": tmp_path / "gone.prom"}
    assert main([a.format(**names) for a in arguments]) == 2
    assert said in capsys.readouterr().err


def test_lint_judges_the_scripts_throttle_and_never_the_clusters_own(tmp_path: Path) -> None:
    """lint --snapshot: the cluster is the files' context; its running throttles are audit's."""
    at = 1764590400000
    busy = [('pod="kafka-0"', "", 0, at), ('pod="kafka-0"', "", 1.2e9, at + 60000)]  # 20 MB/s
    metrics = _scrapes(tmp_path / "busy.prom", busy)
    script = tmp_path / "move.sh"
    script.write_text("kafka-reassign-partitions.sh --bootstrap-server k:9092 --reassignment-json-file p.json "
                      "--execute --throttle 5000000\n")  # fmt: skip
    target = LiveTarget(str(SNAPSHOT), path=SNAPSHOT, context_only=True)
    report = run(RunRequest(paths=(script,), metric_files=(metrics,), live=(target,)))
    places = {
        (loc.path.rsplit("/", 1)[-1], loc.line) for f in report.findings if f.rule == "KO121" for loc in f.locations
    }
    assert ("move.sh", 1) in places and not any(path.startswith("broker:") for path, _ in places), places
