"""The observer's worked-out shapes (observe._plan) give the series the general way gives: every
exposition file of the fixtures and tests, and shapes that decide by value, observed both ways."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.metrics import observe as observing
from advisor.metrics.exposition import Sample
from advisor.metrics.inputs import Capture
from advisor.model.observations import Observations

REPO_ROOT = Path(__file__).resolve().parents[2]
LEO, BYTES_IN = "kafka_log_log_logendoffset", "kafka_server_brokertopicmetrics_bytesin_total"
URP = "kafka_server_replicamanager_underreplicatedpartitions"
TOTAL_TIME = "kafka_network_requestmetrics_totaltimems"
SHAPES = [
    Sample(LEO, (("instance", "k-1:7071"), ("partition", "0"), ("topic", "t")), 10.0, None, 1),
    Sample(LEO, (("instance", "k-2:7071"), ("partition", "0"), ("topic", "t")), 12.0, None, 2),
    Sample(BYTES_IN, (("Pod", "kafka-0"), ("topic", "t")), 5.0, None, 3),
    Sample(BYTES_IN, (("pod", ""), ("instance", "k-9"), ("topic", "u"), ("strimzi_io_cluster", "main")), 6.0, None, 4),
    Sample(URP, (("job", "kafka"), ("kafka_cluster", "c1"), ("cluster", "c2")), 1.0, None, 5),
    Sample(TOTAL_TIME, (("request", "Produce"), ("quantile", "0.99")), 3.0, None, 6),
    Sample(TOTAL_TIME, (("request", "Produce"),), 300.0, None, 7),
    Sample("kafka_server_replicamanager_value", (("name", "UnderReplicatedPartitions"),), 2.0, None, 8),
    Sample("process_start_time_seconds", (), 1.7e9, None, 9),
    Sample(BYTES_IN, (("topic", "t"), ("TOPIC", "v")), 7.0, None, 10),
]


def _as_records(observations: Observations) -> list[tuple]:  # type: ignore[type-arg]
    return sorted((s.metric, s.reading, s.node, str(s.cluster), s.labels, s.written, s.scale,
                   tuple((p.time, p.value, str(p.place)) for p in s.points)) for s in observations.series)  # fmt: skip


def _both_ways(captures: list[Capture], monkeypatch: pytest.MonkeyPatch) -> None:
    planned, planned_problems = observing.observe(captures)
    with monkeypatch.context() as patched:
        patched.setattr(observing, "_plan", lambda name, names: None)  # every sample the general way
        general, general_problems = observing.observe(captures)
    assert _as_records(planned) == _as_records(general)
    assert planned_problems == general_problems


def test_the_shapes_that_decide_by_name_and_by_value_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    _both_ways([Capture("scrape.prom", 1_700_000_000.0, SHAPES, True)], monkeypatch)


def test_every_exposition_fixture_is_observed_alike_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    from advisor.metrics.files import metric_format, read_file
    from advisor.metrics.observe import wanted
    from advisor.metrics.sniff import EXPOSITION
    from advisor.model.document import LoadError
    from advisor.report.session import RunRequest

    limits = RunRequest(paths=()).limits
    paths = [p for folder in ("fixtures", "tests") for p in (REPO_ROOT / folder).rglob("*") if p.is_file()]
    found = [p for p in paths if p.suffix in (".prom", ".txt", ".metrics") and metric_format(p) == EXPOSITION]
    captures = []
    for path in found:
        try:
            captures.append(read_file(path, wanted(), limits, EXPOSITION, 1_700_000_000.0))
        except LoadError:
            continue  # a fixture of a malformed file
    assert len(captures) > 10
    for capture in captures:
        _both_ways([capture], monkeypatch)
