"""A Prometheus server's rules answer (`/api/v1/rules?type=alert`) as the Camunda pack reads it:
alerting rules kept, recording rules not, and a server that does not answer as Prometheus does
named in a clear error. The answers are written here: a stand-in HTTP server on localhost serves
them (a real Prometheus answers well; these are the ones it never gives —
tests/integration/test_prometheus_alerting_rules.py runs the real one)."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator

import pytest

from advisor.metrics.prometheus_api import alerting_rules
from advisor.model.document import LoadError
from advisor.sources.limits import Limits


@pytest.fixture
def serve() -> Iterator:  # type: ignore[type-arg]
    servers = []

    def start(body: bytes) -> str:
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_port}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def test_alerting_rules_are_read_and_recording_rules_left(serve) -> None:  # type: ignore[no-untyped-def]
    answer = {"status": "success", "data": {"groups": [{"rules": [
        {"type": "alerting", "name": "ExportLag", "query": "zeebe_exporter_last_exported_position < 1"},
        {"type": "recording", "name": "job:rate", "query": "rate(zeebe_received_request_count_total[1m])"},
    ]}]}}  # fmt: skip
    origin, rules = alerting_rules(serve(json.dumps(answer).encode()), Limits())
    assert rules == [("ExportLag", "zeebe_exporter_last_exported_position < 1")] and origin.startswith("http://")


@pytest.mark.parametrize("body", [b"<html>a login page</html>", b'{"status": "error", "error": "bad"}', b"[1, 2]"])
def test_a_server_that_is_not_prometheus_is_said(serve, body: bytes) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(LoadError) as raised:
        alerting_rules(serve(body), Limits())
    assert raised.value.path.startswith("http://127.0.0.1:")
