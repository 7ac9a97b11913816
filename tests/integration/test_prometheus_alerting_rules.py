"""The alerting rules a running Prometheus has loaded count as the Camunda pack's alerting rules
(`analyze CONFIG --prometheus URL`): the real Prometheus (Debian's package, tools/fetch_prometheus.py)
loads a rules file kept nowhere near the broker's configuration, and ZB014 (no export-lag alert)
hears of its export-lag rule while ZX001 judges its rule that pages on every refusal."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import prometheus_server  # tests/, on the path through tests/conftest.py
import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
RULES = """groups:
  - name: zeebe
    rules:
      - alert: ZeebeExportLagHigh
        expr: >-
          max by (partition) (zeebe_log_appender_last_committed_position)
          - min by (partition) (zeebe_exporter_last_exported_position) > 200000
        for: 10m
      - alert: ZeebeRefusesCommands
        expr: sum(rate(zeebe_dropped_request_count_total[5m])) > 0
"""
BROKER = (
    "# kafka-advisor: camunda-version=8.9\ncamunda:\n  processing:\n    flow-control:\n      request:\n"
    "        algorithm: aimd\n"
)


@pytest.fixture(scope="module")
def prometheus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("monitoring")  # the monitoring repository: not the broker's folder
    (folder / "zeebe-rules.yml").write_text(RULES)
    (folder / "prometheus.yml").write_text("global: {evaluation_interval: 1m}\nrule_files: [zeebe-rules.yml]\n")
    with prometheus_server.running(folder, _loaded) as url:
        yield url


def _loaded(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/api/v1/rules", timeout=5) as response:
            return bool(json.loads(response.read())["data"]["groups"])
    except OSError:
        return False


def _run(command: str, *args: str) -> dict:  # type: ignore[type-arg]
    result = subprocess.run([sys.executable, "-m", "advisor", command, *args, "--output-format", "json", "--exit-zero"],
                            capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)  # fmt: skip
    assert result.stdout, result.stderr[-2000:]
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_a_running_prometheus_s_rules_count_for_the_broker(prometheus: str, tmp_path: Path) -> None:
    config = tmp_path / "application.yaml"
    config.write_text(BROKER)
    alone = _run("lint", str(config))
    assert [f["rule"] for f in alone["findings"]] == ["ZB014"]  # no export-lag alert beside it
    beside = _run("analyze", str(config), "--prometheus", prometheus)  # the broker's configuration beside its server
    rules = {f["rule"]: f for f in beside["findings"]}
    assert "ZB014" not in rules  # the server's export-lag rule watches this cluster
    refusing = rules["ZX001"]  # and its rule that pages on any refusal is judged as a file's would be
    assert refusing["path"] == f"{prometheus}/api/v1/rules" and "ZeebeRefusesCommands" in refusing["message"]
