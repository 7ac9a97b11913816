"""One name per broker metric (its MBean), and every name the common exporter setups give it.

A rule asks for `kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions`; a scrape
says `kafka_server_replicamanager_underreplicatedpartitions`, or, for a meter,
`…_bytesin_total` (Prometheus JMX exporter example rules, Strimzi's exporter rules, this
project's test bed), `…_bytesinpersec_total` (Strimzi Metrics Reporter) or a bare
`…_bytesinpersec` (Confluent jmx-monitoring-stacks). The names are derived from the MBean
by each dialect's naming rules (../shared/knowledge/kafka-metrics.md §1.1-1.2), not typed one
by one; `tests/integration/test_metric_dialects.py` runs each dialect's exporter rules on the
real test cluster and requires every name used here to be found (docs/metrics.md).

A name says what its number is (`Reading`): a gauge's current value, a meter's cumulative
count (a rate needs two samples), a rate already smoothed by the meter (its one-minute
rate), a rate averaged since the broker started (`MeanRate`: no use for judging now), a
histogram percentile (a `quantile` label) or a histogram's count.
"""

from __future__ import annotations

from advisor.named_tuple import NamedTuple

# Dialects, as docs/metrics.md names them.
JMX_EXAMPLE = "jmx-exporter-example"  # prometheus/jmx_exporter examples/kafka-*.yml
STRIMZI = "strimzi-jmx-exporter"  # Strimzi's kafka-metrics.yaml
STRIMZI_REPORTER = "strimzi-metrics-reporter"
CONFLUENT = "confluent-jmx-monitoring-stacks"
TEST_BED = "kafka-advisor-test-bed"  # tools/jmx-exporter/kafka-broker.yaml
DIALECTS = (JMX_EXAMPLE, STRIMZI, STRIMZI_REPORTER, CONFLUENT, TEST_BED)
# The JMX exporter without rules: <domain>_<type>_<attribute>, the bean's other keys as labels
# (`kafka_server_replicamanager_value{name="UnderReplicatedPartitions"}`), lower-cased with
# `lowercaseOutputName: true`, in JMX case without (as Amazon MSK's Open Monitoring serves them).
# Named by (series, `name` label), not by series alone: see `resolve_default`.
JMX_DEFAULT = "jmx-exporter-default"
JMX_DEFAULT_CASE = "jmx-exporter-default-jmx-case"
# Exporters that read offsets over the Kafka protocol (no JMX), and hosts' disk space: their names
# are written out, not derived (docs/metrics.md, "Flow control").
KAFKA_EXPORTER = "kafka-exporter"  # danielqsj/kafka_exporter, kafka_exporter.go
KMINION = "kminion"  # redpanda-data/kminion docs/metrics.md
KAFKA_LAG_EXPORTER = "kafka-lag-exporter"  # seglo/kafka-lag-exporter README
NODE_EXPORTER = "node-exporter"
KUBELET = "kubelet"
# The Camunda pack: the Zeebe broker's own Prometheus names (BackpressureMetrics, AppenderMetrics,
# ExporterMetrics in Camunda's source), written out as they are registered.
ZEEBE = "zeebe"


class Reading:
    VALUE = "value"  # a gauge: the value now
    COUNT = "count"  # cumulative since start: a rate needs two samples
    RATE = "rate"  # per second, smoothed by the meter (one-minute rate)
    LIFETIME = "lifetime"  # per second, averaged since the broker started (MeanRate)
    QUANTILE = "quantile"  # a histogram percentile, with a quantile label
    COUNT_OR_RATE = "count-or-rate"  # one name for both in two dialects: a small value is the rate


class Metric(NamedTuple):
    mbean: str
    # gauge, meter or histogram (Yammer's types); count-gauge, a gauge whose value is a count since the
    # node started (its increase is what happened); attribute (a Kafka-metrics attribute)
    kind: str
    count_scale: float = 1.0  # what one count is worth: idle meters count nanoseconds
    attribute: str = ""  # a Kafka-metrics MBean's attribute (its names are given, not derived)

    @property
    def short(self) -> str:
        """`ReplicaManager.UnderReplicatedPartitions`: for messages."""
        properties = dict(part.split("=", 1) for part in self.mbean.split(":", 1)[1].split(","))
        if self.attribute:
            return f"{properties['type']} {self.attribute}"
        return f"{properties['type']}.{properties['name']}"


def _metric(mbean: str, kind: str, count_scale: float = 1.0) -> Metric:
    return Metric(mbean, kind, count_scale)


# Kafka-metrics attributes, named by each dialect's own rules (written out: no naming scheme to derive
# them from), each with the labels a name implies: (series name, reading, dialects, implied labels).
# Client quotas: a client's (or user's) throttle time now, averaged over the quota window
# (quota.window.num x quota.window.size.seconds, 11 s), in ms: `kafka.server:type=Produce|Fetch|Request,
# user=U,client-id=C` (ops.html). Only brokers with a quota configured have them.
QUOTA_THROTTLE = Metric(
    "kafka.server:type=Produce|Fetch|Request,user=*,client-id=*", "attribute", attribute="throttle-time"
)
_NAMED: dict[Metric, tuple[tuple[str, str, frozenset[str], tuple[tuple[str, str], ...]], ...]] = {
    QUOTA_THROTTLE: (
        ("kafka_server_quota_throttle_time", "value", frozenset({JMX_EXAMPLE, TEST_BED}),
         ()),  # a resource label says Produce, Fetch or Request
        # The Strimzi reporter names a Kafka metric <domain>_<group>_<name>: the same names; so does
        # the JMX exporter's default format (<domain>_<type>_<attribute>), lower-cased or in JMX case.
        ("kafka_server_produce_throttle_time", "value", frozenset({CONFLUENT, STRIMZI_REPORTER, JMX_DEFAULT}),
         (("resource", "Produce"),)),
        ("kafka_server_fetch_throttle_time", "value", frozenset({CONFLUENT, STRIMZI_REPORTER, JMX_DEFAULT}),
         (("resource", "Fetch"),)),
        ("kafka_server_request_throttle_time", "value", frozenset({CONFLUENT, STRIMZI_REPORTER, JMX_DEFAULT}),
         (("resource", "Request"),)),
        ("kafka_server_Produce_throttle_time", "value", frozenset({JMX_DEFAULT_CASE}), (("resource", "Produce"),)),
        ("kafka_server_Fetch_throttle_time", "value", frozenset({JMX_DEFAULT_CASE}), (("resource", "Fetch"),)),
        ("kafka_server_Request_throttle_time", "value", frozenset({JMX_DEFAULT_CASE}), (("resource", "Request"),)),
    ),
}  # fmt: skip

# Offsets an offset exporter reads (ListOffsets, OffsetFetch) and the disk space a host reports:
# no MBean, so named by what they are. Group labels differ by exporter (consumergroup, group,
# group_id), topic and partition labels too (KMinion: topic_name, partition_id).
PARTITION_END_OFFSET = Metric("offsets:type=Partition,name=HighWatermark", "exporter")
PARTITION_REPLICAS = Metric("offsets:type=Partition,name=Replicas", "exporter")
GROUP_OFFSET = Metric("offsets:type=ConsumerGroup,name=CommittedOffset", "exporter")  # -1: none committed
GROUP_LAG = Metric("offsets:type=ConsumerGroup,name=Lag", "exporter")  # end - committed; -1: unknown
FS_AVAILABLE = Metric("host:type=Filesystem,name=AvailableBytes", "host")
FS_SIZE = Metric("host:type=Filesystem,name=SizeBytes", "host")
_NAMED.update({
    PARTITION_END_OFFSET: (
        ("kafka_topic_partition_current_offset", "value", frozenset({KAFKA_EXPORTER}), ()),
        ("kminion_kafka_topic_partition_high_water_mark", "value", frozenset({KMINION}), ()),
        ("kafka_partition_latest_offset", "value", frozenset({KAFKA_LAG_EXPORTER}), ()),
    ),
    PARTITION_REPLICAS: (("kafka_topic_partition_replicas", "value", frozenset({KAFKA_EXPORTER}), ()),),
    GROUP_OFFSET: (
        ("kafka_consumergroup_current_offset", "value", frozenset({KAFKA_EXPORTER}), ()),
        ("kafka_consumergroup_group_offset", "value", frozenset({KAFKA_LAG_EXPORTER}), ()),
    ),
    GROUP_LAG: (
        ("kafka_consumergroup_lag", "value", frozenset({KAFKA_EXPORTER}), ()),
        ("kminion_kafka_consumer_group_topic_partition_lag", "value", frozenset({KMINION}), ()),
        ("kafka_consumergroup_group_lag", "value", frozenset({KAFKA_LAG_EXPORTER}), ()),
    ),
    FS_AVAILABLE: (
        ("node_filesystem_avail_bytes", "value", frozenset({NODE_EXPORTER}), ()),
        ("kubelet_volume_stats_available_bytes", "value", frozenset({KUBELET}), ()),
    ),
    FS_SIZE: (
        ("node_filesystem_size_bytes", "value", frozenset({NODE_EXPORTER}), ()),
        ("kubelet_volume_stats_capacity_bytes", "value", frozenset({KUBELET}), ()),
    ),
})  # fmt: skip


# The Zeebe broker's flow-control metrics, per partition, served by its leader (docs/camunda.md): the
# commands it took and the ones it refused (every circuit's refusals counted together), the in-flight
# limit and count, and the log's last committed position against each exporter's last exported one.
ZEEBE_DROPPED = Metric("zeebe:type=Backpressure,name=DroppedRequests", "exporter")
ZEEBE_RECEIVED = Metric("zeebe:type=Backpressure,name=ReceivedRequests", "exporter")
ZEEBE_LIMIT = Metric("zeebe:type=Backpressure,name=RequestsLimit", "exporter")
ZEEBE_INFLIGHT = Metric("zeebe:type=Backpressure,name=InflightRequests", "exporter")
ZEEBE_COMMITTED = Metric("zeebe:type=LogAppender,name=LastCommittedPosition", "exporter")
ZEEBE_EXPORTED = Metric("zeebe:type=Exporter,name=LastExportedPosition", "exporter")
_NAMED.update({
    ZEEBE_DROPPED: (("zeebe_dropped_request_count_total", "count", frozenset({ZEEBE}), ()),),
    ZEEBE_RECEIVED: (("zeebe_received_request_count_total", "count", frozenset({ZEEBE}), ()),),
    ZEEBE_LIMIT: (("zeebe_backpressure_requests_limit", "value", frozenset({ZEEBE}), ()),),
    ZEEBE_INFLIGHT: (("zeebe_backpressure_inflight_requests_count", "value", frozenset({ZEEBE}), ()),),
    ZEEBE_COMMITTED: (("zeebe_log_appender_last_committed_position", "value", frozenset({ZEEBE}), ()),),
    ZEEBE_EXPORTED: (("zeebe_exporter_last_exported_position", "value", frozenset({ZEEBE}), ()),),
})  # fmt: skip


# The broker metrics the rules and the flow view read (kafka-metrics.md §1.2; ops.html for meaning),
# and no others: the exposition reader passes over every family not named here, so a large
# cluster's per-partition families nobody reads (log sizes, partition counts) cost nothing.
UNDER_REPLICATED = _metric("kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions", "gauge")
UNDER_MIN_ISR = _metric("kafka.server:type=ReplicaManager,name=UnderMinIsrPartitionCount", "gauge")
OFFLINE_PARTITIONS = _metric("kafka.controller:type=KafkaController,name=OfflinePartitionsCount", "gauge")
ACTIVE_CONTROLLERS = _metric("kafka.controller:type=KafkaController,name=ActiveControllerCount", "gauge")
# Brokers registered with the controller but fenced (not heartbeating: stopped, crashed, cut off);
# every KRaft controller reports the same count (seen on the test cluster).
FENCED_BROKERS = _metric("kafka.controller:type=KafkaController,name=FencedBrokerCount", "gauge")
# KRaft controllers (each node with the controller role): the age of the newest metadata record it
# applied — the quorum writes a no-op record every metadata.max.idle.interval.ms (500 ms), so a
# controller in a working quorum stays near that; without a quorum it grows by a second a second
# (both seen on the test cluster) — and the errors it met replaying or applying the metadata log.
LAST_APPLIED_LAG = _metric("kafka.controller:type=KafkaController,name=LastAppliedRecordLagMs", "gauge")
METADATA_ERRORS = _metric("kafka.controller:type=KafkaController,name=MetadataErrorCount", "count-gauge")
OFFLINE_LOG_DIRS = _metric("kafka.log:type=LogManager,name=OfflineLogDirectoryCount", "gauge")
UNCLEAN_ELECTIONS = _metric("kafka.controller:type=ControllerStats,name=UncleanLeaderElectionsPerSec", "meter")
# Per partition replica (topic and partition labels): the log's end offset.
LOG_END_OFFSET = _metric("kafka.log:type=Log,name=LogEndOffset", "gauge")
ISR_SHRINKS = _metric("kafka.server:type=ReplicaManager,name=IsrShrinksPerSec", "meter")
BYTES_IN = _metric("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec", "meter")
MESSAGES_IN = _metric("kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec", "meter")
# A Meter marked with idle nanoseconds per thread: its count is nanoseconds, its rates are
# already fractions (KafkaRequestHandler.scala; kafka-metrics.md §1.4).
REQUEST_HANDLER_IDLE = _metric(
    "kafka.server:type=KafkaRequestHandlerPool,name=RequestHandlerAvgIdlePercent", "meter", count_scale=1e-9
)
NETWORK_PROCESSOR_IDLE = _metric("kafka.network:type=SocketServer,name=NetworkProcessorAvgIdlePercent", "gauge")
REQUEST_TOTAL_TIME = _metric("kafka.network:type=RequestMetrics,name=TotalTimeMs", "histogram")
# Where a request's time goes (ops.html): queued for a handler, on the leader, waiting for others
# (followers for acks=all, a fetch's minimum bytes), queued for a network thread, sent, throttled.
REQUEST_QUEUE_TIME = _metric("kafka.network:type=RequestMetrics,name=RequestQueueTimeMs", "histogram")
LOCAL_TIME = _metric("kafka.network:type=RequestMetrics,name=LocalTimeMs", "histogram")
REMOTE_TIME = _metric("kafka.network:type=RequestMetrics,name=RemoteTimeMs", "histogram")
RESPONSE_QUEUE_TIME = _metric("kafka.network:type=RequestMetrics,name=ResponseQueueTimeMs", "histogram")
RESPONSE_SEND_TIME = _metric("kafka.network:type=RequestMetrics,name=ResponseSendTimeMs", "histogram")
# The parts of TotalTimeMs. A quota's throttle is not one: the broker mutes the connection after
# the response, so ThrottleTimeMs is time outside the request's total.
REQUEST_STAGES = (REQUEST_QUEUE_TIME, LOCAL_TIME, REMOTE_TIME, RESPONSE_QUEUE_TIME, RESPONSE_SEND_TIME)

METRICS: tuple[Metric, ...] = tuple(dict.fromkeys(v for v in list(globals().values()) if isinstance(v, Metric)))


class Alias(NamedTuple):
    metric: Metric
    reading: str
    dialects: frozenset[str]


def _mbean_parts(mbean: str) -> tuple[str, str, str]:
    domain, properties = mbean.split(":", 1)
    named = dict(part.split("=", 1) for part in properties.split(","))
    return domain.removeprefix("kafka.").lower(), named["type"].lower(), named["name"].lower()


# Confluent's rules give a one-minute rate (per topic and for all topics) to these meters only.
_CONFLUENT_RATES = ("messagesinpersec", "bytesinpersec", "bytesoutpersec")


def names(metric: Metric) -> list[tuple[str, str, frozenset[str]]]:
    """Every (series name, reading, dialects that write it) of one metric, as each dialect's rules
    name it (tools/jmx-exporter/dialects/README.md; proven by tests/integration/test_metric_dialects.py).
    Exporter 1.x writes a counter named `…_count` as `…_count_total`; 0.x as `…_count`: both are here."""
    if metric in _NAMED:
        return [(series, reading, dialects) for series, reading, dialects, _ in _NAMED[metric]]
    domain, kind, name = _mbean_parts(metric.mbean)
    base = f"kafka_{domain}_{kind}"
    every = frozenset(DIALECTS)
    example_and_strimzi = frozenset({JMX_EXAMPLE, STRIMZI})
    found: list[tuple[str, str, frozenset[str]]] = []
    if metric.kind == "count-gauge":
        found.append((f"{base}_{name}", Reading.COUNT, every))
    elif metric.kind == "gauge":
        if name.endswith("percent"):  # Strimzi's Percent rules come before its generic ones
            found.append((f"{base}_{name[: -len('percent')]}_percent", Reading.VALUE, frozenset({STRIMZI})))
            found.append((f"{base}_{name}", Reading.VALUE, every - {STRIMZI}))
        else:
            found.append((f"{base}_{name}", Reading.VALUE, every))
    elif metric.kind == "meter" and name.endswith("persec"):
        short = name[: -len("persec")]
        found.append((f"{base}_{short}_total", Reading.COUNT, frozenset({JMX_EXAMPLE, STRIMZI, TEST_BED})))
        found.append((f"{base}_{name}_total", Reading.COUNT, frozenset({STRIMZI_REPORTER})))
        found.append((f"{base}_{name}", Reading.COUNT, frozenset({CONFLUENT})))
        if kind == "brokertopicmetrics" and name in _CONFLUENT_RATES:
            found.append((f"{base}_{name}_oneminuterate", Reading.RATE, frozenset({CONFLUENT})))
            found.append((f"{base}_{name}_oneminuterate_alltopics", Reading.RATE, frozenset({CONFLUENT})))
    elif metric.kind == "meter":  # a meter not named PerSec: the idle meters
        found.append((f"{base}_{name}_count", Reading.COUNT, example_and_strimzi))
        found.append((f"{base}_{name}_count_total", Reading.COUNT, example_and_strimzi))
        found.append((f"{base}_{name}", Reading.COUNT, frozenset({CONFLUENT})))
        # The Strimzi reporter's count and Confluent's one-minute rate share this name: the value
        # tells them apart (a rate is a fraction, a count of nanoseconds is not).
        found.append((f"{base}_{name}_total", Reading.COUNT_OR_RATE, frozenset({STRIMZI_REPORTER, CONFLUENT})))
        found.append((f"{base}_{name}_oneminuterate", Reading.RATE, frozenset({CONFLUENT, TEST_BED})))
        if name.endswith("percent"):
            short = name[: -len("percent")]
            found.append((f"{base}_{short}_percent", Reading.LIFETIME, example_and_strimzi))
    else:  # histogram: percentiles by a quantile label; the count beside them
        # Strimzi's rules leave out the (numerous) request metrics' histograms; its reporter writes
        # every histogram as a summary (quantiles, _count, _sum).
        strimzi = frozenset() if kind == "requestmetrics" else frozenset({STRIMZI})
        quantiles = frozenset({JMX_EXAMPLE, CONFLUENT, TEST_BED, STRIMZI_REPORTER}) | strimzi
        found.append((f"{base}_{name}", Reading.QUANTILE, quantiles))
        counts = frozenset({JMX_EXAMPLE, TEST_BED, STRIMZI_REPORTER}) | strimzi
        found.append((f"{base}_{name}_count", Reading.COUNT, counts))
        found.append((f"{base}_{name}_count_total", Reading.COUNT, frozenset({JMX_EXAMPLE}) | strimzi))
    return found


def _table() -> dict[str, Alias]:
    table: dict[str, Alias] = {}
    for metric in METRICS:
        for series, reading, dialects in names(metric):
            if series in table:  # tests/metrics/test_vocabulary.py keeps this from happening
                raise ValueError(f"{series} would name both {table[series].metric.mbean} and {metric.mbean}")
            table[series] = Alias(metric, reading, dialects)
    return table


ALIASES: dict[str, Alias] = _table()
# Labels a series name implies (Confluent names a quota's resource in the series name).
IMPLIED: dict[str, tuple[tuple[str, str], ...]] = {s: labels for named in _NAMED.values() for s, _, _, labels in named}


RATE_AT_MOST = 1000.0


def resolve(series: str, labels: dict[str, str], value: float = 0.0) -> tuple[Metric, str] | None:
    """The metric a series name stands for and what its number is; None for names no rule reads.
    Confluent writes a histogram's count under the bare name, without a quantile label."""
    alias = ALIASES.get(series)
    if alias is None:
        return None
    objectname = labels.get("_objectname")
    if objectname:  # exporter 1.x: two rules gave one name; it says which attribute each sample is
        attribute = objectname.rpartition("<>")[2]
        reading = _ATTRIBUTE_READINGS.get(attribute)
        return (alias.metric, counted(alias.metric, reading)) if reading else None
    if alias.reading == Reading.QUANTILE and "quantile" not in labels:
        return alias.metric, Reading.COUNT
    if alias.reading == Reading.COUNT_OR_RATE:
        # An idle fraction is at most about 1 (a meter's rate overshoots a little: 1.0006 seen on the
        # test cluster); a count of idle nanoseconds passes RATE_AT_MOST within the broker's first
        # microsecond of idleness.
        return alias.metric, Reading.RATE if value <= RATE_AT_MOST else Reading.COUNT
    return alias.metric, alias.reading


# What an attribute is, where the exporter names it (`_objectname="kafka.server<...><>OneMinuteRate"`).
_ATTRIBUTE_READINGS = {"Value": Reading.VALUE, "Count": Reading.COUNT, "OneMinuteRate": Reading.RATE,
                       "MeanRate": Reading.LIFETIME}  # fmt: skip
# A Yammer histogram's percentile attributes, as the quantile label the other dialects give them.
PERCENTILES = {"50thPercentile": "0.5", "75thPercentile": "0.75", "95thPercentile": "0.95",
               "98thPercentile": "0.98", "99thPercentile": "0.99", "999thPercentile": "0.999"}  # fmt: skip


class DefaultName(NamedTuple):
    """A name the JMX exporter's default format gives: the metric by its bean's `name` key."""

    metric: Metric
    attribute: str  # Value, Count, OneMinuteRate, MeanRate, 99thPercentile...
    dialect: str


def _default_table() -> tuple[dict[tuple[str, str], DefaultName], frozenset[str]]:
    """(series, name label) → DefaultName for every MBean metric's attributes, lower-cased and in
    JMX case; and every such series name, for the exposition reader's family filter."""
    table: dict[tuple[str, str], DefaultName] = {}
    for metric in METRICS:
        if metric.attribute or metric.kind in ("exporter", "host"):
            continue  # a Kafka-metrics attribute (named by the dialects' tables) or no MBean at all
        domain, properties = metric.mbean.split(":", 1)
        named = dict(part.split("=", 1) for part in properties.split(","))
        head = f"{domain.replace('.', '_')}_{named['type']}"
        attributes = ["Value"] if metric.kind in ("gauge", "count-gauge") else ["Count", "OneMinuteRate", "MeanRate"]
        if metric.kind == "histogram":
            attributes = ["Count", *PERCENTILES]
        for attribute in attributes:
            jmx_case = f"{head}_{attribute}"
            table[(jmx_case, named["name"])] = DefaultName(metric, attribute, JMX_DEFAULT_CASE)
            table[(jmx_case.lower(), named["name"])] = DefaultName(metric, attribute, JMX_DEFAULT)
    return table, frozenset(series for series, _ in table)


DEFAULT_NAMES, DEFAULT_SERIES = _default_table()


def dialects_of(metric: Metric) -> frozenset[str]:
    """Every dialect that writes this metric: by its names, and the exporter's default format."""
    by_name = frozenset().union(*(dialects for _, _, dialects in names(metric)))
    default = {found.dialect for found in DEFAULT_NAMES.values() if found.metric is metric}
    return by_name | default


def resolve_default(series: str, labels: dict[str, str]) -> tuple[Metric, str, dict[str, str], str] | None:
    """A series of the JMX exporter's default format: (metric, reading, its labels without the bean's
    `name` and with a quantile for a percentile, dialect); None for what no rule reads."""
    found = DEFAULT_NAMES.get((series, labels.get("name", "")))
    if found is None:
        return None
    own = {key: value for key, value in labels.items() if key != "name"}
    quantile = PERCENTILES.get(found.attribute)
    if quantile is not None:
        return found.metric, Reading.QUANTILE, {**own, "quantile": quantile}, found.dialect
    reading = counted(found.metric, _ATTRIBUTE_READINGS[found.attribute])
    return found.metric, reading, own, found.dialect


def counted(metric: Metric, reading: str) -> str:
    """A count-gauge's Value attribute is a count since the node started."""
    return Reading.COUNT if metric.kind == "count-gauge" and reading == Reading.VALUE else reading


def by_mbean(mbean: str) -> Metric:
    for metric in METRICS:
        if metric.mbean == mbean:
            return metric
    raise KeyError(mbean)
