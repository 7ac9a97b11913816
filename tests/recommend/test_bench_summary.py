"""kafka-producer-perf-test's summary line, as its releases print it (kafka-profiles.md §5.1), and
the payload files it reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.bench.perf import PerfError, summary

WINDOW = "152340 records sent, 30468.0 records/sec (2.91 MB/sec), 211.4 ms avg latency, 612.0 ms max latency."
FINAL = ("500000 records sent, 41203.7 records/sec (3.93 MB/sec), 180.22 ms avg latency, 655.00 ms max latency, "
         "171 ms 50th, 402 ms 95th, 590 ms 99th, 648 ms 99.9th.")  # fmt: skip


def test_the_final_summary_is_read_and_window_lines_are_not() -> None:
    result = summary(f"{WINDOW}\n{WINDOW}\n{FINAL}\n")
    assert result.records == 500000 and result.records_per_second == 41203.7 and result.mib_per_second == 3.93
    assert (result.p50_ms, result.p95_ms, result.p99_ms, result.p999_ms) == (171, 402, 590, 648)


def test_older_and_newer_spellings_are_read() -> None:
    older = FINAL.replace("655.00 ms max latency", "655.00 max latency")
    assert summary(older).max_ms == 655.0
    steady = FINAL.replace("records sent,", "records sent steady state,").replace("41203.7", "41203.712345")
    assert summary(f"{FINAL}\n{steady}\n").records_per_second == 41203.712345  # the steady state, printed last


def test_no_summary_is_an_error() -> None:
    with pytest.raises(PerfError, match="no summary"):
        summary(WINDOW)


def test_the_printed_metrics_that_explain_a_difference_are_read() -> None:
    printed = (
        "Metric Name                                                    Value\n"
        "producer-metrics:batch-size-avg:{client-id=perf-producer-client}        : 15842.127\n"
        "producer-metrics:bufferpool-wait-ratio:{client-id=perf-producer-client} : 0.000\n"
        "producer-metrics:compression-rate-avg:{client-id=perf-producer-client}  : NaN\n"
        "producer-metrics:record-queue-time-avg:{client-id=perf-producer-client} : 3.512\n"
        "producer-topic-metrics:byte-rate:{client-id=perf-producer-client, topic=t} : 99.000\n"
        "producer-metrics:io-ratio:{client-id=perf-producer-client}              : 0.100\n"
    )
    result = summary(f"{FINAL}\n{printed}")
    assert result.metrics == {"batch-size-avg": 15842.127, "bufferpool-wait-ratio": 0.0, "record-queue-time-avg": 3.512}


def test_the_consumer_tool_s_result_line_is_read() -> None:
    from advisor.bench.perf import consume_summary

    line = ("2026-12-01 10:14:02:113, 2026-12-01 10:14:05:871, 38.1470, 10.1509, 200000, 53219.7978, 3016, 742, "
            "51.4111, 269541.7790")  # fmt: skip
    result = consume_summary(f"WARNING: something\n{line}\n")
    assert (result.records, result.mib, result.fetch_mib_per_second) == (200000, 38.147, 51.4111)
    with pytest.raises(PerfError):
        consume_summary("WARNING: Exiting before consuming the expected number of messages")


def test_a_payload_file_is_measured_as_the_tool_reads_it(tmp_path: Path) -> None:
    from advisor.bench.perf import MAX_PAYLOAD_BYTES, payload

    path = tmp_path / "records.jsonl"
    path.write_text('{"id": 1, "é": "x"}\n\n{"id": 22}\n')  # UTF-8 bytes, an empty line left out
    found = payload(path)
    assert found.records == 2 and found.average_bytes == (20 + 10) // 2  # "é" is two bytes
    (tmp_path / "empty.txt").write_text("\n\n")
    with pytest.raises(ValueError, match="no records"):
        payload(tmp_path / "empty.txt")
    big = tmp_path / "big.txt"
    with big.open("wb") as stream:
        stream.truncate(MAX_PAYLOAD_BYTES + 1)
    with pytest.raises(ValueError, match="at most"):
        payload(big)
