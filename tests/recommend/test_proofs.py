"""The proof table and what `recommend` says of each value from it (advisor/recommend/proofs.py):
a row is built from bench's own JSON, its verdicts are the noise rule's on its runs, and a value
is called proven only by a row of its goal that set it and improved its goal's figure beyond the
noise — else it is labelled (no gain, measured worse, another value, the default, not a speed
setting, unproven). The committed proofs.json is held to the same rule and to the doc's table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from advisor.analysis.noise import compared
from advisor.bench.compare import CONSUMER_FIGURES, LIVE_FIGURES, LOWER_IS_BETTER, Bench, Side
from advisor.bench.live import LiveResult
from advisor.bench.perf import ConsumeResult, PerfResult
from advisor.recommend import proofs
from advisor.recommend.plan import plan
from advisor.recommend.profile import GOALS, LoadProfile

REPO_ROOT = Path(__file__).resolve().parents[2]


def _producer(rate: float) -> PerfResult:
    return PerfResult(100_000, rate, rate * 200 / 1048576, 5.0, 90.0, 4.0, 20.0, 40.0, 60.0, {})


def _live(p99: float, e2e_p99: float, fetches: float) -> LiveResult:
    return LiveResult(4000.0, 4.0, p99, p99 + 5, 5.0, e2e_p99, e2e_p99 + 9, fetches, 20.0, {})


def _bench() -> dict[str, Any]:
    """A bench run as bench's JSON has it: producer, backlog consumer and live sides, four runs each."""
    before = {"bootstrap.servers": "k:9092", "acks": "all"}
    after = {**before, "linger.ms": "20", "batch.size": "131072"}
    consumer_after = {"fetch.min.bytes": "1000000"}
    bench = Bench(
        "t", 100_000, 200,
        Side("before", before, [_producer(r) for r in (50_000, 52_000, 49_000, 51_000)]),
        Side("after", after, [_producer(r) for r in (120_000, 118_000, 125_000, 121_000)]),
        Side("before", before, [ConsumeResult(1, 1, m, m * 5000) for m in (30.0, 34.0, 31.0, 33.0)], CONSUMER_FIGURES),
        Side("after", after, [ConsumeResult(1, 1, m, m * 5000) for m in (32.0, 29.0, 33.0, 31.5)], CONSUMER_FIGURES),
        live_before=Side("before", before, [_live(40, 45, f) for f in (35.0, 36.0, 34.5, 35.5)], LIVE_FIGURES),
        live_after=Side("after", {**after, **{f"consumer {k}": v for k, v in consumer_after.items()}},
                        [_live(38, 520, f) for f in (1.5, 1.4, 1.6, 1.5)], LIVE_FIGURES),
        live_rate=4000, live_records=40_000,
    )  # fmt: skip
    return bench.to_dict()


def test_a_row_is_built_from_bench_json_with_the_rule_s_verdicts() -> None:
    row = proofs.row_of("throughput", "throughput", 200, (), _bench())
    assert row["id"] == "throughput-200B" and row["live_rate"] == 4000
    assert row["producer"] == {"batch.size": "131072", "linger.ms": "20"}  # acks is on both sides
    assert row["consumer"] == {"fetch.min.bytes": "1000000"}
    rate = row["figures"]["producer.records_per_second"]
    assert rate["verdict"] == "improved" and rate["before"] == 50_500 and rate["after_runs"][0] == 120_000
    assert row["figures"]["consumer.fetch_mib_per_second"]["verdict"] == "inconclusive"
    assert row["figures"]["live.fetches_per_1000_records"]["verdict"] == "improved"  # fewer is better
    assert row["figures"]["live.e2e_p99_ms"]["verdict"] == "regressed"
    table = proofs.markdown({"measured": "today", "setup": "here", "rounds": 4, "rows": [row]})
    assert "### throughput-200B" in table and "| producer records/s | 50,500 ±1,500 | 120,500 ±3,500 | 2.39× |" in table


def test_each_value_is_judged_by_its_goal_s_figure() -> None:
    data = {"rows": [proofs.row_of("throughput", "throughput", 200, (), _bench())]}

    def judged(component: str, key: str, value: str, goal: str = "throughput", size: float = 300) -> proofs.Proof:
        return proofs.judge(component, key, value, goal, size, data=data)

    assert judged("producer", "linger.ms", "20").status == "proven"
    assert "row throughput-200B" in judged("producer", "linger.ms", "20").text
    fetch = judged("consumer", "fetch.min.bytes", "1000000")
    assert fetch.status == "no-gain" and "what it buys: fetches per 1000 records 35.2 → 1.5" in fetch.text
    assert judged("producer", "linger.ms", "35").status == "other-value"  # the row measured 20
    assert judged("producer", "compression.type", "lz4").status == "unproven"  # no row set it
    assert judged("producer", "linger.ms", "20", size=90_000).status == "unproven"  # no 100 KB row
    assert judged("producer", "linger.ms", "20", goal="latency").status == "unproven"
    assert judged("producer", "acks", "all").status == "not-speed"
    assert proofs.judge("producer", "linger.ms", "5", "latency", 200, default=5, data=data).status == "default"
    latency = {"rows": [proofs.row_of("latency", "latency", 200, (), _bench())]}
    assert proofs.judge("producer", "linger.ms", "20", "latency", 200, data=latency).status == "regressed"


def test_a_row_that_changed_only_the_component_speaks_for_it_and_costs_are_said() -> None:
    both = proofs.row_of("throughput", "throughput", 200, (), _bench())
    alone = {**both, "id": "throughput-consumer-200B", "producer": {}}
    for rows in ([both, alone], [alone, both]):
        fetch = proofs.judge("consumer", "fetch.min.bytes", "1000000", "throughput", 200, data={"rows": rows})
        assert fetch.row == "throughput-consumer-200B", fetch
    assert "what it costs: e2e p50 ms" not in fetch.text  # the fixture's e2e p50 did not move
    assert "what it costs: e2e p99 ms 45.0 → 520 (11.56×, regressed)" in fetch.text
    # end-to-end figures are charged to the producer only where the row left the consumer alone
    linger = proofs.judge("producer", "linger.ms", "20", "throughput", 200, data={"rows": [both]})
    assert linger.status == "proven" and "e2e" not in linger.text
    producer_only = {**both, "consumer": {"enable.auto.commit": "false"}}  # not a speed value
    linger = proofs.judge("producer", "linger.ms", "20", "throughput", 200, data={"rows": [producer_only]})
    assert linger.status == "proven" and "what it costs: e2e p99 ms" in linger.text


def test_the_committed_verdicts_are_the_rule_s_on_the_committed_runs() -> None:
    data = proofs.load()
    for row in data["rows"]:
        for name, figure in row["figures"].items():
            better = "down" if name.endswith(LOWER_IS_BETTER) else "up"
            verdict = compared(figure["before_runs"], figure["after_runs"], better)[2]
            assert verdict == figure["verdict"], (row["id"], name)


def test_the_doc_s_table_is_proofs_json_s() -> None:
    finished = subprocess.run([sys.executable, str(REPO_ROOT / "tools" / "bench_profiles.py"), "--check"],
                              capture_output=True, text=True, timeout=60)  # fmt: skip
    assert finished.returncode == 0, finished.stderr


@pytest.mark.parametrize("size", [200, 100_000])
@pytest.mark.parametrize("goal", GOALS)
def test_every_preset_s_client_values_are_proven_or_labelled(goal: str, size: int) -> None:
    """Issue #29's bar: each producer and consumer value of each preset is proven beyond the noise
    for its goal or says why not — and none is left unmeasured by the table."""
    assert proofs.load()["rows"], "advisor/recommend/proofs.json: no rows (tools/bench_profiles.py)"
    made = plan(LoadProfile(goal=goal, message_bytes_avg=size))  # type: ignore[arg-type]
    for recommendation in made.recommendations:
        measured = made.measured(recommendation)
        if recommendation.component not in ("producer", "consumer"):
            assert measured is None
            continue
        assert measured.status in ("proven", "no-gain", "regressed", "default", "not-speed"), (
            recommendation.key,
            measured,
        )
        if measured.status != "proven":
            assert "proven" not in measured.text.replace("unproven", "")


def test_defaults_that_fit_are_said_not_listed_as_changes() -> None:
    made = plan(LoadProfile(goal="latency", message_bytes_avg=200))
    assert made.defaults_fit("producer") == ["linger.ms", "compression.type"]  # Java 4.x's defaults
    assert "the defaults already fit this profile: linger.ms, compression.type" in _text(made)
    assert plan(LoadProfile(goal="latency", p99_ms=40)).defaults_fit("producer") == ["linger.ms", "compression.type"]
    tight = plan(LoadProfile(goal="latency", p99_ms=10))  # a quarter of 10 ms: linger.ms 2, a change
    assert tight.defaults_fit("producer") == []
    linger = next(r for r in tight.recommendations if r.key == "linger.ms")
    assert linger.value == "2" and tight.measured(linger).status == "other-value"  # the table measured 0 and 5
    assert plan(LoadProfile(goal="throughput")).defaults_fit("producer") == []
    librdkafka = plan(LoadProfile(goal="latency"), client="librdkafka")
    assert librdkafka.to_dict()["recommendations"][0]["measured"]["status"] == "not-speed"


def _text(made: Any) -> str:
    from advisor.output import render

    return render(made, "text")
