"""A large scrape's high-cardinality metrics kept as columns (advisor/metrics/columns.py) give, once
asked for, the series the observer makes without them: on every exposition fixture, on two scrapes
of one target and on shapes that mix timed and untimed samples; and a series not asked for is
still counted as read."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from advisor.metrics import columns, recognised
from advisor.metrics import observe as observing
from advisor.metrics.exposition import Sample
from advisor.metrics.inputs import Capture
from advisor.model.observations import Observations

LEO, BYTES_IN = "kafka_log_log_logendoffset", "kafka_server_brokertopicmetrics_bytesin_total"


def _made(observations: Observations) -> list[str]:
    every = observations.every()  # every series made
    assert observations.columns is None or not observations.columns.metrics
    records = [(s.metric, s.reading, s.node, str(s.cluster), s.labels, s.written, s.scale,
                tuple((p.time, p.value, str(p.place)) for p in s.points)) for s in every]  # fmt: skip
    return sorted(map(repr, records))


def _both_ways(captures: list[Capture] | Callable[[], list[Capture]], monkeypatch: pytest.MonkeyPatch) -> Observations:
    """`captures`, or what reads them (the reader takes lines into columns as it reads)."""
    read = captures if callable(captures) else lambda: captures
    first = read()
    kept, kept_problems = observing.observe(first)
    with monkeypatch.context() as patched:
        patched.setattr(columns, "METRICS", frozenset())  # every series made as it is observed
        second = read()
        made, made_problems = observing.observe(second)
        assert made.columns is None
    captures = first
    inputs = {capture.origin: "prometheus" for capture in captures}
    assert recognised.per_input(kept, inputs) == recognised.per_input(made, inputs)  # counted before made
    assert _made(kept) == _made(made)
    assert sorted(map(str, kept_problems)) == sorted(map(str, made_problems))
    return kept


def _sample(name: str, labels: dict[str, str], value: float, line: int, stamp: int | None = None) -> Sample:
    return Sample(name, tuple(labels.items()), value, stamp, line)


def test_replicas_scrapes_and_duplicates_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    first = [
        _sample(LEO, {"instance": "k-1", "partition": "0", "topic": "t"}, 10.0, 1),
        _sample(LEO, {"instance": "k-2", "partition": "0", "topic": "t"}, 12.0, 2),  # the furthest replica
        _sample(LEO, {"instance": "k-3", "partition": "0", "topic": "t"}, 11.0, 3),
        _sample(BYTES_IN, {"instance": "k-1", "topic": "t"}, 5.0, 4),
        _sample(BYTES_IN, {"instance": "k-1", "topic": "t"}, 5.0, 5),  # written twice alike: one sample
        _sample(BYTES_IN, {"instance": "k-2", "topic": "t"}, 6.0, 6),
        _sample(BYTES_IN, {"instance": "k-2", "topic": "t"}, 7.0, 7),  # twice unlike: a problem
        _sample(BYTES_IN, {"instance": "k-3", "topic": "u"}, 8.0, 8, stamp=1_699_999_990_000),  # timed
    ]
    second = [
        _sample(LEO, {"instance": "k-1", "partition": "0", "topic": "t"}, 20.0, 1),
        _sample(LEO, {"instance": "k-1", "partition": "1", "topic": "t"}, 3.0, 2),
        _sample(BYTES_IN, {"instance": "k-1", "topic": "t"}, 9.0, 3),
        _sample(BYTES_IN, {"instance": "k-3", "topic": "u"}, 9.0, 4),  # untimed beside the timed one
        _sample(LEO, {"instance": "k-2", "partition": "0", "topic": "t"}, 15.0, 5, stamp=1_700_000_060_000),
    ]
    third = [_sample(LEO, {"instance": "k-2", "partition": "0", "topic": "t"}, 30.0, 1)]  # the first's time again
    captures = [Capture("a.prom", 1_700_000_000.0, first, True), Capture("b.prom", 1_700_000_060.0, second, True),
                Capture("http://k-2:7071/metrics", 1_700_000_000.0, third, False)]  # fmt: skip
    kept = _both_ways(captures, monkeypatch)
    assert len(kept.of(columns.vocabulary.BYTES_IN.mbean)) == 3  # k-1 and k-2 on t, k-3 on u
    _both_ways([Capture("a.prom", None, first[:6], True), Capture("b.prom", None, second[:3], True)], monkeypatch)


def test_every_exposition_fixture_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    from advisor.metrics.files import read_file
    from advisor.metrics.observe import wanted
    from advisor.model.document import LoadError
    from advisor.report.session import RunRequest
    from tests.metrics.test_exposition_shapes import _exposition_files

    def read(paths: list[Path]) -> list[Capture]:
        captures = []
        for number, path in enumerate(paths):
            try:
                captures.append(read_file(path, wanted(), RunRequest(paths=()).limits, "prometheus", 1.7e9 + number))
            except LoadError:
                continue  # a fixture of a malformed file
        return captures

    paths = _exposition_files()
    assert len(read(paths)) > 10
    _both_ways(lambda: read(paths), monkeypatch)
    for path in paths:
        _both_ways(lambda: read([path]), monkeypatch)  # noqa: B023 - called at once


def test_a_series_of_one_point_is_left_unmade_where_two_are_asked_for() -> None:
    samples = [_sample(BYTES_IN, {"instance": f"k-{n}", "topic": "t"}, 5.0, n) for n in range(3)]
    observations, _ = observing.observe([Capture("a.prom", 1.7e9, samples, True)])
    assert observations.of(columns.vocabulary.BYTES_IN.mbean, "count", points=2) == []
    assert len(observations.of(columns.vocabulary.BYTES_IN.mbean, "count")) == 3


def test_the_large_scrape_benchmark_keeps_its_partitions_in_columns(tmp_path: Path) -> None:
    text = "".join(f'{LEO}{{instance="k-{r}",partition="{p}",topic="t"}} {p * 10 + r}\n' for p in range(50)
                   for r in range(3))  # fmt: skip
    (tmp_path / "scrape.prom").write_text(text)
    from advisor.metrics.files import observed
    from advisor.report.session import RunRequest

    read = observed([tmp_path / "scrape.prom"], RunRequest(paths=()).limits)
    assert read.observations.series == []  # nothing asked for them yet
    assert read.inputs[str(tmp_path / "scrape.prom")].series == 50
    ends = read.observations.of(columns.vocabulary.LOG_END_OFFSET.mbean)
    assert sorted(s.points[-1].value for s in ends) == [p * 10 + 2 for p in range(50)]  # each the furthest


def test_lines_taken_as_read_agree_on_generated_scrapes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scrapes shaped like a cluster's, read from files (the reader takes their lines into columns):
    replicas caught up (equal offsets: the first written is kept), a meter written twice alike and
    twice unlike, label-less files of one target and of two, a scrape with its cluster label."""
    import random

    from advisor.metrics.files import read_file
    from advisor.metrics.observe import wanted
    from advisor.report.session import RunRequest

    rng = random.Random(7)

    def scrape(instance: bool, extra: str = "", seed: int = 0) -> str:
        lines = []
        for topic in range(6):
            for partition in range(4):
                for replica in range(3):
                    who = f'instance="k-{replica}",' if instance else ""
                    lines.append(f'{LEO}{{{who}partition="{partition}",topic="t{topic}"{extra}}} '
                                 f"{100 * partition + rng.choice([0, 0, 1]) + seed}\n")  # fmt: skip
            for broker in range(3):
                who = f'instance="k-{broker}",' if instance else ""
                lines.append(f'{BYTES_IN}{{{who}topic="t{topic}"{extra}}} {1000 * topic + broker + seed}.0\n')
        lines.insert(5, lines[4])  # a line written twice alike
        lines.append(lines[-1].replace(" ", " 9", 1) if instance else lines[-1])  # twice unlike, or alike
        return "".join(lines)

    files = {"a.prom": scrape(True), "b.prom": scrape(True, seed=5), "c.prom": scrape(False),
             "d.prom": scrape(False, seed=9), "e.prom": scrape(True, ',strimzi_io_cluster="main"')}  # fmt: skip
    for name, text in files.items():
        (tmp_path / name).write_text(text)

    def read() -> list[Capture]:
        limits = RunRequest(paths=()).limits
        return [read_file(tmp_path / name, wanted(), limits, "prometheus", 1.7e9 + 60 * at)
                for at, name in enumerate(files)]  # fmt: skip

    first = read()
    assert all(capture.gathered is not None and capture.gathered.count > 50 for capture in first)
    _both_ways(read, monkeypatch)
    pair = _both_ways(lambda: read()[2:4], monkeypatch)  # two label-less files of one target: one node
    assert {s.node for s in pair.of(columns.vocabulary.BYTES_IN.mbean)} == {str(tmp_path / "c.prom")}


def test_the_flow_view_makes_the_end_offsets_of_the_partitions_groups_read(tmp_path: Path) -> None:
    from advisor.analysis import flow
    from advisor.metrics.files import observed
    from advisor.report.session import RunRequest

    text = "".join(f'{LEO}{{instance="k-{r}",partition="{p}",topic="t"}} {p * 10 + r}\n' for p in range(50)
                   for r in range(3))  # fmt: skip
    text += 'kafka_consumergroup_current_offset{consumergroup="billing",partition="7",topic="t"} 60\n'
    (tmp_path / "scrape.prom").write_text(text)
    read = observed([tmp_path / "scrape.prom"], RunRequest(paths=()).limits)
    (group,) = flow.view(read.observations).to_dict()["groups"]
    assert group["lag"] == 72 - 60  # partition 7's furthest replica: 72
    made = [s for s in read.observations.series if s.metric == columns.vocabulary.LOG_END_OFFSET.mbean]
    assert [s.label("partition") for s in made] == ["7"]  # the other 49 partitions' stay in columns
    assert len(read.observations.of(columns.vocabulary.LOG_END_OFFSET.mbean)) == 50  # asked for: all made
