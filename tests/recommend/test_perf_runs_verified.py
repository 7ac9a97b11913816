"""A saved kafka-producer-perf-test run is a metrics input: `verify` and `analyze` read its summary
figures and its --print-metrics producer metrics, and `verify` over the runs `bench` made gives
bench's verdict (one rule judges both: advisor/analysis/noise.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from advisor.bench.compare import Bench, Side
from advisor.metrics import sniff
from advisor.metrics.perf_output import summary

PROGRESS = "52340 records sent, 10468.0 records/sec (1.00 MB/sec), 21.4 ms avg latency, 61.0 ms max latency."


def run_output(rate: float, batch: float, p99: int) -> str:
    """One run as the tool prints it with --print-metrics (our values, its shape)."""
    final = (f"300000 records sent, {rate:.1f} records/sec ({rate * 100 / 1048576:.2f} MB/sec), 9.10 ms avg latency, "
             f"80.00 ms max latency, 6 ms 50th, 20 ms 95th, {p99} ms 99th, 70 ms 99.9th.")  # fmt: skip
    metrics = [
        "Metric Name                                                              Value",
        "app-info:commit-id:{client-id=perf-producer-client}                    : 2ae524ed625438c5",
        f"producer-metrics:batch-size-avg:{{client-id=perf-producer-client}}      : {batch:.3f}",
        "producer-metrics:record-size-avg:{client-id=perf-producer-client}     : 186.000",
        "producer-metrics:record-queue-time-avg:{client-id=perf-producer-client} : 3.250",
        f"producer-topic-metrics:byte-rate:{{client-id=perf-producer-client, topic=bench}} : {rate * 100:.3f}",
    ]
    return "\n".join([PROGRESS, final, "", *metrics]) + "\n"


def _saved(folder: Path, name: str, outputs: list[str]) -> list[Path]:
    paths = []
    for index, output in enumerate(outputs):
        path = folder / f"{name}-{index}.txt"
        path.write_text(output)
        paths.append(path)
    return paths


def test_a_saved_run_is_recognised_as_client_metrics(tmp_path: Path) -> None:
    assert sniff.kind(run_output(40000, 16000, 30)) == "client-metrics:perf-test"
    assert sniff.kind("500 records sent somewhere in a README\n") is None


def test_verify_over_bench_s_runs_gives_bench_s_verdict(tmp_path: Path) -> None:
    before = [run_output(rate, 3000, 25) for rate in (20000, 21500, 19800, 20700)]
    after = [run_output(rate, 15000, 31) for rate in (58000, 61000, 57500, 59900)]
    runs = {side: [summary(text) for text in texts] for side, texts in (("before", before), ("after", after))}
    bench = Bench("bench", 300000, 100, Side("before", {}, runs["before"]), Side("after", {}, runs["after"]))
    assert bench.verdict("records_per_second") == "improved" and bench.verdict("p99_ms") == "regressed"
    paths = {side: _saved(tmp_path, side, texts) for side, texts in (("before", before), ("after", after))}
    result = subprocess.run([sys.executable, "-m", "advisor", "verify", "--before", *map(str, paths["before"]),
                             "--after", *map(str, paths["after"]), "--expect", "linger.ms", "--output-format", "json"],
                            capture_output=True, text=True, timeout=120)  # fmt: skip
    verdicts = {v["metric"]: v for v in json.loads(result.stdout)["verdicts"]}
    assert verdicts["records a second (perf test)"]["verdict"] == bench.verdict("records_per_second")
    assert (
        verdicts["records a second (perf test)"]["before"]["median"] == bench.before.figure("records_per_second").median
    )
    assert verdicts["batch size (bytes)"]["verdict"] == "improved"  # the printed metrics are read too


def test_runs_within_the_noise_are_inconclusive_for_both(tmp_path: Path) -> None:
    bench, verdict = _bench_and_verify(tmp_path, (20000, 26000), (21000, 24000))
    assert bench.verdict("records_per_second") == verdict["verdict"] == "inconclusive"


def _bench_and_verify(tmp_path: Path, before_rates: tuple[int, ...],
                      after_rates: tuple[int, ...]) -> tuple[Bench, dict]:  # type: ignore[type-arg]  # fmt: skip
    """Runs of these rates as a Bench, and verify's verdict on records a second over them saved."""
    before = [run_output(rate, 3000, 25) for rate in before_rates]
    after = [run_output(rate, 3000, 25) for rate in after_rates]
    bench = Bench("bench", 300000, 100, Side("before", {}, [summary(t) for t in before]),
                  Side("after", {}, [summary(t) for t in after]))  # fmt: skip
    sides = [*map(str, _saved(tmp_path, "b", before)), "--after", *map(str, _saved(tmp_path, "a", after))]
    result = subprocess.run([sys.executable, "-m", "advisor", "verify", "--before", *sides,
                             "--expect", "batch.size", "--output-format", "json"],
                            capture_output=True, text=True, timeout=120)  # fmt: skip
    return bench, {v["metric"]: v for v in json.loads(result.stdout)["verdicts"]}["records a second (perf test)"]


def test_three_runs_a_side_give_no_verdict_however_far_apart(tmp_path: Path) -> None:
    """Three runs against three, wholly apart, arise by chance one time in ten (2/20): no verdict,
    in bench and in verify alike; the fourth run of each side gives one."""
    bench, verdict = _bench_and_verify(tmp_path, (20000, 21000, 20500), (40000, 41000, 40500))
    assert bench.verdict("records_per_second") == "inconclusive"
    assert verdict["verdict"] == "inconclusive" and "p = 0.1" in verdict["why"], verdict
    more = Bench("bench", 300000, 100, Side("before", {}, [*bench.before.runs, summary(run_output(20200, 3000, 25))]),
                 Side("after", {}, [*bench.after.runs, summary(run_output(40200, 3000, 25))]))  # fmt: skip
    assert more.verdict("records_per_second") == "improved"


def test_a_run_cut_short_is_an_error_with_its_file(tmp_path: Path) -> None:
    cut = tmp_path / "cut.txt"
    cut.write_text(f"{PROGRESS}\n{PROGRESS}\n")
    good = _saved(tmp_path, "good", [run_output(20000, 3000, 25)])
    result = subprocess.run([sys.executable, "-m", "advisor", "verify", "--before", str(cut), "--after", str(good[0])],
                            capture_output=True, text=True, timeout=120)  # fmt: skip
    assert result.returncode == 2 and "cut.txt" in result.stderr and "a run cut short" in result.stderr
