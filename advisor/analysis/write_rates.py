"""How fast producers write into each broker, as its metrics measured it: the peak of its
BytesInPerSec over what was observed (the all-topics series, else its topics' series summed).

Kafka's operations documentation judges a replication throttle by this figure: a throttle below
max(BytesInPerSec) may never let a moving replica catch up ("Ensuring Progress"). A meter's count
gives a rate only between two timed samples; a one-minute rate (Confluent's dialect) stands as
read.
"""

from __future__ import annotations

from advisor.metrics import vocabulary, windows
from advisor.model.observations import Observations
from advisor.model.provenance import Location, MetricSample
from advisor.named_tuple import NamedTuple


class WriteRate(NamedTuple):
    node: str  # the metrics' node (an endpoint, a file, a pod)
    bytes_per_second: float  # the highest rate observed
    place: Location | MetricSample  # where that rate was read
    signals: int  # how many rates it is the peak of (1: one interval or one smoothed reading)


def peak_write_rates(observations: Observations) -> list[WriteRate]:
    """Each broker node's peak write rate, highest first; a node with no rate (one count, no
    second sample) is left out."""
    whole: dict[str, list[windows.Signal]] = {}
    topics: dict[str, list[list[windows.Signal]]] = {}
    for reading, points in ((vocabulary.Reading.COUNT, 2), (vocabulary.Reading.RATE, 1)):
        for series in observations.of(vocabulary.BYTES_IN.mbean, reading, points=points):
            signals = [s for s in windows.signal(series) if s.value == s.value]
            if series.component != "broker" or not signals:
                continue
            if series.label("topic") is None:
                whole.setdefault(series.node, signals)  # a count's rates before a smoothed rate
            else:
                topics.setdefault(series.node, []).append(signals)
    found = []
    for node in sorted({*whole, *topics}):
        signals = whole.get(node) or windows.summed(topics[node])
        if signals:
            peak = max(signals, key=lambda s: s.value)
            found.append(WriteRate(node, peak.value, peak.place, len(signals)))
    return sorted(found, key=lambda rate: -rate.bytes_per_second)
