"""The metric vocabulary: one MBean per metric, every dialect's name resolving back to it."""

from __future__ import annotations

import pytest

from advisor.metrics import vocabulary
from advisor.metrics.vocabulary import Reading


def test_no_series_name_stands_for_two_metrics() -> None:
    seen: dict[str, str] = {}
    for metric in vocabulary.METRICS:
        for name, _, _ in vocabulary.names(metric):
            assert seen.setdefault(name, metric.mbean) == metric.mbean, name
    assert len(seen) == len(vocabulary.ALIASES)


def test_every_metric_has_a_name_in_every_dialect() -> None:
    """Except the request histograms Strimzi's rules leave out, and quota metrics, which its rules do
    not export (its reporter names them as Confluent does: test_strimzi_metrics_reporter.py)."""
    for metric in vocabulary.METRICS:
        if metric.kind in ("exporter", "host"):  # offset exporters' and hosts' names: no JMX dialect writes them
            continue
        dialects = vocabulary.dialects_of(metric)  # by name, and the exporter's default format by `name` key
        unknown = set()
        if "RequestMetrics" in metric.mbean:
            unknown.add(vocabulary.STRIMZI)
        if metric.kind == "attribute":
            unknown.add(vocabulary.STRIMZI)
        every = {*vocabulary.DIALECTS, vocabulary.JMX_DEFAULT, vocabulary.JMX_DEFAULT_CASE}
        assert dialects == every - unknown, metric.mbean


@pytest.mark.parametrize(
    ("series", "labels", "mbean", "reading"),
    [
        ("kafka_server_replicamanager_underreplicatedpartitions", {}, vocabulary.UNDER_REPLICATED, Reading.VALUE),
        ("kafka_server_brokertopicmetrics_bytesin_total", {"topic": "t"}, vocabulary.BYTES_IN, Reading.COUNT),
        ("kafka_server_brokertopicmetrics_bytesinpersec_total", {}, vocabulary.BYTES_IN, Reading.COUNT),
        ("kafka_server_brokertopicmetrics_bytesinpersec", {}, vocabulary.BYTES_IN, Reading.COUNT),
        ("kafka_server_brokertopicmetrics_bytesinpersec_oneminuterate", {}, vocabulary.BYTES_IN, Reading.RATE),
        # The idle meter: its count (exporter 0.x and 1.x spellings), one-minute rate, lifetime mean.
        ("kafka_server_kafkarequesthandlerpool_requesthandleravgidlepercent_count", {},
         vocabulary.REQUEST_HANDLER_IDLE, Reading.COUNT),
        ("kafka_server_kafkarequesthandlerpool_requesthandleravgidlepercent_count_total", {},
         vocabulary.REQUEST_HANDLER_IDLE, Reading.COUNT),
        ("kafka_server_kafkarequesthandlerpool_requesthandleravgidlepercent_oneminuterate", {},
         vocabulary.REQUEST_HANDLER_IDLE, Reading.RATE),
        ("kafka_server_kafkarequesthandlerpool_requesthandleravgidle_percent", {},
         vocabulary.REQUEST_HANDLER_IDLE, Reading.LIFETIME),
        ("kafka_server_kafkarequesthandlerpool_requesthandleravgidlepercent", {},
         vocabulary.REQUEST_HANDLER_IDLE, Reading.COUNT),  # Confluent: Count and Value share one rule
        ("kafka_server_brokertopicmetrics_bytesinpersec_oneminuterate_alltopics", {}, vocabulary.BYTES_IN,
         Reading.RATE),
        # Strimzi names a Percent gauge `_percent`; the others keep the MBean's name.
        ("kafka_network_socketserver_networkprocessoravgidle_percent", {},
         vocabulary.NETWORK_PROCESSOR_IDLE, Reading.VALUE),
        ("kafka_network_socketserver_networkprocessoravgidlepercent", {},
         vocabulary.NETWORK_PROCESSOR_IDLE, Reading.VALUE),
        # A histogram: percentiles by label; Confluent's bare name without one is the count.
        ("kafka_network_requestmetrics_totaltimems", {"quantile": "0.99"}, vocabulary.REQUEST_TOTAL_TIME,
         Reading.QUANTILE),
        ("kafka_network_requestmetrics_totaltimems", {"request": "Produce"}, vocabulary.REQUEST_TOTAL_TIME,
         Reading.COUNT),
        ("kafka_network_requestmetrics_totaltimems_count", {}, vocabulary.REQUEST_TOTAL_TIME, Reading.COUNT),
    ],
)  # fmt: skip
def test_each_dialect_s_name_resolves_to_its_mbean_and_reading(series, labels, mbean, reading) -> None:
    assert vocabulary.resolve(series, labels) == (mbean, reading)


def test_one_name_two_dialects_read_differently_is_told_apart_by_its_value() -> None:
    """`…requesthandleravgidlepercent_total`: the Strimzi reporter's count of idle nanoseconds, or
    Confluent's one-minute rate (a fraction)."""
    name = "kafka_server_kafkarequesthandlerpool_requesthandleravgidlepercent_total"
    assert vocabulary.resolve(name, {}, 0.93) == (vocabulary.REQUEST_HANDLER_IDLE, Reading.RATE)
    # An idle broker's one-minute rate overshoots 1 a little (seen on the test cluster): still the rate.
    assert vocabulary.resolve(name, {}, 1.0006166995481829) == (vocabulary.REQUEST_HANDLER_IDLE, Reading.RATE)
    assert vocabulary.resolve(name, {}, 3.5e10) == (vocabulary.REQUEST_HANDLER_IDLE, Reading.COUNT)


def test_a_name_two_exporter_rules_share_is_told_apart_by_its_objectname() -> None:
    """Exporter 1.x drops `_total` from a gauge's name; Confluent's idle rate then shares the
    bare name with the Count, and the exporter labels each sample with its MBean and attribute."""
    name = "kafka_server_kafkarequesthandlerpool_requesthandleravgidlepercent"
    bean = "kafka.server<type=KafkaRequestHandlerPool, name=RequestHandlerAvgIdlePercent><>"
    assert vocabulary.resolve(name, {"_objectname": bean + "OneMinuteRate"}) == (
        vocabulary.REQUEST_HANDLER_IDLE, Reading.RATE)  # fmt: skip
    assert vocabulary.resolve(name, {"_objectname": bean + "Count"}) == (vocabulary.REQUEST_HANDLER_IDLE, Reading.COUNT)
    assert vocabulary.resolve(name, {"_objectname": bean + "FifteenMinuteRate"}) is None


def test_confluent_names_a_quota_s_resource_in_the_series_name() -> None:
    assert vocabulary.resolve("kafka_server_fetch_throttle_time", {}) == (vocabulary.QUOTA_THROTTLE, Reading.VALUE)
    assert vocabulary.IMPLIED["kafka_server_fetch_throttle_time"] == (("resource", "Fetch"),)


def test_names_no_rule_reads_resolve_to_nothing() -> None:
    assert vocabulary.resolve("jvm_memory_bytes_used", {}) is None
    assert vocabulary.resolve("kafka_server_replicamanager_underreplicatedpartitions_total", {}) is None


def test_the_idle_meter_counts_nanoseconds() -> None:
    """Its count is idle nanoseconds per thread: a rate of 1e9 a second is a fraction of 1."""
    assert vocabulary.REQUEST_HANDLER_IDLE.count_scale == 1e-9
    assert vocabulary.UNDER_REPLICATED.short == "ReplicaManager.UnderReplicatedPartitions"


def test_a_gauge_that_counts_since_start_reads_as_a_count_in_every_spelling() -> None:
    """MetadataErrorCount is a Yammer gauge whose value is a count since the node started: its
    increase is what happened, so every spelling of it (plain, or exporter 1.x's `_objectname`
    naming the Value attribute) reads as a count; a plain gauge beside it stays a value."""
    name = "kafka_controller_kafkacontroller_metadataerrorcount"
    assert vocabulary.resolve(name, {}) == (vocabulary.METADATA_ERRORS, Reading.COUNT)
    bean = "kafka.controller<type=KafkaController, name=MetadataErrorCount><>Value"
    assert vocabulary.resolve(name, {"_objectname": bean}) == (vocabulary.METADATA_ERRORS, Reading.COUNT)
    lag = "kafka_controller_kafkacontroller_lastappliedrecordlagms"
    assert vocabulary.resolve(lag, {}) == (vocabulary.LAST_APPLIED_LAG, Reading.VALUE)
    assert vocabulary.counted(vocabulary.LAST_APPLIED_LAG, Reading.VALUE) == Reading.VALUE
