"""`bench` as text: the run's shape, each figure before and after with its spread and the ratio,
the producer's own metrics that explain it, the consumer's fetch figures, and what the after
side sets."""

from __future__ import annotations

from advisor.bench.compare import FIGURES, Bench
from advisor.output import RenderOptions


def render(outcome: Bench, options: RenderOptions) -> str:
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
    changed = {k: v for k, v in outcome.after.settings.items() if outcome.before.settings.get(k) != v}
    lines += [
        "",
        "after sets: " + ", ".join(f"{k}={v}" for k, v in sorted(changed.items()) if k != "bootstrap.servers"),
    ]
    return "\n".join(lines) + "\n"
