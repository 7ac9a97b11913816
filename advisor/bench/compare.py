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
from typing import Any, NamedTuple

from advisor.bench import perf

FIGURES = ("records_per_second", "mib_per_second", "p50_ms", "p95_ms", "p99_ms", "p999_ms")


class Figure(NamedTuple):
    median: float
    spread: float  # max - min over the runs


class Side(NamedTuple):
    name: str
    settings: dict[str, str]
    runs: list[perf.PerfResult]

    def figure(self, name: str) -> Figure:
        values = [getattr(r, name) for r in self.runs]
        return Figure(statistics.median(values), max(values) - min(values))

    def explaining(self) -> dict[str, float]:
        """The median of each explaining producer metric over the runs that printed it."""
        names = sorted({name for run in self.runs for name in run.metrics})
        return {name: statistics.median([r.metrics[name] for r in self.runs if name in r.metrics]) for name in names}

    def to_dict(self) -> dict[str, Any]:
        shown = {k: v for k, v in self.settings.items() if k != "bootstrap.servers"}
        return {"name": self.name, "settings": shown, "runs": [r._asdict() for r in self.runs],
                **{name: self.figure(name)._asdict() for name in FIGURES}, "metrics": self.explaining()}  # fmt: skip


class Bench(NamedTuple):
    topic: str
    records: int
    size: int
    before: Side
    after: Side

    def ratio(self, name: str) -> float | None:
        base = self.before.figure(name).median
        return self.after.figure(name).median / base if base else None

    def to_dict(self) -> dict[str, Any]:
        return {"topic": self.topic, "records": self.records, "record_size": self.size,
                "before": self.before.to_dict(), "after": self.after.to_dict(),
                "ratios": {name: self.ratio(name) for name in FIGURES}}  # fmt: skip


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


def run(
    tool: perf.Tool,
    topic: str,
    before: dict[str, str],
    after: dict[str, str],
    records: int,
    size: int,
    rounds: int,
    progress: Callable[[str], None] = lambda _: None,
) -> Bench:
    results: dict[str, list[perf.PerfResult]] = {"before": [], "after": []}
    with tempfile.TemporaryDirectory(prefix="kafka-advisor-bench-") as folder:
        files = {
            "before": _properties(Path(folder), "before", before),
            "after": _properties(Path(folder), "after", after),
        }
        plan = [(side, True) for side in ("before", "after")] + [(side, False) for _ in range(rounds)
                                                                 for side in ("before", "after")]  # fmt: skip
        for number, (side, warmup) in enumerate(plan, start=1):
            progress(f"run {number}/{len(plan)}: {side}{' (warm-up)' if warmup else ''}")
            result = perf.run(tool, topic, max(1000, records // 5) if warmup else records, size, files[side])
            if not warmup:
                results[side].append(result)
    return Bench(
        topic, records, size, Side("before", before, results["before"]), Side("after", after, results["after"])
    )
