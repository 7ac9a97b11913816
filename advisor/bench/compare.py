"""Two producer configurations benchmarked in turn on one topic the bench creates and deletes:
a warm-up of each, then A B A B ...; each side's figures as the median and spread of its runs,
and the ratios of B over A."""

from __future__ import annotations

import statistics
import tempfile
import uuid
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from advisor.bench import live, perf
from advisor.named_tuple import NamedTuple
from advisor.secrets import REDACTED, is_secret_key

FIGURES = ("records_per_second", "mib_per_second", "p50_ms", "p95_ms", "p99_ms", "p999_ms")
CONSUMER_FIGURES = ("fetch_mib_per_second", "fetch_records_per_second")
# A live stream at a bounded rate (advisor/bench/live.py): the producer's latency there, each record's
# end-to-end latency, and what the consumer's fetching cost.
LIVE_FIGURES = ("records_per_second", "p50_ms", "p99_ms", "p999_ms", "e2e_p50_ms", "e2e_p99_ms", "e2e_p999_ms",
                "fetches_per_1000_records", "fetch_latency_avg_ms")  # fmt: skip
LOWER_IS_BETTER = ("_ms", "fetches_per_1000_records")
LIVE_SECONDS = 10  # how long a live run streams


class Figure(NamedTuple):
    median: float
    spread: float  # max - min over the runs


class Side(NamedTuple):
    name: str
    settings: dict[str, str]
    runs: list[Any]  # perf.PerfResult, or perf.ConsumeResult for a consumer side
    figures: tuple[str, ...] = FIGURES

    @property
    def measured(self) -> bool:
        return bool(self.runs)

    def figure(self, name: str) -> Figure:
        values = [getattr(r, name) for r in self.runs]
        return Figure(statistics.median(values), max(values) - min(values))

    def explaining(self) -> dict[str, float]:
        """The median of each explaining producer metric over the runs that printed it."""
        names = sorted({name for run in self.runs for name in getattr(run, "metrics", {})})
        return {name: statistics.median([r.metrics[name] for r in self.runs if name in r.metrics]) for name in names}

    def to_dict(self) -> dict[str, Any]:
        shown = {k: v for k, v in self.settings.items() if k != "bootstrap.servers"}
        figures = {name: self.figure(name)._asdict() for name in self.figures} if self.runs else {}
        runs = [r._asdict() for r in self.runs]
        return {"name": self.name, "settings": shown, "runs": runs, **figures, "metrics": self.explaining()}


class Bench(NamedTuple):
    topic: str
    records: int
    size: int
    before: Side
    after: Side
    consumer_before: Side | None = None
    consumer_after: Side | None = None
    payload: perf.Payload | None = None  # the records came from this file (size: their average)
    live_before: Side | None = None  # the live stream (producer and consumer settings of each side)
    live_after: Side | None = None
    live_rate: int | None = None  # records a second the live runs were bounded to
    live_records: int = 0
    ramp: tuple[Any, ...] = ()  # live.RampStep: how the rate was found (empty: it was given)

    @property
    def KIND(self) -> str:  # its renderers: output/__init__.py RENDERERS
        return "bench"

    def verdict(self, name: str, before: Side | None = None, after: Side | None = None) -> str:
        """Whether `after` did better on a figure than `before`, beyond the noise of their runs:
        verify's rule (advisor/verify/compare.py), so the same runs saved give verify's verdict."""
        from advisor.analysis.noise import compared

        before, after = before or self.before, after or self.after
        better = "down" if name.endswith(LOWER_IS_BETTER) else "up"
        _, _, verdict, _ = compared([getattr(r, name) for r in before.runs], [getattr(r, name) for r in after.runs],
                                    better)  # fmt: skip
        return verdict

    def ratio(self, name: str, before: Side | None = None, after: Side | None = None) -> float | None:
        before, after = before or self.before, after or self.after
        base = before.figure(name).median
        return after.figure(name).median / base if base else None

    def redacted(self) -> Bench:
        """No secret in any output: every side's settings without the cluster's credentials."""

        def shown(side: Side) -> Side:
            return side._replace(settings={k: REDACTED if is_secret_key(k) else v for k, v in side.settings.items()})

        names = ("before", "after", "consumer_before", "consumer_after", "live_before", "live_after")
        sides: dict[str, Any] = {name: shown(side) for name in names if (side := getattr(self, name)) is not None}
        return self._replace(**sides)

    def to_dict(self) -> dict[str, Any]:
        measured = self.before.measured
        record = {"topic": self.topic, "records": self.records, "record_size": self.size,
                  "payload_file": None if self.payload is None else {"name": self.payload.path.name,
                                                                     "records": self.payload.records},
                  "before": self.before.to_dict(), "after": self.after.to_dict(),
                  "ratios": {name: self.ratio(name) for name in FIGURES} if measured else {},
                  "verdicts": {name: self.verdict(name) for name in FIGURES} if measured else {}}  # fmt: skip
        if self.consumer_before is not None and self.consumer_after is not None:
            ratios = {name: self.ratio(name, self.consumer_before, self.consumer_after) for name in CONSUMER_FIGURES}
            verdicts = {name: self.verdict(name, self.consumer_before, self.consumer_after)
                        for name in CONSUMER_FIGURES}  # fmt: skip
            record["consumer"] = {"before": self.consumer_before.to_dict(), "after": self.consumer_after.to_dict(),
                                  "ratios": ratios, "verdicts": verdicts}  # fmt: skip
        if self.live_before is not None and self.live_after is not None:
            live_sides = (self.live_before, self.live_after)
            record["live"] = {"rate": self.live_rate, "records": self.live_records,
                              "ramp": [step._asdict() for step in self.ramp],
                              "before": self.live_before.to_dict(), "after": self.live_after.to_dict(),
                              "ratios": {name: self.ratio(name, *live_sides) for name in LIVE_FIGURES},
                              "verdicts": {name: self.verdict(name, *live_sides) for name in LIVE_FIGURES}}  # fmt: skip
        return record


class Live(NamedTuple):
    """Live runs asked for: at `rate` records a second, or (None) half the highest rate a short ramp
    finds the before side sustains, at most `cap` (the profile's own rate, when given)."""

    rate: int | None = None
    cap: int | None = None
    unbounded: bool = False  # the unbounded producer (and backlog consumer) runs as well


@contextmanager
def bench_topic(admin_config: dict[str, str], partitions: int, replication: int, min_isr: int):  # type: ignore[no-untyped-def]
    """A topic of the bench's own, deleted however the bench ends; no other topic is touched."""
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient(admin_config)
    name = f"kafka-advisor-bench-{uuid.uuid4().hex[:10]}"
    topic = NewTopic(name, num_partitions=partitions, replication_factor=replication,
                     config={"min.insync.replicas": str(min_isr)})  # fmt: skip
    admin.create_topics([topic], request_timeout=60)[name].result(timeout=120)
    try:
        yield name
    finally:
        admin.delete_topics([name], request_timeout=60)[name].result(timeout=120)


def _properties(folder: Path, name: str, settings: dict[str, str]) -> Path:
    path = folder / f"{name}.properties"
    path.write_text("".join(f"{key}={value}\n" for key, value in settings.items()))
    path.chmod(0o600)  # it may hold the cluster's credentials
    return path


def _interleaved(rounds: int) -> list[tuple[str, bool]]:
    """A warm-up of each side, then before, after, before, after, ..."""
    return [(side, True) for side in ("before", "after")] + [(side, False) for _ in range(rounds)
                                                             for side in ("before", "after")]  # fmt: skip


def run(
    tool: perf.Tool,
    topic: str,
    before: dict[str, str],
    after: dict[str, str],
    records: int,
    size: int,
    rounds: int,
    progress: Callable[[str], None] = lambda _: None,
    consumers: tuple[dict[str, str], dict[str, str]] | None = None,
    throughput: int = -1,
    payload: perf.Payload | None = None,
    save: Callable[[str, str], None] | None = None,
    live_plan: Live | None = None,
    cluster: dict[str, str] | None = None,
) -> Bench:
    """The producer sides interleaved; then, with `consumers` (their before and after settings),
    the consumer sides reading the records the producers wrote, each run in a group of its own.
    `cluster`: the settings every client needs (bootstrap servers, security), for a live consumer
    when `consumers` gives none. `save(name, output)`: each counted producer run's output
    (`before-1`, `after-1`, ...; a live stream's producer runs `live-before-1`, ...)."""
    results: dict[str, list[Any]] = {"before": [], "after": []}
    read: dict[str, list[Any]] = {"before": [], "after": []}
    streamed: dict[str, list[Any]] = {"before": [], "after": []}
    plan = _interleaved(rounds)
    unbounded = live_plan is None or live_plan.unbounded
    total = (len(plan) * (2 if consumers else 1) if unbounded else 0) + (len(plan) if live_plan else 0)
    with tempfile.TemporaryDirectory(prefix="kafka-advisor-bench-") as folder:
        files = {side: _properties(Path(folder), side, settings) for side, settings in (("before", before),
                                                                                       ("after", after))}  # fmt: skip
        for number, (side, warmup) in enumerate(plan if unbounded else [], start=1):
            progress(f"run {number}/{total}: producer {side}{' (warm-up)' if warmup else ''}")
            name = f"{side}-{len(results[side]) + 1}"
            kept = (lambda output, name=name: save(name, output)) if save and not warmup else None
            result = perf.run(tool, topic, max(1000, records // 5) if warmup else records, size, files[side],
                              throughput, payload=payload.path if payload else None, keep=kept)  # fmt: skip
            if not warmup:
                results[side].append(result)
        bootstrap = before["bootstrap.servers"]
        common = cluster or {"bootstrap.servers": bootstrap}  # a live consumer without settings of its own
        consumer_settings = dict(zip(("before", "after"), consumers or (common, common), strict=True))
        consumer_files = {side: _properties(Path(folder), f"consumer-{side}", consumer_settings[side])
                          for side in consumer_settings}  # fmt: skip
        if consumers and unbounded:
            for number, (side, warmup) in enumerate(plan, start=len(plan) + 1):
                progress(f"run {number}/{total}: consumer {side}{' (warm-up)' if warmup else ''}")
                group = f"kafka-advisor-bench-{uuid.uuid4().hex[:10]}"
                result = perf.consume(tool, topic, max(1000, records // 5) if warmup else records,
                                      consumer_files[side], bootstrap, group)  # fmt: skip
                if not warmup:
                    read[side].append(result)
        rate: int | None = None
        steps: list[Any] = []
        live_records = 0
        if live_plan is not None:
            rate, steps = _live_rate(tool, topic, size, files["before"], live_plan, progress, payload)
            live_records = max(1000, rate * LIVE_SECONDS)
            for number, (side, warmup) in enumerate(plan, start=total - len(plan) + 1):
                progress(f"run {number}/{total}: live stream {side} at {rate:,} records/s"
                         f"{' (warm-up)' if warmup else ''}")  # fmt: skip
                name = f"live-{side}-{len(streamed[side]) + 1}"
                kept = (lambda output, name=name: save(name, output)) if save and not warmup else None
                stream = live.run(tool, topic, max(1000, live_records // 5) if warmup else live_records, size,
                                  files[side], consumer_files[side], bootstrap, rate,
                                  payload=payload.path if payload else None, keep=kept)  # fmt: skip
                if not warmup:
                    streamed[side].append(stream)
    size = payload.average_bytes if payload else size
    bench = Bench(topic, records, size, Side("before", before, results["before"]),
                  Side("after", after, results["after"]), payload=payload)  # fmt: skip
    if consumers:
        bench = bench._replace(consumer_before=Side("before", consumers[0], read["before"], CONSUMER_FIGURES),
                               consumer_after=Side("after", consumers[1], read["after"], CONSUMER_FIGURES))  # fmt: skip
    if live_plan is not None:
        both = {side: {**settings, **{f"consumer {k}": v for k, v in consumer_settings[side].items()
                                      if k != "bootstrap.servers"}}
                for side, settings in (("before", before), ("after", after))}  # fmt: skip
        bench = bench._replace(live_before=Side("before", both["before"], streamed["before"], LIVE_FIGURES),
                               live_after=Side("after", both["after"], streamed["after"], LIVE_FIGURES),
                               live_rate=rate, live_records=live_records, ramp=tuple(steps))  # fmt: skip
    return bench


def _live_rate(tool: perf.Tool, topic: str, size: int, config: Path, plan: Live,
               progress: Callable[[str], None], payload: perf.Payload | None) -> tuple[int, list[Any]]:  # fmt: skip
    """The live runs' rate: the one given, else half the highest bound the before side sustains
    in a short ramp (so that both sides run well below where queueing starts), at most the cap."""
    if plan.rate is not None:
        return plan.rate, []
    start = max(10, min(2000, 10_000_000 // max(1, size)))  # about 10 MB/s or 2000 records a second at first
    steps = live.ramp(tool, topic, size, config, start, progress, payload=payload.path if payload else None)
    kept = live.sustained(steps)
    if kept is None:
        raise perf.PerfError(f"the cluster did not sustain {steps[0].asked:,} records/s of {size} bytes with the "
                             "before side's settings: give a rate with --throughput")  # fmt: skip
    rate = max(1, kept // 2)
    return (min(rate, plan.cap) if plan.cap else rate), steps
