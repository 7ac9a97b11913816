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
