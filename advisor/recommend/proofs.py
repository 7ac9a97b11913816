"""What the proof table measured (proofs.json, written by tools/bench_profiles.py on the test
cluster) and what it says of one recommended value: proven beyond the noise for its goal, measured
without a gain, measured at another value, the client's default already, not a speed setting at
all, or unproven — so that `recommend` never sells as an improvement what `bench` could not show.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

from advisor.named_tuple import NamedTuple

PROOFS_FILE = Path(__file__).resolve().parent / "proofs.json"
DOC = "docs/performance.md#the-proof-table"

# The figures kept of a bench run, by where they were measured (bench's JSON: advisor/bench/compare.py).
KEPT = {
    "producer": ("records_per_second", "mib_per_second"),  # unbounded producer runs
    "consumer": ("fetch_mib_per_second",),  # kafka-consumer-perf-test reading the backlog
    "live": ("records_per_second", "p50_ms", "p99_ms", "e2e_p50_ms", "e2e_p99_ms", "e2e_p999_ms",
             "fetches_per_1000_records"),
}  # fmt: skip
FIGURE_NAMES = {
    "producer.records_per_second": "producer records/s", "producer.mib_per_second": "producer MiB/s",
    "consumer.fetch_mib_per_second": "consumer fetch MiB/s (backlog)", "live.records_per_second": "live records/s",
    "live.p50_ms": "live producer p50 ms", "live.p99_ms": "live producer p99 ms", "live.e2e_p50_ms": "e2e p50 ms",
    "live.e2e_p99_ms": "e2e p99 ms", "live.e2e_p999_ms": "e2e p99.9 ms",
    "live.fetches_per_1000_records": "fetches per 1000 records",
}  # fmt: skip
# What each goal asks of a producer and a consumer value: the figures whose improvement proves it.
GOAL_FIGURES = {
    ("throughput", "producer"): ("producer.records_per_second",),
    ("throughput", "consumer"): ("consumer.fetch_mib_per_second",),
    # the latency goal's target is end to end (the profile's p99_ms): the producer's own p99 is a part
    ("latency", "producer"): ("live.e2e_p99_ms",),
    ("latency", "consumer"): ("live.e2e_p99_ms",),
}
for _goal in ("durability", "availability", "balanced"):  # batching for throughput, at no loss of latency
    GOAL_FIGURES[(_goal, "producer")] = ("producer.records_per_second",)
    GOAL_FIGURES[(_goal, "consumer")] = ("consumer.fetch_mib_per_second",)
# What a value may buy when its goal's figure does not move (fewer fetches a record on the brokers,
# a shorter tail at a sustained rate), and the figures whose regression is its cost.
BUYS = {
    "consumer": ("live.fetches_per_1000_records",),
    "producer": ("live.p50_ms", "live.p99_ms", "live.e2e_p99_ms", "live.fetches_per_1000_records"),
}
COSTS = {"consumer": ("live.e2e_p50_ms", "live.e2e_p99_ms", "live.e2e_p999_ms"),
         "producer": ("live.p50_ms", "live.p99_ms", "live.e2e_p50_ms", "live.e2e_p99_ms")}  # fmt: skip
# Values that are about correctness, not speed: the bench runs both sides with the durability ones.
NOT_SPEED = frozenset({"acks", "enable.idempotence", "retries", "max.in.flight.requests.per.connection",
                       "enable.auto.commit", "session.timeout.ms", "isolation.level", "max.request.size",
                       "max.poll.records"})  # fmt: skip
ROW_SIZES = (200, 100_000)
_OLDEST = "2.8.2"  # the catalog's oldest release: a default held since then is simply the default


class Proof(NamedTuple):
    status: str  # proven, no-gain, regressed, other-value, default, not-speed, unproven
    text: str
    row: str | None = None  # the proof table's row

    def to_dict(self) -> dict[str, Any]:
        return {**self._asdict(), "doc": DOC if self.row else None}


@lru_cache(maxsize=1)
def load() -> dict[str, Any]:
    try:
        return json.loads(PROOFS_FILE.read_text())  # type: ignore[no-any-return]
    except (OSError, ValueError):
        return {"rows": []}


def row_of(row_id: str, goal: str, size: int, flags: tuple[str, ...], outcome: dict[str, Any],
           producer_given: bool = False) -> dict[str, Any]:  # fmt: skip
    """One row of the table from a bench run's JSON: what the after side sets and, per figure,
    both sides' medians and spreads, the ratio and the verdict (`producer_given`: the after
    producer was set by the row, not by the profile)."""
    figures: dict[str, Any] = {}
    for part, names in KEPT.items():
        section = outcome if part == "producer" else outcome.get(part)
        if not section or not section.get("verdicts"):
            continue
        for name in names:
            before, after = section["before"].get(name), section["after"].get(name)
            if before is None or after is None:
                continue
            figures[f"{part}.{name}"] = {
                "before": before["median"], "before_spread": before["spread"], "after": after["median"],
                "after_spread": after["spread"], "ratio": section["ratios"].get(name),
                "verdict": section["verdicts"][name],
                "before_runs": [run[name] for run in section["before"]["runs"]],
                "after_runs": [run[name] for run in section["after"]["runs"]],
            }  # fmt: skip
    producer = _changed(outcome["before"]["settings"], outcome["after"]["settings"])
    live = outcome.get("live") or {}
    consumer = _changed(*({k.removeprefix("consumer "): v for k, v in live.get(side, {}).get("settings", {}).items()
                           if k.startswith("consumer ")} for side in ("before", "after")))  # fmt: skip
    return {"id": f"{row_id}-{size_name(size)}", "goal": goal, "record_bytes": size, "flags": list(flags),
            "producer_given": producer_given,
            "producer": producer, "consumer": consumer, "live_rate": (outcome.get("live") or {}).get("rate"),
            "figures": figures}  # fmt: skip


def _changed(before: dict[str, str], after: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in sorted(after.items()) if before.get(k) != v and k != "bootstrap.servers"}


def size_name(size: int) -> str:
    return f"{size // 1000}KB" if size >= 1000 else f"{size}B"


def _nearest_size(size: float) -> int:
    return min(ROW_SIZES, key=lambda row: abs(_log(row) - _log(size)))


def _log(value: float) -> float:
    return math.log(max(1.0, value))


def judge(component: str, key: str, value: str, goal: str, record_bytes: float, default: Any = None,
          data: dict[str, Any] | None = None, default_since: str = "") -> Proof:  # fmt: skip
    """What the table says of one recommended value (`default`: the client's own, which it has had
    since the catalog's release `default_since`)."""
    if key in NOT_SPEED:
        return Proof("not-speed", "not a speed setting: no bench judges it (what it prevents is its reason)")
    if default is not None and _same(value, default):
        since = ".".join(default_since.split(".")[:2]) if default_since and default_since != _OLDEST else ""
        if since:
            return Proof("default", f"the client's default ({default}) since Kafka {since}: nothing to change where "
                         f"it is not set on such a client; an older one defaults otherwise — keep it set there "
                         "(the snippet does)")  # fmt: skip
        return Proof("default", f"the client's default ({default}): nothing to change where it is not set")
    rows = [row for row in (data or load()).get("rows", []) if row["goal"] == goal
            and row["record_bytes"] == _nearest_size(record_bytes)]  # fmt: skip
    other = "consumer" if component == "producer" else "producer"
    # A row that changed only this component's speed values speaks for them alone: it comes first.
    exact = sorted((row for row in rows if _same(row.get(component, {}).get(key), value)),
                   key=lambda row: len([k for k in row.get(other, {}) if k not in NOT_SPEED]))  # fmt: skip
    if not exact:
        others = [row for row in rows if key in row.get(component, {})]
        if others:
            row = others[0]
            return Proof("other-value", f"unproven at {value}: row {row['id']} measured {row[component][key]} — "
                         f"{_summary(row, component, goal)}", row["id"])  # fmt: skip
        return Proof("unproven", "unproven: no row of the proof table measures it for this goal and record size")
    row = exact[0]
    verdicts = [row["figures"][name]["verdict"] for name in GOAL_FIGURES.get((goal, component), ())
                if name in row["figures"]]  # fmt: skip
    summary = _summary(row, component, goal)
    # End-to-end figures move with both components' values: they are this one's only in a row that
    # changed no speed value of the other.
    alone = not [k for k in row.get(other, {}) if k not in NOT_SPEED]
    costs = _with(row, _attributable(COSTS.get(component, ()), alone), "regressed")
    cost = f"; what it costs: {costs}" if costs else ""
    if "regressed" in verdicts:
        return Proof("regressed", f"measured worse for this goal: row {row['id']}: {summary}", row["id"])
    if "improved" in verdicts:
        return Proof("proven", f"proven by row {row['id']}: {summary}{cost}", row["id"])
    bought = _with(row, _attributable(BUYS.get(component, ()), alone), "improved")
    if bought:
        return Proof("no-gain", f"no gain beyond the noise for {goal} (row {row['id']}: {summary}); what it buys: "
                     f"{bought}{cost}", row["id"])  # fmt: skip
    return Proof("no-gain", f"no gain beyond the noise: row {row['id']}: {summary}{cost}", row["id"])


def _attributable(names: tuple[str, ...], alone: bool) -> tuple[str, ...]:
    return names if alone else tuple(name for name in names if not name.startswith("live.e2e"))


def _with(row: dict[str, Any], names: tuple[str, ...], verdict: str) -> str:
    return "; ".join(_figure(row, name) for name in names if row["figures"].get(name, {}).get("verdict") == verdict)


def _summary(row: dict[str, Any], component: str, goal: str) -> str:
    names = [name for name in GOAL_FIGURES.get((goal, component), ()) if name in row["figures"]]
    return "; ".join(_figure(row, name) for name in names) or "its goal's figures were not measured"


def _figure(row: dict[str, Any], name: str) -> str:
    figure = row["figures"][name]
    ratio = f"{figure['ratio']:.2f}×" if figure.get("ratio") else "—"
    return (
        f"{FIGURE_NAMES.get(name, name)} {_num(figure['before'])} → {_num(figure['after'])} ({ratio}, "
        f"{figure['verdict']})"
    )


def _num(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.1f}"


def _same(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return False
    left, right = str(a).strip().lower(), str(b).strip().lower()
    if left == right:
        return True
    try:
        return float(left) == float(right)
    except ValueError:
        return False


def markdown(data: dict[str, Any]) -> str:
    """The table as docs/performance.md shows it: a row a preset and record size, each figure
    before → after (± half the spread), the ratio and the verdict."""
    if not data.get("rows"):
        return "No row measured yet: `tools/bench_profiles.py` on the test cluster.\n"
    lines = [f"Measured {data['measured']} on {data['setup']}; {data['rounds']} runs a side after a warm-up, "
             "interleaved; medians ± half the spread; the verdict is the one rule of `verify` and `bench` "
             "(beyond the larger half-spread and a rank test at 5 %).", ""]  # fmt: skip
    for row in data["rows"]:
        sets = ", ".join(f"{k}={v}" for k, v in row["producer"].items()) or "nothing: the same as before"
        if row.get("producer_given"):
            sets += " (the row's own, not the profile's)"
        reads = ", ".join(f"{k}={v}" for k, v in row["consumer"].items()) or "nothing: the same as before"
        lines += [f"### {row['id']}", "",
                  f"Goal {row['goal']}, {row['record_bytes']:,}-byte records"
                  + (f" ({' '.join(row['flags'])})" if row["flags"] else "")
                  + f"; live stream at {row['live_rate']:,} records/s. Producer after sets: {sets}. "
                  f"Consumer after sets: {reads}.", "",
                  "| figure | before | after | after/before | verdict |", "|---|---|---|---|---|"]  # fmt: skip
        for name, figure in row["figures"].items():
            ratio = f"{figure['ratio']:.2f}×" if figure.get("ratio") else "—"
            lines.append(f"| {FIGURE_NAMES.get(name, name)} | {_num(figure['before'])} ±"
                         f"{_num(figure['before_spread'] / 2)} | {_num(figure['after'])} ±"
                         f"{_num(figure['after_spread'] / 2)} | {ratio} | {figure['verdict']} |")  # fmt: skip
        lines.append("")
    return "\n".join(lines)
