"""Each proof measured on both sides and judged: a side's figure is the median of its samples (a
gauge's values, a counter's rates between samples, a ratio of two counters' increases per
interval), its noise half the spread of those samples; a difference within the larger noise, or
a side with fewer than two samples, is inconclusive — never a verdict from one sample."""

from __future__ import annotations

import statistics
from collections import defaultdict
from itertools import pairwise
from typing import Any

from advisor.analysis.noise import Side, compared
from advisor.model.observations import Observations, Series
from advisor.named_tuple import NamedTuple
from advisor.verify.proofs import Proof


class Verdict(NamedTuple):
    proof: Proof
    before: Side | None
    after: Side | None
    verdict: str  # improved, regressed, inconclusive, not measured
    why: str

    def to_dict(self) -> dict[str, Any]:
        return {"metric": self.proof.name, "side": self.proof.side, "better": self.proof.better,
                "series": self.proof.metric, "before": self.before.to_dict() if self.before else None,
                "after": self.after.to_dict() if self.after else None, "verdict": self.verdict,
                "why": self.why}  # fmt: skip


def _series(observations: Observations, metric: str, labels: tuple[tuple[str, str], ...]) -> list[Series]:
    """A metric's series with the given labels. Percentile series are passed over (no counts), and
    so are per-topic or per-partition ones where the node has an all-topics series (a broker's
    BrokerTopicMetrics, a Java producer's own): it speaks for the node. librdkafka reports per
    topic only; then those are the figures."""
    found = []
    for series in observations.of(metric):
        own = dict(series.labels)
        if any(own.get(k) != v for k, v in labels) or "quantile" in own:
            continue
        found.append(series)
    whole = {s.node for s in found if not {"topic", "partition"} & set(dict(s.labels))}
    return [s for s in found if s.node not in whole or not {"topic", "partition"} & set(dict(s.labels))]


def _increases(found: list[Series]) -> dict[float, tuple[float, float]]:
    """Summed across counters: each interval's increase (a decrease is a restart: counted from zero)
    and its length, keyed by the interval's end time."""
    totals: dict[float, tuple[float, float]] = {}
    for series in found:
        timed = [p for p in series.points if p.time is not None]
        for before, after in pairwise(timed):
            span = after.time - before.time  # type: ignore[operator]
            if span <= 0:
                continue
            grown = (after.value - before.value if after.value >= before.value else after.value) * series.scale
            key = round(after.time)  # type: ignore[arg-type]
            total, length = totals.get(key, (0.0, 0.0))
            totals[key] = (total + grown, max(length, span))
    return totals


def values(observations: Observations, proof: Proof) -> list[float]:
    """One side's samples of a proof: a ratio of two counters' increases per interval, a counter's
    rate per interval, else a gauge's values (averaged across series at each time)."""
    found = _series(observations, proof.metric, proof.labels)
    counts = [s for s in found if s.reading == "count"]
    if proof.per is not None:
        over = _increases([s for s in _series(observations, proof.per, proof.per_labels) if s.reading == "count"])
        mine = _increases(counts)
        return [mine[t][0] / over[t][0] for t in sorted(mine) if t in over and over[t][0] > 0]
    if counts:
        return [grown / span for _, (grown, span) in sorted(_increases(counts).items())]
    by_time: dict[float | None, list[float]] = defaultdict(list)
    for series in found:
        if series.reading in ("value", "rate"):
            for point in series.points:
                if point.value == point.value:  # NaN: no value
                    by_time[point.time].append(point.value)
    ordered = sorted(by_time.items(), key=lambda item: (item[0] is None, item[0] or 0.0))
    return [statistics.fmean(found_values) for _, found_values in ordered]


def judge(proof: Proof, before: Observations, after: Observations) -> Verdict:
    old, new, verdict, why = compared(values(before, proof), values(after, proof), proof.better)
    return Verdict(proof, old, new, verdict, why)


class Verification(NamedTuple):
    """A verify run: each setting's proof and its verdict, as the formatters render it."""

    verdicts: list[tuple[str, Verdict]]  # (the setting, the verdict of one of its proofs)

    @property
    def KIND(self) -> str:  # its renderers: output/__init__.py RENDERERS
        return "verify"

    @property
    def regressed(self) -> bool:
        return any(v.verdict == "regressed" for _, v in self.verdicts)

    def to_dict(self) -> dict[str, Any]:
        return {"verdicts": [{"setting": key, **v.to_dict()} for key, v in self.verdicts], "regressed": self.regressed}


def verification(keys: list[str], before: Observations, after: Observations, *, expected: bool) -> Verification:
    """Every proof of `keys` judged once (settings share proofs: linger.ms and batch.size). A proof
    not measured is kept only when its setting was named (`expected`): otherwise it is one of
    every known proof, not asked about."""
    from advisor.verify.proofs import PROOFS

    seen: set[str] = set()
    verdicts = []
    for key in keys:
        for proof in PROOFS[key]:
            if proof.name in seen:
                continue
            seen.add(proof.name)
            verdict = judge(proof, before, after)
            if expected or verdict.verdict != "not measured":
                verdicts.append((key, verdict))
    return Verification(verdicts)
