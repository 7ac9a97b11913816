"""`bench` as text: the run's shape, each figure before and after with its spread and the ratio,
the producer's own metrics that explain it, the consumer's fetch figures, and what the after
side sets."""

from __future__ import annotations

from advisor.bench import live
from advisor.bench.compare import FIGURES, LIVE_FIGURES, Bench, Side
from advisor.output import RenderOptions

LIVE_NAMES = {"records_per_second": "records/s", "p50_ms": "p50 ms", "p99_ms": "p99 ms", "p999_ms": "p99.9 ms",
              "e2e_p50_ms": "e2e p50 ms", "e2e_p99_ms": "e2e p99 ms", "e2e_p999_ms": "e2e p99.9 ms",
              "fetches_per_1000_records": "fetches/1000 records", "fetch_latency_avg_ms": "fetch wait ms"}  # fmt: skip


def _row(outcome: Bench, shown: str, name: str, before: Side, after: Side) -> str:
    old, new = before.figure(name), after.figure(name)
    ratio = outcome.ratio(name, before, after)
    return (f"{shown:22}{old.median:>12,.1f} ±{old.spread / 2:<7,.1f}{new.median:>12,.1f} ±{new.spread / 2:<7,.1f}"
            f"{(f'{ratio:.2f}×' if ratio else '—'):>11}  {outcome.verdict(name, before, after)}")  # fmt: skip


def render(outcome: Bench, options: RenderOptions) -> str:
    lines = _unbounded(outcome) if outcome.before.measured else []
    if outcome.live_before is not None and outcome.live_after is not None:
        lines += ([""] if lines else []) + _live(outcome, outcome.live_before, outcome.live_after)
    changed = {k: v for k, v in outcome.after.settings.items() if outcome.before.settings.get(k) != v}
    if outcome.live_after is not None:  # the consumer settings too
        changed = {k: v for k, v in outcome.live_after.settings.items()
                   if outcome.live_before is None or outcome.live_before.settings.get(k) != v}  # fmt: skip
    lines += [
        "",
        "after sets: " + (", ".join(f"{k}={v}" for k, v in sorted(changed.items()) if k != "bootstrap.servers")
                          or "nothing the before side does not (the same settings)"),
    ]  # fmt: skip
    return "\n".join(lines) + "\n"


def _live(outcome: Bench, before: Side, after: Side) -> list[str]:
    how = (f"half of {live.sustained(list(outcome.ramp)) or 0:,} records/s, the highest "
           "the before side sustained in a ramp of " + ", ".join(f"{s.asked:,}" for s in outcome.ramp)
           if outcome.ramp else "given")  # fmt: skip
    lines = [f"live stream at {outcome.live_rate:,} records/s ({how}), {outcome.live_records:,} records a run, "
             f"{len(before.runs)} runs a side after a warm-up: kafka-producer-perf-test writes, a Java consumer with "
             "each side's consumer settings reads every record as it arrives",
             "", f"{'':22}{'before':>21}{'after':>21}{'after/before':>13}  verdict (beyond the noise?)"]  # fmt: skip
    lines += [_row(outcome, LIVE_NAMES[name], name, before, after) for name in LIVE_FIGURES]
    return lines


def _unbounded(outcome: Bench) -> list[str]:
    names = {"records_per_second": "records/s", "mib_per_second": "MiB/s", "p50_ms": "p50 ms", "p95_ms": "p95 ms",
             "p99_ms": "p99 ms", "p999_ms": "p99.9 ms"}  # fmt: skip
    records = (f"records of {outcome.size} bytes" if outcome.payload is None else
               f"records from {outcome.payload.path.name} ({outcome.payload.records:,} lines, {outcome.size} bytes "
               "on average)")  # fmt: skip
    head = (f"kafka-producer-perf-test on {outcome.topic}: {outcome.records:,} {records} a run, "
            f"{len(outcome.before.runs)} runs a side after a warm-up, interleaved; acks=all and idempotence on both "
            "sides (equal durability)")  # fmt: skip
    lines = [head, "", f"{'':12}{'before':>22}{'after':>22}{'after/before':>14}  verdict (beyond the noise?)"]
    for name in FIGURES:
        old, new = outcome.before.figure(name), outcome.after.figure(name)
        ratio = outcome.ratio(name)
        lines.append(f"{names[name]:12}{old.median:>14,.1f} ±{old.spread / 2:<7,.1f}{new.median:>14,.1f} "
                     f"±{new.spread / 2:<7,.1f}{(f'{ratio:.2f}×' if ratio else '—'):>13}  "
                     f"{outcome.verdict(name)}")  # fmt: skip
    before_metrics, after_metrics = outcome.before.explaining(), outcome.after.explaining()
    explained = [name for name in before_metrics if name in after_metrics]
    if explained:
        lines += ["", "why (the producer's own metrics, medians):"]
        lines += [f"  {name:26}{before_metrics[name]:>16,.3f}{after_metrics[name]:>22,.3f}" for name in explained]
    if outcome.consumer_before is not None and outcome.consumer_after is not None:
        lines += ["", "consumer (kafka-consumer-perf-test, fetch figures: the group join left out)"]
        for name, shown in (("fetch_mib_per_second", "fetch MiB/s"), ("fetch_records_per_second", "fetch rec/s")):
            old, new = outcome.consumer_before.figure(name), outcome.consumer_after.figure(name)
            ratio = outcome.ratio(name, outcome.consumer_before, outcome.consumer_after)
            verdict = outcome.verdict(name, outcome.consumer_before, outcome.consumer_after)
            lines.append(f"{shown:12}{old.median:>14,.1f} ±{old.spread / 2:<7,.1f}{new.median:>14,.1f} "
                         f"±{new.spread / 2:<7,.1f}{(f'{ratio:.2f}×' if ratio else '—'):>13}  {verdict}")  # fmt: skip
    return lines
