"""Prometheus HTTP API results read as samples, and every malformed answer a clear error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.metrics import prometheus_api
from advisor.metrics.files import split_inputs
from advisor.model.document import LoadError
from advisor.report.session import analyze_files

URP = "kafka_server_replicamanager_underreplicatedpartitions"


def test_a_matrix_is_a_series_per_result_with_each_value_at_its_line() -> None:
    document = {"status": "success", "data": {"resultType": "matrix", "result": [
        {"metric": {"__name__": URP, "instance": "k1:9404"}, "values": [[1764550800, "0"], [1764550830.5, "NaN"]]},
    ]}}  # fmt: skip
    text = json.dumps(document, indent=2)
    capture = prometheus_api.read_file(text, "range.json")
    assert [(s.name, dict(s.labels), s.timestamp_ms) for s in capture.samples] == [
        (URP, {"instance": "k1:9404"}, 1764550800000),
        (URP, {"instance": "k1:9404"}, 1764550830500),
    ]
    lines = text.splitlines()
    assert [lines[s.line - 1].strip() for s in capture.samples] == ["[", "["]
    assert capture.samples[1].value != capture.samples[1].value  # NaN, as Prometheus wrote it


@pytest.mark.parametrize(
    ("document", "says"),
    [
        ({"status": "error", "errorType": "bad_data", "error": "parse error"}, "a Prometheus error (bad_data: parse"),
        ({"status": "success", "data": {"resultType": "scalar", "result": [1, "2"]}}, "resultType 'scalar' holds no"),
        ({"status": "success", "data": {"resultType": "vector", "result": [{"metric": {}, "value": [1, "2"]}]}},
         "without metric.__name__"),
        ({"status": "success", "data": {"resultType": "vector", "result": [
            {"metric": {"__name__": URP}, "value": [1, "lots"]}]}}, "must be a number written as a string"),
        ({"status": "success", "data": {"resultType": "vector", "result": [
            {"metric": {"__name__": URP}, "value": ["Inf", "1"]}]}}, "time must be seconds since 1970"),
        ({"status": "success", "data": {"resultType": "matrix", "result": [{"metric": {"__name__": URP}}]}},
         "a matrix result needs values"),
        (["not", "an", "object"], "a JSON object with status and data"),
    ],
)  # fmt: skip
def test_malformed_answers_are_errors_naming_what_was_expected(document, says) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(LoadError) as raised:
        prometheus_api.read_file(json.dumps(document), "answer.json")
    assert says in raised.value.message


def test_a_saved_answer_is_recognised_by_content_and_judged(tmp_path: Path) -> None:
    answer = tmp_path / "export"  # no suffix: the content says what it is
    answer.write_text(json.dumps({"status": "success", "data": {"resultType": "vector", "result": [
        {"metric": {"__name__": URP, "pod": "ledger-kafka-1"}, "value": [1764550800, "2"]}]}}))  # fmt: skip
    client = tmp_path / "client.json"
    client.write_text('{"bootstrap.servers": "k:9092", "acks": "all"}\n')
    files, endpoints, configs = split_inputs([str(answer), str(client), "https://prometheus.example/"])
    assert (files, endpoints, configs) == ([answer], ["https://prometheus.example/"], [client])
    report = analyze_files([answer])
    assert [(f.rule, f.subject, f.location.line) for f in report.findings] == [("KM001", "ledger-kafka-1", 1)]
    assert report.files[0].format == "prometheus-api"


def test_an_answer_saved_on_one_line_quotes_the_series_each_finding_judged(tmp_path: Path) -> None:
    """Every series of a one-line answer stands on line 1: the line shown is the judged series'."""
    import json

    from advisor.report.session import RunRequest, run

    urp = "kafka_server_replicamanager_underreplicatedpartitions"
    result = [{"metric": {"__name__": urp, "instance": node}, "value": [1733390000, value]}
              for node, value in (("kafka-1:9404", "4"), ("kafka-0:9404", "0"))]  # fmt: skip
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps({"status": "success", "data": {"resultType": "vector", "result": result}}))
    report = run(RunRequest(paths=(), metric_files=(answer,)))
    assert [f.rule for f in report.findings] == ["KM001"]  # kafka-1's; kafka-0's sample is written last
    assert report.lines[str(answer)][1] == f'{urp}{{instance="kafka-1:9404"}} 4'
