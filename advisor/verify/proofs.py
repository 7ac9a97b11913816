"""What proves each recommendation, as metrics with the direction that means better: the client's
own figures, and the brokers' beside them (kafka-profiles.md §4.1's "metric that proves it")."""

from __future__ import annotations

from advisor.metrics import clients, vocabulary
from advisor.named_tuple import NamedTuple


class Proof(NamedTuple):
    name: str  # for people
    better: str  # up or down
    side: str  # client or broker
    metric: str  # the observed metric (a client metric id, or a broker MBean)
    per: str | None = None  # a ratio: this counter's increase over `per`'s (broker: bytes per message)
    labels: tuple[tuple[str, str], ...] = ()  # only series with these labels (a request type)
    per_labels: tuple[tuple[str, str], ...] = ()  # the same, for `per`


# A saved kafka-producer-perf-test run's own figure (`bench` runs them): what batching is for.
_PERF_RATE = Proof("records a second (perf test)", "up", "client", clients.PERF_RECORDS_PER_SECOND.id)
_BATCHING = (
    Proof("records per batch", "up", "client", clients.RECORDS_PER_BATCH.id),
    Proof("batch size (bytes)", "up", "client", clients.BATCH_SIZE_AVG.id),
    Proof(
        "messages per Produce request",
        "up",
        "broker",
        vocabulary.MESSAGES_IN.mbean,
        per=vocabulary.REQUEST_TOTAL_TIME.mbean,
        per_labels=(("request", "Produce"),),
    ),
    _PERF_RATE,
)
PROOFS: dict[str, tuple[Proof, ...]] = {
    "linger.ms": _BATCHING,
    "batch.size": _BATCHING,
    "compression.type": (
        Proof("compressed / uncompressed", "down", "client", clients.COMPRESSION_RATE_AVG.id),
        Proof("bytes in per message", "down", "broker", vocabulary.BYTES_IN.mbean, per=vocabulary.MESSAGES_IN.mbean),
        _PERF_RATE,
    ),
    "buffer.memory": (Proof("time waiting for buffer", "down", "client", clients.BUFFERPOOL_WAIT_RATIO.id),),
    "fetch.min.bytes": (
        Proof("fetch size (bytes)", "up", "client", clients.FETCH_SIZE_AVG.id),
        Proof(
            "fetch requests per second",
            "down",
            "broker",
            vocabulary.REQUEST_TOTAL_TIME.mbean,
            labels=(("request", "FetchConsumer"),),
        ),
    ),
    "max.poll.records": (Proof("longest time between polls (ms)", "down", "client", clients.TIME_BETWEEN_POLL_MAX.id),),
}
PROOFS["fetch.max.wait.ms"] = PROOFS["fetch.min.bytes"]
