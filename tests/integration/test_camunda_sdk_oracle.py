"""The ZC rules' facts, checked against the real TypeScript SDK (@camunda8/orchestration-cluster-api,
installed from npm as the catalog generator installs it): the configuration it resolves from the
environment the rules judge. And the committed client catalog is what the generator makes of the
published SDK and Spring starter now."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tools" / "camunda"))

import gen_camunda_client_catalog as generator  # noqa: E402

from advisor.catalog import camunda as catalog  # noqa: E402

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
