"""advise's alerts: the rules file the real `promtool check rules` accepts (and the
PrometheusRule's spec alike), and each alert's expression evaluated by the real Prometheus
(Debian's package, tools/fetch_prometheus.py) over recorded series — firing where the condition
holds, silent where it does not."""

from __future__ import annotations

import json
import subprocess
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import fetch_prometheus  # tools/, on the path through tests/conftest.py
import prometheus_server  # tests/, on the path through tests/conftest.py
import pytest
import yaml

from advisor.advise import advice as advising
from advisor.cli.lint import configs_request
from advisor.output import render

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "fixtures" / "advise"
START = 1764583200  # seconds; the recorded stretch is twenty minutes from here
STEP = 30
POINTS = 41
AT = START + STEP * (POINTS - 1)


def advice() -> advising.Advice:
    request = configs_request([], None, "advise", metric_files=(FIXTURE / "metrics.prom",), source_lines=True)
    request = request._replace(paths=tuple(sorted(FIXTURE.glob("*.properties"))))
    return advising.advise(advising.gather(request), {}, None)


def promtool() -> Path:
    return fetch_prometheus.prometheus_binary().with_name("promtool")


def test_the_rules_file_and_the_prometheusrule_pass_promtool(tmp_path: Path) -> None:
    found = advice()
    rules = tmp_path / "alerts.yaml"
    rules.write_text(render(found, "alerts"))
    result = subprocess.run([str(promtool()), "check", "rules", str(rules)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"SUCCESS: {len(found.alerts.alerts)} rules found" in result.stdout
    resource = yaml.safe_load(render(found, "prometheusrule"))
    assert resource["kind"] == "PrometheusRule"
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump(resource["spec"]))
    result = subprocess.run([str(promtool()), "check", "rules", str(spec)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    every = yaml.safe_load(rules.read_text())["groups"][0]["rules"]
    assert all(rule["for"] and rule["keep_firing_for"] for rule in every)  # hysteresis on every alert
    assert {"KafkaUnderMinIsrPartitions", "KafkaDiskFillsSoon", "KafkaConsumerGroupLagGrowing"} <= {
        rule["alert"] for rule in every
    }
    step = next(rule for rule in every if rule["alert"] == "KafkaUnderMinIsrPartitions")
    assert "min.insync.replicas=2" in step["annotations"]["runbook"]  # the plan's step that changes it


def _series(name: str, labels: str, values: list[float]) -> list[str]:
    return [f"{name}{{{labels}}} {value:.6g} {START + STEP * i}" for i, value in enumerate(values)]


def recorded() -> str:
    """Twenty minutes of series, each in two forms: `holds` (the alert's condition is true at the
    end) and `clear` (it is not)."""
    n = range(POINTS)
    lines: list[str] = []
    lines += _series("kafka_server_replicamanager_underreplicatedpartitions", 'instance="holds:7071"', [3.0] * POINTS)
    lines += _series("kafka_server_replicamanager_underreplicatedpartitions", 'instance="clear:7071"', [0.0] * POINTS)
    elections = [0.0 if i < 36 else 1.0 for i in n]
    lines += _series(
        "kafka_controller_controllerstats_uncleanleaderelections_total", 'instance="holds:7071"', elections
    )
    lines += _series("kafka_controller_controllerstats_uncleanleaderelections_total", 'instance="clear:7071"',
                     [4.0] * POINTS)  # fmt: skip
    idle = "kafka_server_kafkarequesthandlerpool_requesthandleravgidlepercent_count"
    lines += _series(idle, 'instance="holds:7071"', [0.1e9 * STEP * i for i in n])  # idle 10 % of the time
    lines += _series(idle, 'instance="clear:7071"', [0.5e9 * STEP * i for i in n])
    disk = 'fstype="xfs",mountpoint="/var/lib/kafka"'
    lines += _series("node_filesystem_avail_bytes", f'instance="holds:9100",{disk}', [40e9 - 2e6 * STEP * i for i in n])
    lines += _series("node_filesystem_avail_bytes", f'instance="clear:9100",{disk}', [400e9] * POINTS)
    lines += _series("node_filesystem_avail_bytes", 'instance="clear:9100",fstype="tmpfs",mountpoint="/run"',
                     [1e6 - 1e3 * i for i in n])  # fmt: skip  # a pseudo filesystem: never an alert
    lines += _series("kafka_consumergroup_lag", 'consumergroup="holds",topic="orders",partition="0"',
                     [1000.0 + 500 * i for i in n])  # fmt: skip
    lines += _series("kafka_consumergroup_lag", 'consumergroup="clear",topic="orders",partition="0"',
                     [max(0.0, 20000.0 - 800 * i) for i in n])  # fmt: skip
    errors = [float(i // 10) for i in n]
    lines += _series("kafka_producer_record_error_total", 'client_id="holds"', errors)
    lines += _series("kafka_producer_record_error_total", 'client_id="clear"', [7.0] * POINTS)
    return "\n".join(lines) + "\n# EOF\n"


@pytest.fixture(scope="module")
def prometheus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("recorded")
    (folder / "recorded.om").write_text(recorded())
    subprocess.run([str(promtool()), "tsdb", "create-blocks-from", "openmetrics", str(folder / "recorded.om"),
                    str(folder / "data")], check=True, capture_output=True)  # fmt: skip
    (folder / "prometheus.yml").write_text("global: {scrape_interval: 1m}\n")
    with prometheus_server.running(folder, lambda url: bool(_query(url, "kafka_consumergroup_lag")),
                                   "--storage.tsdb.retention.time=100y") as url:  # fmt: skip
        yield url


def _query(base: str, query: str) -> list[dict]:  # type: ignore[type-arg]
    address = f"{base}/api/v1/query?{urllib.parse.urlencode({'query': query, 'time': AT})}"
    try:
        with urllib.request.urlopen(address, timeout=10) as response:
            answer = json.loads(response.read())
    except OSError:
        return []
    assert answer["status"] == "success", answer
    return answer["data"]["result"]


EVALUATED = ("KafkaUnderReplicatedPartitions", "KafkaUncleanLeaderElections", "KafkaRequestHandlersBusy",
             "KafkaDiskFillsSoon", "KafkaConsumerGroupLagGrowing", "KafkaProducerRecordErrors")  # fmt: skip


def test_each_alert_fires_where_its_condition_holds_and_not_where_it_does_not(prometheus: str) -> None:
    alerts = {alert.name: alert for alert in advice().alerts.alerts}
    missing = [name for name in EVALUATED if name not in alerts]
    assert not missing, f"{missing} not among {sorted(alerts)}"
    for name in EVALUATED:
        result = _query(prometheus, alerts[name].expr)
        said = json.dumps([r["metric"] for r in result])
        assert "holds" in said, f"{name}: {alerts[name].expr} gave {said}"
        assert "clear" not in said, f"{name}: {alerts[name].expr} gave {said}"
