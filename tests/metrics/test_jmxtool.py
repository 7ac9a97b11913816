"""JmxTool dumps in each report format (the shapes of org.apache.kafka.tools.JmxTool's output;
tests/integration/test_jmxtool_dumps.py runs the real tool)."""

from __future__ import annotations

import pytest

from advisor.metrics import jmxtool, sniff
from advisor.metrics.vocabulary import REQUEST_TOTAL_TIME, UNDER_REPLICATED, Reading
from advisor.model.document import LoadError

URP = "kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions"
P99 = "kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Produce:99thPercentile"
DUMPS = {
    "original": f'"time","{URP}:Value","{P99}"\n1764572400000,2,14.0\n1764572401000,3,15.5\n',
    "properties": f"time=1764572400000\n{URP}:Value=2\n{P99}=14.0\ntime=1764572401000\n{URP}:Value=3\n{P99}=15.5\n",
    "csv": f'time,"1764572400000"\n{URP}:Value,"2"\n{P99},"14.0"\n'
    f'time,"1764572401000"\n{URP}:Value,"3"\n{P99},"15.5"\n',
    "tsv": f"time\t1764572400000\n{URP}:Value\t2\n{P99}\t14.0\ntime\t1764572401000\n{URP}:Value\t3\n{P99}\t15.5\n",
}


@pytest.mark.parametrize("report_format", sorted(DUMPS))
def test_each_report_format_gives_the_same_samples(report_format: str) -> None:
    text = DUMPS[report_format]
    assert sniff.kind(text) == f"jmxtool:{report_format}"
    samples = jmxtool.read(text, "dump", report_format)
    assert [(s.metric, s.reading, s.labels, s.value, s.timestamp_ms) for s in samples] == [
        (UNDER_REPLICATED, Reading.VALUE, (), 2.0, 1764572400000),
        (REQUEST_TOTAL_TIME, Reading.QUANTILE, (("request", "Produce"), ("quantile", "0.99")), 14.0, 1764572400000),
        (UNDER_REPLICATED, Reading.VALUE, (), 3.0, 1764572401000),
        (REQUEST_TOTAL_TIME, Reading.QUANTILE, (("request", "Produce"), ("quantile", "0.99")), 15.5, 1764572401000),
    ]


def test_what_no_rule_reads_and_string_attributes_are_passed_over() -> None:
    text = f"time=1\n{URP}:RateUnit=SECONDS\njava.lang:type=Memory:HeapMemoryUsage=x\n{URP}:Value=1\n"
    assert [s.value for s in jmxtool.read(text, "dump", "properties")] == [1.0]


@pytest.mark.parametrize(
    ("report_format", "text", "says"),
    [
        ("properties", "time=Tue Dec 01 10:00:00 UTC 2026\n", "run JmxTool without --date-format"),
        ("original", f'"time","{URP}:Value"\n1764572400000\n', "2: a JmxTool row has 2 values"),
        ("tsv", "time\t1\nno separator here\n", "2: a JmxTool tsv line is key\tvalue"),
    ],
)
def test_malformed_dumps_are_path_line_errors(report_format: str, text: str, says: str) -> None:
    with pytest.raises(LoadError) as raised:
        jmxtool.read(text, "dump", report_format)
    assert says in str(raised.value)


def test_a_gauge_that_counts_since_start_is_a_count_in_a_dump_too() -> None:
    errors = "kafka.controller:type=KafkaController,name=MetadataErrorCount"
    samples = jmxtool.read(f"time=1764572400000\n{errors}:Value=4\n", "dump", "properties")
    assert [(s.metric.mbean, s.reading, s.value) for s in samples] == [(errors, Reading.COUNT, 4.0)]


# What the tool writes on stderr before its report, as a terminal paste or `2>&1` keeps it: the
# Scala tool's attempt line ends with a full stop, the Java tool's does not; while the broker is
# not up, failed attempts with a stack trace come first.
PREAMBLES = {
    "java": "Trying to connect to JMX url: service:jmx:rmi:///jndi/rmi://127.0.0.1:9999/jmxrmi\n",
    "scala": "Trying to connect to JMX url: service:jmx:rmi:///jndi/rmi://:9999/jmxrmi.\n",
    "retried": (
        "Trying to connect to JMX url: service:jmx:rmi:///jndi/rmi://:9999/jmxrmi.\n"
        "Could not connect to JMX url: service:jmx:rmi:///jndi/rmi://:9999/jmxrmi. Exception Failed to retrieve "
        "RMIServer stub.\n"
        "java.io.IOException: Failed to retrieve RMIServer stub\n"
        "\tat javax.management.remote.rmi.RMIConnector.connect(RMIConnector.java:370)\n"
        "Caused by: javax.naming.ServiceUnavailableException\n"
        "\t... 5 more\n"
        "Trying to connect to JMX url: service:jmx:rmi:///jndi/rmi://:9999/jmxrmi.\n"
    ),
}


@pytest.mark.parametrize("preamble", sorted(PREAMBLES))
@pytest.mark.parametrize("report_format", sorted(DUMPS))
def test_the_tools_preamble_is_passed_over_and_lines_keep_their_numbers(preamble: str, report_format: str) -> None:
    text = PREAMBLES[preamble] + DUMPS[report_format]
    assert sniff.kind(text) == f"jmxtool:{report_format}"
    plain = jmxtool.read(DUMPS[report_format], "dump", report_format)
    pasted = jmxtool.read(text, "dump", report_format)
    shift = PREAMBLES[preamble].count("\n")
    assert [(s.value, s.timestamp_ms, s.line) for s in pasted] == [
        (s.value, s.timestamp_ms, s.line + shift) for s in plain
    ]


def test_a_preamble_alone_is_no_dump() -> None:
    assert sniff.kind(PREAMBLES["retried"]) is None
