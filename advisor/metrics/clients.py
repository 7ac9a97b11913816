"""Client metrics: what producers and consumers measure, from the three clients' own outputs.

- **Java** (`KafkaProducer.metrics()` / `KafkaConsumer.metrics()`) has no file format of its own;
  kafka-advisor reads this one (docs/metrics.md shows the dozen lines that write it), one object
  per line for a series over time:

      {"format": "kafka-client-metrics", "time_ms": 1764550800123, "client_type": "producer",
       "client_id": "orders-api", "metrics": [
         {"group": "producer-metrics", "name": "batch-size-avg", "tags": {"client-id": "orders-api"},
          "value": 1024.0}, ...]}

  The same format serves kafka-python (`metrics(raw=True)`: MetricName's group, name and tags and
  KafkaMetric's value), and kafka-python's plain `json.dumps(producer.metrics())` —
  `{group: {name: value}}`, tags dropped — is read too.
- **librdkafka** statistics (`statistics.interval.ms` and a stats callback): one JSON object per
  emit, or a JSON-lines stream of them. Its windows (`int_latency`, `batchsize`, ...) cover only the
  last interval; latencies are microseconds.

Each becomes client samples: the metric in Java's naming (`producer-metrics/batch-size-avg`), the
node the client (its client id), labels (topic, broker), the value in Java's unit, and the field as
the input wrote it (`topics.orders.batchsize.avg`), which findings name.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from typing import Any

from advisor import lazy_re
from advisor.model.document import LoadError
from advisor.named_tuple import NamedTuple


class ClientMetric(NamedTuple):
    id: str  # Java's group/name
    role: str  # producer or consumer
    reading: str  # value (a windowed average or max) or count (cumulative)
    unit: str


BATCH_SIZE_AVG = ClientMetric("producer-metrics/batch-size-avg", "producer", "value", "bytes")
RECORD_SIZE_AVG = ClientMetric("producer-metrics/record-size-avg", "producer", "value", "bytes")
RECORDS_PER_BATCH = ClientMetric("producer/records-per-batch", "producer", "value", "records")  # derived
RECORD_SEND_TOTAL = ClientMetric("producer-metrics/record-send-total", "producer", "count", "records")
RECORD_SEND_RATE = ClientMetric("producer-metrics/record-send-rate", "producer", "value", "records/s")
RECORD_ERROR_TOTAL = ClientMetric("producer-metrics/record-error-total", "producer", "count", "records")
RECORD_RETRY_TOTAL = ClientMetric("producer-metrics/record-retry-total", "producer", "count", "records")
# Windowed rates (records a second over the client's last sample windows): kafka-python has no -total.
RECORD_RETRY_RATE = ClientMetric("producer-metrics/record-retry-rate", "producer", "value", "records/s")
RECORD_ERROR_RATE = ClientMetric("producer-metrics/record-error-rate", "producer", "value", "records/s")
# librdkafka counts requests, not records, per broker: requests sent, and retries of them.
REQUESTS_SENT_TOTAL = ClientMetric("librdkafka/tx", "producer", "count", "requests")
REQUEST_RETRY_TOTAL = ClientMetric("librdkafka/txretries", "producer", "count", "requests")
# librdkafka's requests waiting in a broker's output buffer to be written to its socket (a gauge).
OUTBUF_COUNT = ClientMetric("librdkafka/outbuf_cnt", "producer", "value", "requests")
RECORD_QUEUE_TIME_AVG = ClientMetric("producer-metrics/record-queue-time-avg", "producer", "value", "ms")
# A produce request's round trip, send to response (Java request-latency-avg; librdkafka's rtt per broker).
REQUEST_LATENCY_AVG = ClientMetric("producer-metrics/request-latency-avg", "producer", "value", "ms")
# How long the brokers' quotas held the producer back, per response (ms; librdkafka's throttle is ms too).
THROTTLE_TIME_AVG = ClientMetric("producer-metrics/produce-throttle-time-avg", "producer", "value", "ms")
BUFFERPOOL_WAIT_RATIO = ClientMetric("producer-metrics/bufferpool-wait-ratio", "producer", "value", "ratio")
QUEUE_FILL = ClientMetric("librdkafka/queue-fill", "producer", "value", "ratio")  # msg_cnt/msg_max, size too
TIME_BETWEEN_POLL_MAX = ClientMetric("consumer-metrics/time-between-poll-max", "consumer", "value", "ms")
# Lag in records: Java's and kafka-python's records-lag-max (the largest of the consumer's
# partitions, from its fetch position), librdkafka's consumer_lag per partition (from the committed
# offset; -1 when unknown). One concept, told apart by the field the finding names.
RECORDS_LAG = ClientMetric("consumer/records-lag", "consumer", "value", "records")
# The flow view's per-partition offsets (advisor/analysis/flow.py): librdkafka's hi_offset (the end
# a consumer sees) and committed_offset (-1001: none); Java's per-partition records-lag (from the
# fetch position), apart from records-lag-max so that one consumer's lag is not judged twice.
PARTITION_END = ClientMetric("consumer/partition-end-offset", "consumer", "value", "offset")
COMMITTED_OFFSET = ClientMetric("consumer/committed-offset", "consumer", "value", "offset")
# Compressed over uncompressed size of the batches sent (Java, kafka-python): 1.0 without a codec.
COMPRESSION_RATE_AVG = ClientMetric("producer-metrics/compression-rate-avg", "producer", "value", "ratio")
# Fetch responses: their average size (bytes) and how many a second (fetch-total's increase, else fetch-rate).
FETCH_SIZE_AVG = ClientMetric("consumer-fetch-manager-metrics/fetch-size-avg", "consumer", "value", "bytes")
FETCH_TOTAL = ClientMetric("consumer-fetch-manager-metrics/fetch-total", "consumer", "count", "fetches")
FETCH_RATE = ClientMetric("consumer-fetch-manager-metrics/fetch-rate", "consumer", "value", "fetches/s")
# Rebalances the consumer took part in since it started (Java counts each successful one, the first
# join included; librdkafka cgrp.rebalance_cnt): a rate needs two samples, the count alone says nothing.
REBALANCE_TOTAL = ClientMetric("consumer-coordinator-metrics/rebalance-total", "consumer", "count", "rebalances")
PARTITION_RECORDS_LAG = ClientMetric("consumer/partition-records-lag", "consumer", "value", "records")

# kafka-producer-perf-test's own summary of a run (`bench` reads the same line): the run's records a
# second, MiB a second and latency percentiles (send() to callback), one sample a run.
PERF_RECORDS_PER_SECOND = ClientMetric("perf/records-per-second", "producer", "value", "records/s")
PERF_MIB_PER_SECOND = ClientMetric("perf/mib-per-second", "producer", "value", "MiB/s")
PERF_P50 = ClientMetric("perf/p50-latency", "producer", "value", "ms")
PERF_P99 = ClientMetric("perf/p99-latency", "producer", "value", "ms")
PERF_P999 = ClientMetric("perf/p99.9-latency", "producer", "value", "ms")
PERF_FIGURES = {"records_per_second": PERF_RECORDS_PER_SECOND, "mib_per_second": PERF_MIB_PER_SECOND,
                "p50_ms": PERF_P50, "p99_ms": PERF_P99, "p999_ms": PERF_P999}  # fmt: skip

CLIENT_METRICS = (*PERF_FIGURES.values(),
                  BATCH_SIZE_AVG, RECORD_SIZE_AVG, RECORDS_PER_BATCH, RECORD_SEND_TOTAL, RECORD_SEND_RATE,
                  RECORD_ERROR_TOTAL, RECORD_RETRY_TOTAL, RECORD_QUEUE_TIME_AVG, REQUEST_LATENCY_AVG,
                  THROTTLE_TIME_AVG, BUFFERPOOL_WAIT_RATIO, QUEUE_FILL, RECORD_RETRY_RATE, RECORD_ERROR_RATE,
                  REQUESTS_SENT_TOTAL,
                  REQUEST_RETRY_TOTAL, OUTBUF_COUNT,
                  TIME_BETWEEN_POLL_MAX, RECORDS_LAG, PARTITION_END, COMMITTED_OFFSET,
                  PARTITION_RECORDS_LAG, REBALANCE_TOTAL, FETCH_SIZE_AVG, FETCH_TOTAL, FETCH_RATE,
                  COMPRESSION_RATE_AVG)  # fmt: skip
BY_ID = {metric.id: metric for metric in CLIENT_METRICS}
# Java's group/name → the metric (its own id, but for concepts the clients share).
# Java's record-error-rate is passed over (its record-error-total is KM023's); kafka-python has only the rate.
JAVA_NAMES = {
    **{name: metric for name, metric in BY_ID.items() if metric is not RECORD_ERROR_RATE},
    "consumer-fetch-manager-metrics/records-lag-max": RECORDS_LAG,
    "consumer-fetch-manager-metrics/records-lag": PARTITION_RECORDS_LAG,
}
# kafka-python names a few metrics its own way (kafka/net/metrics.py), and records one in another
# unit: its record-queue-time-avg is in seconds (kafka/producer/sender.py records drained - created,
# both time.time(), under a description that says ms; tests/integration proves it on a real client).
KAFKA_PYTHON_NAMES = {**JAVA_NAMES, "producer-metrics/throttle-time-avg": THROTTLE_TIME_AVG,
                      RECORD_ERROR_RATE.id: RECORD_ERROR_RATE}  # fmt: skip
KAFKA_PYTHON_SCALE = {RECORD_QUEUE_TIME_AVG: 1000.0}
JAVA_FORMAT = "kafka-client-metrics"
MAX_SECONDS = 1e11  # a time past the year 5000 is no time
TOO_DEEP = "JSON nested too deeply to read (no client writes metrics this deep)"


class ClientSample(NamedTuple):
    metric: ClientMetric
    client: str  # the node: the client id (else the file)
    labels: tuple[tuple[str, str], ...]
    value: float
    timestamp_ms: int | None
    line: int
    written: str  # the field as the input wrote it
    library: str  # java, librdkafka, kafka-python


PERF_TEST = "perf-test"  # kafka-producer-perf-test's output, saved (with --print-metrics: its metrics too)


def kind_of(head: str) -> str | None:
    """Which client format a text is, from its start: java (our dump), librdkafka, kafka-python
    (JSON), or a saved kafka-producer-perf-test run."""
    start = head.lstrip("\ufeff \t\r\n")
    if _PERF_LINE.search(head):
        return PERF_TEST
    if not start.startswith("{"):
        return None
    if f'"format": "{JAVA_FORMAT}"' in head or f'"format":"{JAVA_FORMAT}"' in head:
        return "java"
    if '"client_id"' in head and '"type"' in head and ('"msg_cnt"' in head or '"brokers"' in head or '"ts"' in head):
        return "librdkafka"
    # Statistics before client_id was added (librdkafka 0.11.5): `name` ("rdkafka#producer-1") names
    # the client, and the top-level queue counters every version writes say what it is.
    if '"name"' in head and '"type"' in head and '"replyq"' in head and '"msg_cnt"' in head:
        return "librdkafka"
    if '"producer-metrics"' in head or '"consumer-fetch-manager-metrics"' in head or '"consumer-metrics"' in head:
        return "kafka-python"
    return None


def _objects(lines: Iterable[str], path: str, whole_limit: int) -> Iterator[tuple[int, Any]]:
    """(line, object) for a JSON-lines stream, read a line at a time (an hour of statistics is tens
    of MB), or for one JSON object over many lines (pretty-printed), read whole up to `whole_limit`."""
    pending: list[str] = []  # the lines of one multi-line document
    size = 0
    streaming = None
    for number, line in enumerate(lines, start=1):
        if streaming is None and line.strip():
            try:
                document = json.loads(line)
                streaming = True
            except ValueError:
                streaming = False
            except RecursionError:
                raise LoadError(path, number, TOO_DEEP) from None
            else:
                yield number, document
                continue
        if streaming:
            if line.strip():
                try:
                    document = json.loads(line)
                except json.JSONDecodeError as error:
                    raise LoadError(path, number, f"not JSON (one object a line expected): {error.msg}") from None
                except RecursionError:
                    raise LoadError(path, number, TOO_DEEP) from None
                yield number, document
            continue
        size += len(line)
        if size > whole_limit:
            raise LoadError(
                path, number, f"one JSON document larger than {whole_limit:,} characters (limits.file-bytes)"
            )
        pending.append(line)
    if pending:
        try:
            document = json.loads("".join(pending))
        except ValueError as error:
            raise LoadError(path, error.lineno if hasattr(error, "lineno") else 1, f"not JSON: {error}") from None
        except RecursionError:
            raise LoadError(path, 1, TOO_DEEP) from None
        yield 1, document


def _number(value: Any) -> float | None:
    """A finite number, else None (JSON's 1e999 reads as infinity: no time, no value)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def read(text: str, path: str, kind: str) -> list[ClientSample]:
    return read_lines(text.splitlines(keepends=True), path, kind, len(text) + 1)


# A progress or summary line of kafka-producer-perf-test (advisor/bench/perf.py reads the summary).
_PERF_LINE = lazy_re.compile(r"(?m)^\d+ records sent(?: steady state)?, [\d.]+ records/sec \([\d.]+ MB/sec\)")


def _perf(lines: Iterable[str], path: str, most: int) -> list[ClientSample]:
    """A saved perf-test run: its final summary's figures and its --print-metrics producer metrics,
    one sample each, of the client the metrics name (else the file). A run without a final summary
    (cut short) is an error: its figures would be a progress line's."""
    from advisor.metrics import perf_output as perf

    text = "".join(lines)
    if len(text) > perf.MAX_OUTPUT * 4:
        raise LoadError(path, None, "larger than a perf-test run's output is (limits.file-bytes)")
    try:
        run = perf.summary(text)
    except perf.PerfError as error:
        raise LoadError(path, None, f"{error} (a run cut short?)") from None
    client = perf.client_id(text) or path
    at = text.count("\n", 0, perf.summary_offset(text)) + 1
    found = [ClientSample(metric, client, (), float(getattr(run, figure)), None, at, f"summary {figure}", "java")
             for figure, metric in PERF_FIGURES.items()]  # fmt: skip
    for name, value in perf.all_metrics(text).items():
        metric = JAVA_NAMES.get(f"producer-metrics/{name}")
        if metric is not None:
            found.append(ClientSample(metric, client, (), value, None, at, f"producer-metrics/{name}", "java"))
    if len(found) > most:
        raise LoadError(path, None, f"more than {most:,} samples (limits.metric-points)")
    return found + records_per_batch(found)


def read_lines(
    lines: Iterable[str], path: str, kind: str, whole_limit: int, most: int = 50_000_000
) -> list[ClientSample]:
    """Every sample the rules read; more than `most` (limits.metric-points) is an error."""
    if kind == PERF_TEST:
        return _perf(lines, path, most)
    samples: list[ClientSample] = []
    for line, document in _objects(lines, path, whole_limit):
        if len(samples) > most:
            raise LoadError(path, line, f"more than {most:,} samples (limits.metric-points)")
        if not isinstance(document, dict):
            raise LoadError(path, line, "a client metrics object is expected")
        if kind == "java":
            samples += _java(document, path, line)
        elif kind == "librdkafka":
            samples += _librdkafka(document, path, line)
        else:
            samples += _kafka_python(document, path, line)
    return samples + records_per_batch(samples)


def _java(document: dict[str, Any], path: str, line: int) -> list[ClientSample]:
    metrics = document.get("metrics")
    if not isinstance(metrics, list):
        raise LoadError(path, line, 'a kafka-client-metrics object needs "metrics": [{group, name, tags, value}]')
    milliseconds = _number(document.get("time_ms"))
    stamp = int(milliseconds) if milliseconds is not None and 0 <= milliseconds < MAX_SECONDS * 1000 else None
    client = str(document.get("client_id") or path)
    library = "kafka-python" if document.get("library") == "kafka-python" else "java"
    known = KAFKA_PYTHON_NAMES if library == "kafka-python" else JAVA_NAMES
    found = []
    for entry in metrics:
        if not isinstance(entry, dict):
            raise LoadError(path, line, "each metric is an object with group, name, tags and value")
        metric = known.get(f"{entry.get('group')}/{entry.get('name')}")
        value = _number(entry.get("value"))
        if metric is None or value is None:
            continue  # a metric no rule reads, or no value yet (NaN is written null)
        if library == "kafka-python":
            value *= KAFKA_PYTHON_SCALE.get(metric, 1.0)
        tags = entry.get("tags") if isinstance(entry.get("tags"), dict) else {}
        labels = tuple(sorted((str(k), str(v)) for k, v in tags.items() if k != "client-id"))
        written = f"{entry['group']}/{entry['name']}" + "".join(f"[{k}={v}]" for k, v in labels)
        found.append(ClientSample(metric, str(tags.get("client-id") or client), labels, value, stamp, line, written,
                                  library))  # fmt: skip
    return found


def _kafka_python(document: dict[str, Any], path: str, line: int) -> list[ClientSample]:
    """`json.dumps(client.metrics())`: {group: {name: value}}, tags (and so the client id) dropped."""
    found = []
    for group, values in document.items():
        if not isinstance(values, dict):
            continue
        for name, raw in values.items():
            metric = KAFKA_PYTHON_NAMES.get(f"{group}/{name}")
            value = _number(raw)
            if metric is not None and value is not None:
                value *= KAFKA_PYTHON_SCALE.get(metric, 1.0)
                found.append(ClientSample(metric, path, (), value, None, line, f"{group}/{name}", "kafka-python"))
    return found


def _librdkafka(document: dict[str, Any], path: str, line: int) -> list[ClientSample]:
    client = str(document.get("client_id") or document.get("name") or path)
    seconds = _number(document.get("time"))
    stamp = int(seconds * 1000) if seconds is not None and 0 <= seconds < MAX_SECONDS else None
    found: list[ClientSample] = []

    def add(metric: ClientMetric, labels: tuple[tuple[str, str], ...], value: float, written: str) -> None:
        found.append(ClientSample(metric, client, labels, value, stamp, line, written, "librdkafka"))

    if document.get("type") == "producer":
        for count, limit, field in (("msg_cnt", "msg_max", "msg_cnt"), ("msg_size", "msg_size_max", "msg_size")):
            used, most = _number(document.get(count)), _number(document.get(limit))
            if used is not None and most:
                add(QUEUE_FILL, (("queue", field),), used / most, f"{field}/{limit}")
        total = _number(document.get("txmsgs"))
        if total is not None:
            add(RECORD_SEND_TOTAL, (), total, "txmsgs")
        for broker, stats in _items(document.get("brokers")):
            if isinstance(stats, dict) and _number(stats.get("nodeid")) is not None and stats["nodeid"] < 0:
                continue  # bootstrap and coordinator handles: no broker of their own
            for field, metric in (
                ("tx", REQUESTS_SENT_TOTAL),
                ("txretries", REQUEST_RETRY_TOTAL),
                ("outbuf_cnt", OUTBUF_COUNT),
            ):
                number = _number(stats.get(field)) if isinstance(stats, dict) else None
                if number is not None:
                    add(metric, (("broker", broker),), number, f"brokers.{broker}.{field}")
            for window_name, metric, scale in (
                ("int_latency", RECORD_QUEUE_TIME_AVG, 1000.0),
                ("rtt", REQUEST_LATENCY_AVG, 1000.0),
                ("throttle", THROTTLE_TIME_AVG, 1.0),
            ):  # µs, µs, ms
                window = stats.get(window_name) if isinstance(stats, dict) else None
                if isinstance(window, dict) and _number(window.get("cnt")):  # an empty window's avg is 0, no value
                    add(metric, (("broker", broker),), float(_number(window.get("avg")) or 0) / scale,
                        f"brokers.{broker}.{window_name}.avg")  # fmt: skip
        for topic, stats in _items(document.get("topics")):
            for window_name, metric in (("batchsize", BATCH_SIZE_AVG), ("batchcnt", RECORDS_PER_BATCH)):
                window = stats.get(window_name) if isinstance(stats, dict) else None
                if isinstance(window, dict) and _number(window.get("cnt")):
                    add(metric, (("topic", topic),), float(window.get("avg") or 0), f"topics.{topic}.{window_name}.avg")
    if document.get("type") == "consumer":
        group = document.get("cgrp")
        rebalances = _number(group.get("rebalance_cnt")) if isinstance(group, dict) else None
        if rebalances is not None:
            add(REBALANCE_TOTAL, (), rebalances, "cgrp.rebalance_cnt")
        for topic, stats in _items(document.get("topics")):
            for partition, numbers in _items(stats.get("partitions") if isinstance(stats, dict) else None):
                if partition == "-1" or not isinstance(numbers, dict):  # -1: the unassigned (UA) partition
                    continue
                labels = (("partition", partition), ("topic", topic))
                where = f"topics.{topic}.partitions.{partition}"
                lag = _number(numbers.get("consumer_lag"))
                if lag is not None and lag >= 0:  # -1: unknown
                    add(RECORDS_LAG, labels, lag, f"{where}.consumer_lag")
                end, committed = _number(numbers.get("hi_offset")), _number(numbers.get("committed_offset"))
                assigned = numbers.get("desired", True) is True  # stats list every partition of the topics
                if assigned and end is not None and end >= 0 and committed is not None:  # committed -1001: none yet
                    add(PARTITION_END, labels, end, f"{where}.hi_offset")
                    add(COMMITTED_OFFSET, labels, committed, f"{where}.committed_offset")
    return found


def _items(value: Any) -> list[tuple[str, Any]]:
    return sorted(value.items()) if isinstance(value, dict) else []


def records_per_batch(samples: list[ClientSample], same_line: bool = True) -> list[ClientSample]:
    """Java and kafka-python give bytes per batch and bytes per record; their ratio is records per
    batch, which librdkafka gives directly (batchcnt). Paired by client, labels and time, and by
    line where both are written on one (a dump); a scrape writes each on a line of its own."""

    def pairing(sample: ClientSample) -> tuple:  # type: ignore[type-arg]
        return sample.client, sample.labels, sample.timestamp_ms, sample.line if same_line else None

    sizes = {pairing(s): s for s in samples if s.metric is RECORD_SIZE_AVG}
    derived = []
    for sample in samples:
        if sample.metric is BATCH_SIZE_AVG and sample.library != "librdkafka":
            record = sizes.get(pairing(sample))
            if record is not None and record.value > 0:
                derived.append(sample._replace(metric=RECORDS_PER_BATCH, value=sample.value / record.value,
                                               written=f"{sample.written} / {record.written}"))  # fmt: skip
    return derived


# Where each client writes each metric, for the rule pages (the readers above are the truth).
FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    RECORDS_PER_BATCH.id: (
        ("java", "producer-metrics batch-size-avg / record-size-avg"),
        ("kafka-python", "producer-metrics batch-size-avg / record-size-avg"),
        ("librdkafka", "topics.<topic>.batchcnt.avg"),
    ),
    BATCH_SIZE_AVG.id: (
        ("java", "producer-metrics batch-size-avg"),
        ("kafka-python", "producer-metrics batch-size-avg"),
        ("librdkafka", "topics.<topic>.batchsize.avg"),
    ),
    RECORD_QUEUE_TIME_AVG.id: (
        ("java", "producer-metrics record-queue-time-avg"),
        ("kafka-python", "producer-metrics record-queue-time-avg (seconds, read as ms)"),
        ("librdkafka", "brokers.<broker>.int_latency.avg (µs, read as ms)"),
    ),
    REQUEST_LATENCY_AVG.id: (
        ("java", "producer-metrics request-latency-avg"),
        ("kafka-python", "producer-metrics request-latency-avg"),
        ("librdkafka", "brokers.<broker>.rtt.avg (µs, read as ms)"),
    ),
    THROTTLE_TIME_AVG.id: (
        ("java", "producer-metrics produce-throttle-time-avg"),
        ("kafka-python", "producer-metrics throttle-time-avg"),
        ("librdkafka", "brokers.<broker>.throttle.avg (ms)"),
    ),
    BUFFERPOOL_WAIT_RATIO.id: (("java", "producer-metrics bufferpool-wait-ratio"),),
    QUEUE_FILL.id: (("librdkafka", "msg_cnt / msg_max and msg_size / msg_size_max"),),
    RECORDS_LAG.id: (
        ("java", "consumer-fetch-manager-metrics records-lag-max (from the fetch position)"),
        ("kafka-python", "consumer-fetch-manager-metrics records-lag-max"),
        ("librdkafka", "topics.<topic>.partitions.<partition>.consumer_lag (from the committed offset)"),
    ),
    TIME_BETWEEN_POLL_MAX.id: (("java", "consumer-metrics time-between-poll-max"),),
    PARTITION_END.id: (("librdkafka", "topics.<topic>.partitions.<partition>.hi_offset (assigned partitions)"),),
    COMMITTED_OFFSET.id: (("librdkafka", "topics.<topic>.partitions.<partition>.committed_offset (-1001: none)"),),
    FETCH_SIZE_AVG.id: (
        ("java", "consumer-fetch-manager-metrics fetch-size-avg (with fetch-total or fetch-rate)"),
        ("kafka-python", "consumer-fetch-manager-metrics fetch-size-avg (with fetch-rate)"),
    ),
    REBALANCE_TOTAL.id: (
        ("java", "consumer-coordinator-metrics rebalance-total"),
        ("librdkafka", "cgrp.rebalance_cnt"),
    ),
    PARTITION_RECORDS_LAG.id: (("java", "consumer-fetch-manager-metrics records-lag [topic, partition]"),),
    RECORD_ERROR_TOTAL.id: (("java", "producer-metrics record-error-total"),),
    RECORD_ERROR_RATE.id: (("kafka-python", "producer-metrics record-error-rate (it has no total)"),),
    COMPRESSION_RATE_AVG.id: (
        ("java", "producer-metrics compression-rate-avg (with record-send-total and record-size-avg)"),
        ("kafka-python", "producer-metrics compression-rate-avg (with record-send-rate and record-size-avg)"),
    ),
    RECORD_RETRY_TOTAL.id: (
        ("java", "producer-metrics record-retry-total (of record-send-total)"),
        ("kafka-python", "producer-metrics record-retry-rate (of record-send-rate: it has no totals)"),
    ),
    REQUEST_RETRY_TOTAL.id: (("librdkafka", "brokers.<broker>.txretries (of brokers.<broker>.tx)"),),
}
