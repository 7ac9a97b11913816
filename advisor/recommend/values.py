"""The values a load profile calls for, per component, each computed from the profile's numbers
with its formula and inputs, why, what it costs, and the metric that will prove it
(Confluent's per-goal lists, the OpenMessaging Benchmark drivers; docs/recommend.md). Durability
never drops below what the profile's tolerance for loss allows; where the profile trades it
away, the trade-off says so."""

from __future__ import annotations

import math
from typing import Any

from advisor.named_tuple import NamedTuple
from advisor.recommend import citations, sizing
from advisor.recommend.profile import Resolved

KIB = 1024
DEFAULT_BATCH = 16 * KIB
MAX_BATCH = 1024 * KIB  # the brokers' default max.message.bytes (1048588) bounds a compressed batch
DEFAULT_BUFFER = 32 * 1024 * KIB
POLL_INTERVAL_MS = 300_000  # max.poll.interval.ms default


class Recommendation(NamedTuple):
    component: str  # producer, consumer, broker, topic
    key: str  # Java's name; advisor/recommend/spelling.py spells it for each client
    value: str
    formula: str
    inputs: dict[str, Any]
    rationale: str
    source: str
    tradeoff: str
    proof: str  # the metric that will show it worked
    expect: str  # what that metric should do
    at_least: bool = False  # a larger value the user runs with is kept (threads, partitions)

    def to_dict(self) -> dict[str, Any]:
        return {**self._asdict(), "links": citations.links(self.source)}


def _round_up(value: float, step: int) -> int:
    return int(math.ceil(value / step) * step)


def _stream_bytes_per_second(profile: Resolved, partitions: int) -> float:
    """How fast one partition's batch fills at one producer: keyed records spread over every
    partition; keyless ones go to one partition at a time (the sticky partitioner, KIP-480)."""
    per_producer = profile.bytes_per_second / profile["producers"]
    return per_producer / partitions if profile["ordering"] == "per-key" else per_producer


def producer(profile: Resolved) -> list[Recommendation]:
    partitions = int(sizing.partitions(profile).value)
    stream = _stream_bytes_per_second(profile, partitions)
    goal, p99 = profile.goal, profile["p99_ms"]
    found: list[Recommendation] = []
    found.append(Recommendation(
        "producer", "acks", "all", "all, whatever the goal",
        {"loss": profile["loss"], "goal": goal},
        "all waits for every in-sync replica, so an acknowledged record survives the leader's loss"
        + ("" if profile["loss"] == "none" else "; the profile tolerates loss, so acks=1 would also do: it saves "
           "the wait for the followers (RemoteTimeMs) at the price of the records a failing leader had not "
           "passed on — a trade kafka-advisor leaves to you"),
        citations.confluent("durability; throughput lists acks=1 for loss-tolerant data"), "",
        "request-latency-avg; brokers' RemoteTimeMs{request=Produce}",
        "remote time > 0: the followers' copy"))  # fmt: skip
    found.append(Recommendation(
        "producer", "enable.idempotence", "true", "true, set explicitly", {"acks": "all"},
        "retries cannot duplicate or reorder records; set explicitly because librdkafka still defaults to false "
        "and Java 3.0.1–3.9 turn the default off silently beside acks=1 or retries=0",
        citations.IDEMPOTENCE, "",
        "record-retry-rate", "retries stay harmless: no duplicates downstream"))  # fmt: skip
    if profile["loss"] == "none":
        found.append(Recommendation(
            "producer", "retries", "2147483647", "loss none → retry until delivery.timeout.ms (Java's default)",
            {"loss": profile["loss"]},
            "a transient error (a leader election, a timeout) is retried instead of failing the record; "
            "delivery.timeout.ms bounds how long a send may take — retries=0 drops a record at the first one and, "
            "in Java, turns the default idempotence off", citations.RETRIES, "",
            "record-error-rate; record-retry-rate", "errors 0; retries absorb elections"))  # fmt: skip
    if profile["ordering"] == "per-key":
        found.append(Recommendation(
            "producer", "max.in.flight.requests.per.connection", "5",
            "ordering per key → at most 5, with idempotence", {"ordering": profile["ordering"]},
            "an idempotent producer keeps a partition's order across retries with up to 5 requests in flight; "
            "more, and Java turns the default idempotence off (or refuses it when set), so a retry can reorder",
            citations.IN_FLIGHT, "", "record-retry-rate", "retries keep order"))  # fmt: skip
    if goal == "latency":
        # Measured, not guessed: at a rate the cluster sustains, linger.ms 0 moved no end-to-end p99 beyond
        # the noise (proofs.json, rows latency-linger-0-*): 200-byte records at 32,000/s got a worse p50
        # and more fetches; 100 KB ones at 400/s a lower producer p50, not end to end. So the goal keeps
        # Kafka 4.x's default, said for clients that default to 0 (Java < 4.0) — unless the p99 budget is
        # so tight that a quiet partition's 5 ms wait would be more than a quarter of it: then that bound.
        linger = 5 if p99 is None else min(5, int(p99 / 4))
        found.append(Recommendation(
            "producer", "linger.ms", str(linger),
            "5, Kafka's default since 4.0 (KIP-1030); at most a quarter of the p99 target", {"p99 (ms)": p99},
            "a record waits up to linger.ms before its batch leaves; under load batches still form while the "
            "previous request is in flight, so fewer, fuller requests keep the queue short — on the test cluster "
            "linger.ms 0 lowered no end-to-end p99 beyond the noise at a sustained rate, for 200-byte or 100 KB "
            "records (docs/performance.md, rows latency-linger-0); a client older than 4.0 defaults to 0",
            f"{citations.LATENCY_LINGER}; KIP-1030",
            "a record on a quiet partition waits up to linger.ms: the p50 of a trickle of records",
            "record-queue-time-avg", f"≈ {linger} ms or less"))  # fmt: skip
        found.append(Recommendation(
            "producer", "compression.type", "none", "latency goal → none", {"goal": goal},
            "compressing costs CPU on both ends for every batch", citations.confluent("latency"),
            "more bytes on the network and on disk", "compression-rate-avg", "= 1"))  # fmt: skip
        return found
    heavy = goal == "throughput"
    window = 0.05 if heavy else 0.02  # seconds of one stream's bytes a batch should hold
    batch = min(MAX_BATCH, max(64 * KIB if heavy else DEFAULT_BATCH, _round_up(stream * window, 16 * KIB)))
    if profile["message_bytes_max"] > batch and profile["message_bytes_max"] <= MAX_BATCH:
        batch = _round_up(profile["message_bytes_max"], 16 * KIB)  # the largest record still batches
    fill_ms = batch / stream * 1000 if stream else float("inf")
    ceiling = 100 if heavy else 20
    if p99 is not None:
        ceiling = min(ceiling, max(1, int(p99 / 4)))  # a quarter of the end-to-end budget at most
    linger = int(min(ceiling, max(5, math.ceil(fill_ms))))
    found.append(Recommendation(
        "producer", "batch.size", str(batch),
        f"clamp(⌈stream bytes/s × {window:g} s⌉ to 16 KiB, {'64' if heavy else '16'} KiB, 1 MiB), ≥ the largest "
        "record up to 1 MiB (a larger record leaves alone, in a batch of its own)",
        {"stream (bytes/s)": round(stream), "partitions": partitions, "ordering": profile["ordering"],
         "largest record": profile["message_bytes_max"]},
        "fewer, larger requests: less broker CPU and fewer round trips per byte; keyed records fill one batch per "
        "partition, keyless ones one at a time (sticky partitioner)",
        citations.THROUGHPUT_BATCH,
        "memory: one open batch per partition written (buffer.memory below)",
        "batch-size-avg; records-per-request-avg", "up, toward batch.size"))  # fmt: skip
    found.append(Recommendation(
        "producer", "linger.ms", str(linger),
        f"clamp(time to fill a batch, 5, {ceiling}) ms" + (" (≤ p99 ÷ 4)" if p99 is not None else ""),
        {"batch.size": batch, "stream (bytes/s)": round(stream), "fill time (ms)": round(fill_ms, 1)
         if fill_ms != float("inf") else None, "p99 (ms)": p99},
        "gives a batch time to fill before it leaves", citations.confluent("throughput: 10–100 ms"),
        f"up to {linger} ms more latency per record when the rate is low", "record-queue-time-avg; batch-size-avg",
        f"queue time ≈ linger ({linger} ms) or less; batches fuller"))  # fmt: skip
    found.append(Recommendation(
        "producer", "compression.type", "lz4", "throughput and balanced goals → lz4", {"goal": goal},
        "fewer bytes on the network and disks for little CPU; a codec works per batch, so fuller batches compress "
        "better", citations.confluent("throughput: lz4; avoid gzip's CPU"),
        "client and broker CPU (small against the bytes saved)", "compression-rate-avg; brokers' BytesInPerSec",
        "below 1; bytes in down at the same records in"))  # fmt: skip
    found += _large_records(profile)
    buffer = max(DEFAULT_BUFFER, batch * partitions * 2)
    if buffer > DEFAULT_BUFFER:
        found.append(Recommendation(
            "producer", "buffer.memory", str(buffer), "max(32 MiB, batch.size × partitions written × 2)",
            {"batch.size": batch, "partitions": partitions},
            "one open batch per partition written, and as many in flight, must fit, or send() blocks",
            citations.PRODUCER_MEMORY, "client heap",
            "bufferpool-wait-ratio", "0"))  # fmt: skip
    return found


RECORD_OVERHEAD = 1024  # a record's key, headers and framing beyond its value, generously
MAX_REQUEST_SIZE = 1_048_576  # the Java producer's default max.request.size
TOPIC_MAX_MESSAGE_BYTES = 1_048_588  # the brokers' default message.max.bytes (topics' max.message.bytes)


def _large_records(profile: Resolved) -> list[Recommendation]:
    """Records larger than the defaults let through: the producer refuses them at send()
    (RecordTooLargeException), the broker rejects their batch."""
    largest = profile["message_bytes_max"]
    needed = _round_up(largest + RECORD_OVERHEAD, 64 * KIB)
    if largest + RECORD_OVERHEAD <= MAX_REQUEST_SIZE:
        return []
    inputs = {"largest record": largest, "overhead allowed": RECORD_OVERHEAD}
    return [
        Recommendation(
            "producer", "max.request.size", str(needed), "⌈largest record + 1 KiB⌉ to 64 KiB", inputs,
            "the producer refuses a record larger than max.request.size at send() (RecordTooLargeException)",
            citations.RECORD_TOO_LARGE, "larger requests on the wire",
            "record-error-rate", "0"),
        Recommendation(
            "topic", "max.message.bytes", str(needed), "the producer's max.request.size", inputs,
            "the broker rejects a batch larger than the topic's max.message.bytes (brokers: message.max.bytes); "
            "consumers need no change: since 0.10.1 (KIP-74) a fetch returns at least one batch whatever its "
            "size limits", "Kafka documentation: message.max.bytes; KIP-74: Add Fetch Response Size Limit in Bytes",
            "followers and consumers move batches this large", "record-error-rate", "0"),
    ]  # fmt: skip


def consumer(profile: Resolved) -> list[Recommendation]:
    found: list[Recommendation] = []
    if profile["loss"] == "none":
        found.append(Recommendation(
            "consumer", "enable.auto.commit", "false", "loss none → commit after processing",
            {"loss": profile["loss"]},
            "auto-commit commits the offsets poll() returned whether their records were processed or not: a crash "
            "after a commit and before the processing loses them; commit (commitSync/commitAsync) once they are done",
            citations.CONSUMER_COMMITS, "the application commits: one more call after each processed batch",
            "commit-rate; records-lag-max",
            "commits follow the processing; no records skipped after a restart"))  # fmt: skip
    found.append(Recommendation(
        "consumer", "session.timeout.ms", "45000", "Kafka's default since 3.0", {},
        "a consumer is declared dead after this long without a heartbeat; 10 s (the default before 3.0, still in "
        "old configurations) evicts consumers during a GC pause or a slow network and rebalances the group",
        citations.SESSION_TIMEOUT, "a dead consumer's partitions wait up to 45 s for another",
        "rebalance-total", "rising only when consumers come and go"))  # fmt: skip
    if profile.goal == "throughput":
        per_consumer = profile.bytes_per_second / profile["consumers_per_group"]
        wait_ms = 500 if profile["p99_ms"] is None else max(10, min(500, int(profile["p99_ms"] / 4)))
        fetch_min = int(min(1_000_000, max(1, per_consumer * wait_ms / 1000 / 2)))
        found.append(Recommendation(
            "consumer", "fetch.min.bytes", str(fetch_min),
            "clamp(bytes a consumer receives in half of fetch.max.wait.ms, 1, 1 MB)",
            {"per consumer (bytes/s)": round(per_consumer), "fetch.max.wait.ms": wait_ms},
            "a fetch answers once this much is there (or the wait passes): fewer, fuller fetches, less broker CPU",
            citations.confluent("throughput: fetch.min.bytes about 100000"),
            f"up to {wait_ms} ms more latency when the topic is quiet", "fetch-size-avg; fetch-rate",
            "fetch size up, fetches down, records consumed steady"))  # fmt: skip
        if wait_ms != 500:
            found.append(Recommendation(
                "consumer", "fetch.max.wait.ms", str(wait_ms), "min(500, p99 ÷ 4)", {"p99 (ms)": profile["p99_ms"]},
                "bounds the wait fetch.min.bytes adds", citations.confluent("throughput"), "smaller fetches when quiet",
                "fetch-latency-avg", f"≤ {wait_ms} ms"))  # fmt: skip
    elif profile.goal == "latency":
        found.append(Recommendation(
            "consumer", "fetch.min.bytes", "1", "latency goal → 1 (answer as soon as a byte is there)", {},
            "the broker answers a fetch at once", citations.confluent("latency"), "more fetches at high rates",
            "fetch-latency-avg", "low"))  # fmt: skip
    if profile["transactions"]:
        found.append(Recommendation(
            "consumer", "isolation.level", "read_committed", "transactions in play → read_committed",
            {"transactions": True},
            "a consumer reading read_uncommitted (Java's and kafka-python's default) hands out the records of aborted "
            "and still-open transactions; read_committed stops at the last stable offset (librdkafka's default)",
            citations.ISOLATION, "records of an open transaction wait until it commits (up to transaction.timeout.ms)",
            "records-lag-max", "measured to the last stable offset: no aborted record handed out"))  # fmt: skip
    processing = profile["processing_ms"]
    if processing:
        records = int(POLL_INTERVAL_MS * 0.5 / processing)
        if records < 500:
            found.append(Recommendation(
                "consumer", "max.poll.records", str(max(1, records)),
                "⌊max.poll.interval.ms × 0.5 ÷ processing time a record⌋",
                {"max.poll.interval.ms": POLL_INTERVAL_MS, "processing (ms)": processing},
                "a poll's records must be processed well within max.poll.interval.ms, or the group evicts the "
                "consumer and rebalances", citations.confluent("availability: max.poll.records"),
                "more polls", "time-between-poll-max", "below half of max.poll.interval.ms"))  # fmt: skip
    return found


def topic_and_broker(profile: Resolved) -> list[Recommendation]:
    rf = profile["replication_factor"]
    found = [Recommendation(
        "topic", "replication.factor", str(rf), "the profile's RF (3 when the cluster has 3 brokers or more)",
        {"RF": rf, "brokers": profile["brokers"]}, "copies survive the loss of RF − 1 brokers",
        citations.confluent("durability"), "disk and replication traffic × RF", "describe the topic",
        f"{rf} replicas")]  # fmt: skip
    size = sizing.partitions(profile)
    found.append(Recommendation(
        "topic", "partitions", str(int(size.value)), size.formula, size.inputs,
        "enough partitions for the peak rate, for each consumer to keep up, for every consumer of a group, and for "
        "every broker to lead a share of the writes" + (f" ({size.note})" if size.note else ""),
        size.source, "more partitions: more open files, longer elections, more memory in clients",
        "per-partition BytesInPerSec; records-lag-max", "no partition above p_prod; lag flat"))  # fmt: skip
    lossless = profile["loss"] == "none"
    min_isr = max(1, rf - 1) if lossless else 1
    found.append(Recommendation(
        "topic", "min.insync.replicas", str(min_isr), "loss none → RF − 1 (at least 1); loss some → 1",
        {"RF": rf, "loss": profile["loss"]},
        "with acks=all a write needs this many copies before it is acknowledged" if lossless
        else "writes continue while a single replica is in sync", citations.confluent("durability, availability"),
        "writes stop (NOT_ENOUGH_REPLICAS) when fewer replicas are in sync" if lossless
        else "trades durability away: an acknowledged write may exist on one broker only",
        "UnderMinIsrPartitionCount", "0"))  # fmt: skip
    if profile["brokers"] and profile["brokers"] >= rf:
        found.append(Recommendation(
            "broker", "default.replication.factor", str(rf), "the profile's RF",
            {"RF": rf, "brokers": profile["brokers"]},
            "a topic created without a replication factor (auto-created, or by a tool that gives none) gets this many "
            "copies", citations.confluent("durability"), "disk and replication traffic × RF",
            "describe a topic created without --replication-factor", f"{rf} replicas"))  # fmt: skip
    found.append(Recommendation(
        "broker", "compression.type", "producer", "keep the producer's codec",
        {},
        "any other value makes the broker decompress and recompress every batch it receives (CPU, and the "
        "zero-copy path to consumers lost for them); the producer's codec is the one to choose",
        citations.BROKER_COMPRESSION, "", "brokers' CPU; RequestMetrics LocalTimeMs{request=Produce}",
        "lower once the broker stops recompressing"))  # fmt: skip
    found.append(Recommendation(
        "broker", "num.recovery.threads.per.data.dir", "2", "at least 2 (Kafka's default since 4.0); a log dir on a "
        "RAID array: its disks", {},
        "after an unclean shutdown the broker recovers each log dir's partitions with this many threads before it "
        "serves them; 1 (the default before 4.0, still in the shipped server.properties of older releases) recovers "
        "them one at a time", citations.RECOVERY_THREADS, "more disk reads at once while a broker starts",
        "LogManager remainingLogsToRecover; the broker's start-up time", "reaches 0 sooner after an unclean restart",
        at_least=True))  # fmt: skip
    unclean = "false" if lossless else "true"
    found.append(Recommendation(
        "broker", "unclean.leader.election.enable", unclean, "loss none → false; loss some → true",
        {"loss": profile["loss"]},
        "a replica outside the ISR never becomes leader, so acknowledged writes are never truncated" if lossless
        else "a partition gets a leader even when only out-of-sync replicas survive",
        citations.confluent("durability, availability"),
        "" if lossless else "trades durability away: the writes the new leader lacked are lost",
        "UncleanLeaderElectionsPerSec; OfflinePartitionsCount", "0"))  # fmt: skip
    if "retention_hours" in profile.given:
        found.append(Recommendation(
            "topic", "retention.ms", str(int(profile["retention_hours"] * 3_600_000)), "retention hours × 3600000",
            {"retention (h)": profile["retention_hours"]}, "records are kept as long as the profile says",
            f"{citations.AWS_MSK_SIZING} (storage = ingress × retention × RF)", "disk (sizing below)", "log size",
            "stable"))  # fmt: skip
    return found


def recommend(profile: Resolved) -> list[Recommendation]:
    return [*producer(profile), *consumer(profile), *topic_and_broker(profile)]
