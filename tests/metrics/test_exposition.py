"""The Prometheus exposition reader on the shapes exporters write (the real JMX exporter's
scrape is compared with prometheus_client in tests/integration/test_exposition_oracle.py)."""

from __future__ import annotations

import io
import math

import pytest

from advisor.metrics.exposition import Family, parse, wanted_names
from advisor.model.document import LoadError

SCRAPE = """# HELP kafka_server_replicamanager_underreplicatedpartitions Attribute exposed for management
# TYPE kafka_server_replicamanager_underreplicatedpartitions gauge
kafka_server_replicamanager_underreplicatedpartitions{instance="b1:7071",} 2.0
# TYPE kafka_network_requestmetrics_totaltimems summary
kafka_network_requestmetrics_totaltimems{request="Produce",quantile="0.99",} 12.5
kafka_network_requestmetrics_totaltimems_count{request="Produce",} 4.2117E7
kafka_network_requestmetrics_totaltimems_sum{request="Produce",} 6.57505883E9 1700000000000
kafka_consumergroup_lag{consumergroup="g \\"one\\"",topic="a}b",note="line\\nbreak"} NaN
  jvm_threads_current 42
process_open_fds\t17
le_metric_bucket{le="+Inf"} +Inf
kafka_topic_partitions{topic="a,",cluster="x\\",y",} 3
kafka_broker_info{ id = "1" , rack="" } 1

# a comment
"""


def samples(text: str, families: list[str] | None = None) -> list:
    wanted = wanted_names(families) if families is not None else None
    return list(parse(io.StringIO(text), "scrape.prom", wanted))


def test_every_sample_with_its_labels_value_timestamp_and_line() -> None:
    found = {(s.name, s.labels): s for s in samples(SCRAPE)}
    urp = found[("kafka_server_replicamanager_underreplicatedpartitions", (("instance", "b1:7071"),))]
    assert (urp.value, urp.line, urp.timestamp_ms) == (2.0, 3, None)
    total = found[("kafka_network_requestmetrics_totaltimems_sum", (("request", "Produce"),))]
    assert (total.value, total.timestamp_ms) == (6575058830.0, 1700000000000)  # Java's Double.toString form
    lag = next(s for s in found.values() if s.name == "kafka_consumergroup_lag")
    assert dict(lag.labels) == {"consumergroup": 'g "one"', "topic": "a}b", "note": "line\nbreak"}
    assert math.isnan(lag.value)
    assert found[("jvm_threads_current", ())].value == 42  # leading whitespace ignored
    assert found[("process_open_fds", ())].value == 17  # a tab separates too
    assert found[("le_metric_bucket", (("le", "+Inf"),))].value == math.inf
    assert dict(found_named(found, "kafka_topic_partitions").labels) == {"topic": "a,", "cluster": 'x",y'}
    assert dict(found_named(found, "kafka_broker_info").labels) == {"id": "1", "rack": ""}
    assert len(found) == 10


def found_named(found: dict, name: str):  # type: ignore[no-untyped-def]
    return next(s for s in found.values() if s.name == name)


def test_the_family_filter_keeps_a_familys_suffixed_series_and_nothing_else() -> None:
    kept = samples(SCRAPE, ["kafka_network_requestmetrics_totaltimems"])
    assert [s.name for s in kept] == [
        "kafka_network_requestmetrics_totaltimems",
        "kafka_network_requestmetrics_totaltimems_count",
        "kafka_network_requestmetrics_totaltimems_sum",
    ]


def test_type_lines_are_collected() -> None:
    families: list[Family] = []
    list(parse(io.StringIO(SCRAPE), "scrape.prom", frozenset(), families))
    assert families == [
        Family("kafka_server_replicamanager_underreplicatedpartitions", "gauge", 2),
        Family("kafka_network_requestmetrics_totaltimems", "summary", 4),
    ]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("kafka_x", "a value is expected after the metric name"),
        ('kafka_x{a="1"', "the label set is not closed"),
        ("kafka_x{a=1} 2", 'labels must be written name="value"'),
        ('kafka_x{a="1"} two', "the value must be a number"),
        ("kafka_x 1 2.5", "the timestamp must be whole milliseconds"),
        ("kafka_x 1 " + "9" * 40, "the timestamp is out of range"),  # no float holds it: a fuzz find
        ("kafka_x 1 2 3", "a value (and at most a timestamp)"),
        ("9kafka 1", "a metric name is expected first"),
    ],
)
def test_a_malformed_wanted_line_is_an_error_naming_its_line(line: str, expected: str) -> None:
    with pytest.raises(LoadError) as raised:
        samples(f"# TYPE kafka_x gauge\n{line}\n")
    problem = raised.value.problem
    assert (problem.path, problem.line) == ("scrape.prom", 2) and expected in problem.message


def test_lines_of_families_not_asked_for_are_not_checked() -> None:
    assert samples("other{{{ garbage\nkafka_x 1\n", ["kafka_x"])[0].value == 1
