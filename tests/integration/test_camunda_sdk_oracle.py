"""The ZC rules' facts, checked against the real TypeScript SDK (@camunda8/orchestration-cluster-api,
installed from npm as the catalog generator installs it): the configuration it resolves from the
environment the rules judge, and the retries it makes of a refused request (how many, how far
apart) against what ZC002, ZC003 and `recommend --camunda` state. And the committed client
catalog is what the generator makes of the published SDK and Spring starter now."""

from __future__ import annotations

import http.server
import itertools
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tools" / "camunda"))

import gen_camunda_client_catalog as generator  # noqa: E402

from advisor.catalog import camunda as catalog  # noqa: E402
from advisor.recommend import camunda as camunda_recommend  # noqa: E402

# A client built with the given environment, its resolved configuration printed (no request is made).
PROBE = """
import { createCamundaClient } from '@camunda8/orchestration-cluster-api';
const config = createCamundaClient({ env: process.env }).getConfig();
console.log(JSON.stringify({ httpRetry: config.httpRetry, backpressure: config.backpressure }));
"""


@pytest.fixture(scope="module")
def resolved(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    package = generator.sdk_folder()
    probe = package.parent.parent.parent / "probe.mjs"  # beside node_modules: the package resolves
    probe.write_text(PROBE)

    def run(**variables: str) -> dict:  # type: ignore[type-arg]
        environment = {k: v for k, v in os.environ.items() if not k.startswith(("CAMUNDA_", "ZEEBE_"))}
        result = subprocess.run(["node", str(probe)], env={**environment, **variables}, capture_output=True,
                                text=True, timeout=120, check=True)  # fmt: skip
        return json.loads(result.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]

    return run


def test_the_legacy_profile_only_observes(resolved) -> None:  # type: ignore[no-untyped-def]
    legacy = resolved(CAMUNDA_SDK_BACKPRESSURE_PROFILE="LEGACY")["backpressure"]
    assert legacy["observeOnly"] is True and legacy["enabled"] is False  # ZC001: no gating
    default = resolved()["backpressure"]
    assert default["profile"] == catalog.sdk_variable("CAMUNDA_SDK_BACKPRESSURE_PROFILE")["default"]
    assert default["observeOnly"] is False and default["enabled"] is True


def test_retry_settings_are_read_as_the_rules_read_them(resolved) -> None:  # type: ignore[no-untyped-def]
    defaults = resolved()["httpRetry"]
    assert defaults == {  # the catalog's defaults are the SDK's
        "maxAttempts": catalog.sdk_variable("CAMUNDA_SDK_HTTP_RETRY_MAX_ATTEMPTS")["default"],
        "baseDelayMs": catalog.sdk_variable("CAMUNDA_SDK_HTTP_RETRY_BASE_DELAY_MS")["default"],
        "maxDelayMs": catalog.sdk_variable("CAMUNDA_SDK_HTTP_RETRY_MAX_DELAY_MS")["default"],
    }
    assert resolved(CAMUNDA_SDK_HTTP_RETRY_MAX_ATTEMPTS="1")["httpRetry"]["maxAttempts"] == 1  # ZC002
    zero = resolved(CAMUNDA_SDK_HTTP_RETRY_BASE_DELAY_MS="0", CAMUNDA_SDK_HTTP_RETRY_MAX_DELAY_MS="0")["httpRetry"]
    assert (zero["baseDelayMs"], zero["maxDelayMs"]) == (0, 0)  # ZC003: taken as written, not refused


def test_the_committed_client_catalog_is_what_the_generator_makes_now() -> None:
    assert generator.produce() == {generator.OUTPUT: generator.OUTPUT.read_text()}


# --- the retries themselves: the SDK sends a request to a stand-in gateway that refuses it ---------
# The stand-in is the one mock here: Camunda's gateway is under the vendor's licence and not run.
# It answers every request as the gateway answers a refused one (503, problem JSON titled
# RESOURCE_EXHAUSTED) and notes when each arrived.

SEND = """
import { createCamundaClient } from '@camunda8/orchestration-cluster-api';
const client = createCamundaClient({ env: process.env });
try { await client.getTopology(); console.log(JSON.stringify({ refused: false })); }
catch (e) { console.log(JSON.stringify({ refused: true, status: e.status, title: e.title ?? null })); }
"""
SLACK_MS = 250.0  # what the event loop, the socket and a loaded machine may add to one wait


class _Refusing(http.server.BaseHTTPRequestHandler):
    arrivals: list[float]
    title: str

    def _refuse(self) -> None:
        self.arrivals.append(time.monotonic() * 1000)
        body = json.dumps({"type": "about:blank", "title": self.title, "status": 503, "detail": "refused"}).encode()
        self.send_response(503)
        self.send_header("Content-Type", "application/problem+json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _refuse

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def refused():  # type: ignore[no-untyped-def]
    package = generator.sdk_folder()
    probe = package.parent.parent.parent / "send.mjs"
    probe.write_text(SEND)

    def run(variables: dict[str, str], title: str = "RESOURCE_EXHAUSTED") -> tuple[list[float], dict]:  # type: ignore[type-arg]
        handler = type("Handler", (_Refusing,), {"arrivals": [], "title": title})
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            environment = {k: v for k, v in os.environ.items() if not k.startswith(("CAMUNDA_", "ZEEBE_"))}
            address = f"http://127.0.0.1:{server.server_port}"
            environment |= {"CAMUNDA_REST_ADDRESS": address, "CAMUNDA_AUTH_STRATEGY": "NONE",
                            "CAMUNDA_SDK_LOG_LEVEL": "silent", **variables}  # fmt: skip
            result = subprocess.run(["node", str(probe)], env=environment, capture_output=True, text=True,
                                    timeout=120, check=True)  # fmt: skip
        finally:
            server.shutdown()
            server.server_close()
        outcome = json.loads(result.stdout.strip().splitlines()[-1])
        assert outcome["refused"] is True and outcome["status"] == 503  # the refusal reached the caller at last
        return handler.arrivals, outcome

    return run


def _waits(arrivals: list[float]) -> list[float]:
    return [later - earlier for earlier, later in itertools.pairwise(arrivals)]


def test_the_plans_attempts_are_what_the_sdk_sends_within_the_wait_it_states(refused) -> None:  # type: ignore[no-untyped-def]
    plan = camunda_recommend.plan(camunda_recommend.CamundaProfile(client_wait_ms=1000))
    variables = dict(line.split("=", 1) for line in plan.snippets()["client_env"].splitlines())
    attempts = int(variables["CAMUNDA_SDK_HTTP_RETRY_MAX_ATTEMPTS"])
    base = float(variables["CAMUNDA_SDK_HTTP_RETRY_BASE_DELAY_MS"])
    cap = float(variables["CAMUNDA_SDK_HTTP_RETRY_MAX_DELAY_MS"])
    assert attempts >= 2 and camunda_recommend.retry_span(attempts, base, cap) <= 1000  # the plan fits the wait
    arrivals, _ = refused(variables)
    assert len(arrivals) == attempts  # every attempt reached the gateway, and no more
    waits = _waits(arrivals)
    for n, wait in enumerate(waits, start=1):
        assert wait <= min(base * 2 ** (n - 1), cap) + SLACK_MS, (n, waits)  # full jitter under the bound
    assert sum(waits) <= camunda_recommend.retry_span(attempts, base, cap) + SLACK_MS * len(waits)


def test_no_retry_waits_longer_than_the_cap(refused) -> None:  # type: ignore[no-untyped-def]
    arrivals, _ = refused({"CAMUNDA_SDK_HTTP_RETRY_MAX_ATTEMPTS": "8", "CAMUNDA_SDK_HTTP_RETRY_BASE_DELAY_MS": "50",
                           "CAMUNDA_SDK_HTTP_RETRY_MAX_DELAY_MS": "100"})  # fmt: skip
    assert len(arrivals) == 8
    assert max(_waits(arrivals)) <= 100 + SLACK_MS  # uncapped, the seventh would wait up to 3.2 s


def test_one_attempt_returns_the_first_refusal(refused) -> None:  # type: ignore[no-untyped-def]
    arrivals, outcome = refused({"CAMUNDA_SDK_HTTP_RETRY_MAX_ATTEMPTS": "1"})  # ZC002
    assert len(arrivals) == 1 and outcome["title"] == "RESOURCE_EXHAUSTED"


def test_zero_delays_retry_at_once(refused) -> None:  # type: ignore[no-untyped-def]
    arrivals, _ = refused({"CAMUNDA_SDK_HTTP_RETRY_MAX_ATTEMPTS": "5", "CAMUNDA_SDK_HTTP_RETRY_BASE_DELAY_MS": "0",
                           "CAMUNDA_SDK_HTTP_RETRY_MAX_DELAY_MS": "0"})  # fmt: skip
    assert len(arrivals) == 5 and max(_waits(arrivals)) <= SLACK_MS  # ZC003: no backoff between them


def test_a_503_that_is_not_backpressure_is_not_retried(refused) -> None:  # type: ignore[no-untyped-def]
    arrivals, _ = refused({"CAMUNDA_SDK_HTTP_RETRY_MAX_ATTEMPTS": "5"}, title="Service Unavailable")
    assert len(arrivals) == 1  # only RESOURCE_EXHAUSTED (or a 429) is the cluster's "later"
