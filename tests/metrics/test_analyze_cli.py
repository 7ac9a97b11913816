"""`kafka-advisor analyze`: files and endpoints, metrics beside configuration, every failure a
clear problem (exit 2) while the rest is still analysed, no credential of an address shown.

The endpoints here are a local HTTP server serving fixed exposition text: it stands in for an
exporter only to make HTTP answer badly (404, HTML, a changing counter on demand); the real
Prometheus JMX exporter on the real cluster is tests/integration/test_metric_rules_live.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import jsonschema
import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
SARIF_SCHEMA = json.loads((REPO_ROOT / "tests" / "schemas" / "sarif-schema-2.1.0.json").read_text())
URP = "kafka_server_replicamanager_underreplicatedpartitions"
UNCLEAN = "kafka_controller_controllerstats_uncleanleaderelections_total"


def analyze(*args: str, cwd: Path = REPO_ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "advisor", "analyze", *args], capture_output=True, text=True, cwd=cwd, timeout=60
    )


class _Exporter(BaseHTTPRequestHandler):
    bodies: ClassVar[dict[str, list[str]]] = {}  # path → what successive scrapes answer (the last one repeats)
    served: ClassVar[dict[str, int]] = {}

    def do_GET(self) -> None:
        answers = self.bodies.get(self.path)
        if answers is None:
            self.send_error(404)
            return
        count = self.served.get(self.path, 0)
        self.served[self.path] = count + 1
        body = answers[min(count, len(answers) - 1)].encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def exporter() -> Iterator[str]:
    _Exporter.bodies, _Exporter.served = {}, {}
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Exporter)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


def test_a_malformed_file_is_a_path_line_error_and_the_others_are_still_judged(tmp_path: Path) -> None:
    good = tmp_path / "broker-1.prom"
    good.write_text(f"# TYPE {URP} gauge\n{URP} 2\n")
    bad = tmp_path / "broker-2.prom"
    bad.write_text(f'# TYPE {URP} gauge\n{URP}{{topic="a" 2\n')
    result = analyze(str(good), str(bad), "--output-format", "json")
    assert result.returncode == 2
    assert f"{bad}:2: invalid sample: the label set is not closed with '}}'" in result.stderr
    assert [(f["rule"], f["line"]) for f in json.loads(result.stdout)["findings"]] == [("KM001", 2)]


def test_metrics_and_configuration_are_reported_together(tmp_path: Path) -> None:
    scrape = tmp_path / "scrape.txt"  # any name: the content says it is exposition
    scrape.write_text(f'{URP}{{instance="kafka-1:9404"}} 1\n')
    broker = tmp_path / "server.properties"
    broker.write_text("process.roles=broker\nnode.id=1\ndefault.replication.factor=3\n")
    result = analyze(str(scrape), str(broker), "--output-format", "json")
    report = json.loads(result.stdout)
    assert {f["rule"] for f in report["findings"]} >= {"KM001", "KB101"}
    assert {f["path"] for f in report["files"]} == {str(scrape), str(broker)}
    metric = next(f for f in report["findings"] if f["rule"] == "KM001")
    assert metric["subject"] == "kafka-1:9404" and metric["extra"] == {"confidence": "low"}
    sarif = json.loads(analyze(str(scrape), "--output-format", "sarif").stdout)
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(sarif)
    region = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] == 1


def test_a_series_repeated_without_timestamps_is_an_error(tmp_path: Path) -> None:
    """`curl` appended twice to one file: which sample is newer cannot be known."""
    twice = tmp_path / "twice.prom"
    twice.write_text(f"{URP} 0\n{URP} 3\n")
    result = analyze(str(twice))
    assert result.returncode == 2
    assert f"{twice}:2: {URP} of {twice} appears again without a time" in result.stderr
    # One scrape writing a series twice alike (two exporter rules giving one name) is one sample.
    twice.write_text(f"{URP} 3\n{URP} 3\n")
    again = analyze(str(twice), "--output-format", "json")
    assert again.returncode == 1 and [f["line"] for f in json.loads(again.stdout)["findings"]] == [1]


def test_repeated_scrapes_turn_a_counter_into_events_in_the_window(exporter: str) -> None:
    _Exporter.bodies["/metrics"] = [f"{UNCLEAN} 5\n", f"{UNCLEAN} 5\n", f"{UNCLEAN} 6\n"]
    url = f"http://{exporter}/metrics"
    result = analyze(url, "--samples", "3", "--interval", "0.2", "--output-format", "json")
    (finding,) = json.loads(result.stdout)["findings"]
    assert finding["rule"] == "KM005" and finding["assumptions"] == []
    assert finding["message"].startswith(f"{url}: 1 unclean leader elections in the 0 s observed")
    assert finding["locations"][0] == {"kind": "metric", "path": url, "series": UNCLEAN,
                                       "time": finding["locations"][0]["time"], "line": 0}  # fmt: skip
    # One scrape: the count since start, said so.
    _Exporter.served.clear()
    (once,) = json.loads(analyze(url, "--output-format", "json").stdout)["findings"]
    assert "since the broker started" in once["message"] and once["extra"] == {"confidence": "low"}


def test_endpoint_failures_are_errors_and_credentials_never_shown(exporter: str) -> None:
    _Exporter.bodies["/metrics"] = [f"{URP} 1\n"]
    _Exporter.bodies["/page"] = ["<html><body>login</body></html>\n"]
    secret = "s3cr3t-pass"
    with_credentials = f"http://scraper:{secret}@{exporter}/metrics"
    result = analyze(with_credentials, f"http://{exporter}/missing", f"http://{exporter}/page")
    assert result.returncode == 2
    assert f"http://***@{exporter}/metrics" in result.stdout  # the finding, at the endpoint
    assert f"http://{exporter}/missing: the endpoint answered HTTP 404" in result.stderr
    assert f"http://{exporter}/page: the endpoint did not answer with Prometheus text exposition" in result.stderr
    assert secret not in result.stdout + result.stderr
    refused = analyze("--scrape", "ftp://example.invalid/metrics")
    assert "a metrics endpoint must be an http:// or https:// address" in refused.stderr


def test_samples_need_an_endpoint(tmp_path: Path) -> None:
    scrape = tmp_path / "a.prom"
    scrape.write_text(f"{URP} 0\n")
    result = analyze(str(scrape), "--samples", "2")
    assert result.returncode == 2 and "--samples needs an endpoint" in result.stderr


def test_an_endpoint_says_what_it_gave_in_text_and_json(exporter: str) -> None:
    """An endpoint is an input like a file: what it was read as and how many series the rules read,
    in every format — never "no configuration was read" beside a scrape that was read."""
    _Exporter.bodies = {"/metrics": [f"# TYPE {URP} gauge\n{URP} 0\n"], "/other": ["# TYPE jvm_threads gauge\n"
                                                                                   "jvm_threads 40\n"]}  # fmt: skip
    url, other = f"http://{exporter}/metrics", f"http://{exporter}/other"
    text = analyze(url, other).stdout
    assert f"metrics: {url}: Prometheus exposition" in text and "1 series read" in text
    assert "no configuration was read" not in text
    report = json.loads(analyze(url, other, "--output-format", "json").stdout)
    entries = {entry["path"]: entry for entry in report["files"]}
    assert entries[url]["series"] == 1 and entries[other]["series"] == 0
    assert [note["path"] for note in report["skipped"]] == [other]  # nothing read from it: said
