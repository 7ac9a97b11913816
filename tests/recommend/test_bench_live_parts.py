"""bench's live stream, the parts that need no cluster: the Java consumer's result line read (and a
topic that stamps LogAppendTime refused: no send time, no end-to-end latency), which comparison a
bench runs for which goal and flags, and the live figures rendered with their verdicts. The live
runs themselves are proven on the test cluster (tests/integration/test_bench_live.py)."""

from __future__ import annotations

import argparse

import pytest

from advisor.bench import live, perf
from advisor.bench.compare import LIVE_FIGURES, Bench, Side
from advisor.cli.bench import _live_plan, add_arguments
from advisor.output import render
from advisor.recommend.plan import plan
from advisor.recommend.profile import LoadProfile

PRINTED = """ready
e2e records=40000 not-create-time=0 p50=6 p95=40 p99=88 p999=103 max=140
metric stream-fetch-total 1426.0
metric fetch-total 1431.0
metric fetch-latency-avg 21.9
metric fetch-rate not-a-number
"""


def test_the_consumer_s_result_is_read() -> None:
    read = live.e2e_summary(PRINTED)
    assert (read.records, read.p50, read.p99, read.p999) == (40000, 6.0, 88.0, 103.0)
    assert read.metrics == {"stream-fetch-total": 1426.0, "fetch-total": 1431.0, "fetch-latency-avg": 21.9}


def test_log_append_time_and_a_missing_result_are_errors() -> None:
    with pytest.raises(perf.PerfError, match="LogAppendTime"):
        live.e2e_summary(PRINTED.replace("not-create-time=0", "not-create-time=40000"))
    with pytest.raises(perf.PerfError, match="no result line"):
        live.e2e_summary("ready\n")


def test_the_highest_sustained_step_of_a_ramp() -> None:
    steps = [live.RampStep(2000, 1999.0, 40), live.RampStep(4000, 3990.0, 45), live.RampStep(8000, 6100.0, 900)]
    assert live.sustained(steps) == 4000
    assert live.sustained([live.RampStep(2000, 1200.0, 900)]) is None


def _args(*flags: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(["--bootstrap-server", "k:9092", "--classpath", "x", *flags])


@pytest.mark.parametrize(
    ("flags", "goal", "rate", "expected"),
    [
        ((), "throughput", None, None),  # the unbounded comparison only, as before
        ((), "latency", None, (None, None, False)),  # latency: live only, at a ramp's rate
        (("--live",), "balanced", None, (None, None, True)),  # both
        (("--throughput", "3000"), "throughput", None, (3000, None, False)),
        (("--throughput", "3000", "--unbounded"), "latency", None, (3000, None, True)),
        ((), "latency", 1500.0, (None, 1500, False)),  # the user's own rate caps the ramp's
    ],
)  # fmt: skip
def test_which_comparisons_a_bench_runs(flags: tuple[str, ...], goal: str, rate: float | None,
                                        expected: tuple | None) -> None:  # type: ignore[type-arg]  # fmt: skip
    args = _args(*flags)
    given = {"rate_msgs_s": rate} if rate else {}
    resolved = plan(LoadProfile(goal=goal, **given)).profile  # type: ignore[arg-type]
    found = _live_plan(args, resolved)
    assert (None if found is None else (found.rate, found.cap, found.unbounded)) == expected


def _run(p99: float, e2e: float) -> live.LiveResult:
    return live.LiveResult(3000.0, 4.0, p99, p99 + 3, 5.0, e2e, e2e + 4, 12.0, 8.0, {})


def test_a_live_comparison_is_rendered_with_its_verdicts() -> None:
    bench = Bench("t", 1000, 200, Side("before", {}, []), Side("after", {}, []),
                  live_before=Side("before", {"linger.ms": "5"}, [_run(p, 60) for p in (40, 42, 41, 43)], LIVE_FIGURES),
                  live_after=Side("after", {"linger.ms": "0"}, [_run(p, 30) for p in (20, 21, 22, 20)], LIVE_FIGURES),
                  live_rate=3000, live_records=30000)  # fmt: skip
    text = render(bench, "text")
    assert "live stream at 3,000 records/s (given)" in text
    assert next(line for line in text.splitlines() if line.startswith("p99 ms")).endswith("improved")
    assert "kafka-producer-perf-test on" not in text  # no unbounded runs: no table of them
    assert "after sets: linger.ms=0" in text
    record = bench.to_dict()
    assert record["live"]["verdicts"]["e2e_p99_ms"] == "improved" and record["verdicts"] == {}


def test_a_consumer_failure_is_said_without_its_secrets() -> None:
    """The consumer's last error line is shown, redacted: a client error may quote a setting."""
    import io

    class Ended:  # a finished process as subprocess.Popen leaves it: its exit code and stderr
        returncode = 1
        stderr = io.StringIO("Exception in thread main\n"
                             'org.apache.kafka.common.KafkaException: sasl.jaas.config=x password="hunter2";\n'
                             "\tat org.apache.kafka.clients.consumer.KafkaConsumer.<init>\n")  # fmt: skip

        def poll(self) -> int:
            return 1

    said = live._consumer_failed(Ended(), "before it was ready")  # type: ignore[arg-type]
    assert said.startswith("the end-to-end consumer failed before it was ready (exit 1): ")
    assert "hunter2" not in said and "KafkaException" in said
