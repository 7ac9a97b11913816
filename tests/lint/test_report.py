"""The run session and the Report: one cause shared by the brokers of a cluster is one finding
with every location in every format; selection and suppression are decided together."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import jsonschema

from advisor.model.findings import Finding
from advisor.model.provenance import LiveConfig, Location, MetricSample
from advisor.output import FORMATS, RenderOptions, render
from advisor.report.model import Report
from advisor.rules.registry import load_rules

REPO_ROOT = Path(__file__).resolve().parents[2]
SARIF_SCHEMA = json.loads((REPO_ROOT / "tests" / "schemas" / "sarif-schema-2.1.0.json").read_text())


def lint(*args: str, cwd: Path = REPO_ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "advisor", "lint", *args], capture_output=True, text=True, cwd=cwd, timeout=60
    )


def _four_brokers(tmp_path: Path) -> tuple[Path, list[int]]:
    """Four broker services that each write default.replication.factor=1 (no anchor: four lines)."""
    lines = ["services:"]
    where = []
    for number in range(1, 5):
        lines += [
            f"  broker-{number}:",
            "    image: apache/kafka:4.4.0",
            "    environment:",
            f"      KAFKA_NODE_ID: {number}",
            "      KAFKA_PROCESS_ROLES: broker,controller",
            "      KAFKA_CONTROLLER_QUORUM_VOTERS: 1@broker-1:9093,2@broker-2:9093,3@broker-3:9093,4@broker-4:9093",
            "      KAFKA_DEFAULT_REPLICATION_FACTOR: 1",
        ]
        where.append(len(lines))
    path = tmp_path / "docker-compose.yml"
    path.write_text("\n".join(lines) + "\n")
    return path, where


def test_a_problem_shared_by_four_brokers_is_one_finding_with_four_locations(tmp_path: Path) -> None:
    compose, lines = _four_brokers(tmp_path)
    report = json.loads(lint(str(compose), "--output-format", "json", "--select", "KB102").stdout)
    (finding,) = report["findings"]
    assert [loc["line"] for loc in finding["locations"]] == lines
    assert finding["line"] == lines[0] and finding["subject"] == "broker-1, broker-2, broker-3, broker-4"

    sarif = json.loads(lint(str(compose), "--output-format", "sarif", "--select", "KB102").stdout)
    jsonschema.Draft4Validator(SARIF_SCHEMA, format_checker=jsonschema.FormatChecker()).validate(sarif)
    (result,) = sarif["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == lines[0]
    related = [r["physicalLocation"]["region"]["startLine"] for r in result["relatedLocations"]]
    assert related == lines[1:]

    text = lint(str(compose), "--select", "KB102", "--color", "never").stdout
    assert text.count("KB102") == 1
    assert f"also at {', '.join(f'{n}:7' for n in lines[1:])} (broker-2, broker-3, broker-4)" in text

    suite = ElementTree.fromstring(lint(str(compose), "--output-format", "junit", "--select", "KB102").stdout)
    (failure,) = suite.iter("failure")
    assert all(f"{compose}:{n}:7" in failure.text for n in lines)

    github = lint(str(compose), "--output-format", "github", "--select", "KB102").stdout.splitlines()
    assert len(github) == 1 and f"line={lines[0]}," in github[0]
    assert f"also at {', '.join(f'{n}:7' for n in lines[1:])}" in github[0]


def test_ignore_and_a_suppression_of_the_same_rule_exit_0(tmp_path: Path) -> None:
    producer = tmp_path / "app.producer.properties"
    producer.write_text("# kafka-advisor: disable-next-line KP101 -- legacy\nacks=1\n")
    assert lint(str(producer)).returncode == 0  # the directive suppresses KP101: nothing left
    ignored = lint(str(producer), "--ignore", "KP101", "--output-format", "json")
    assert ignored.returncode == 0, ignored.stdout
    assert json.loads(ignored.stdout)["findings"] == []  # no KO001: the rule was not run
    # A per-file ignore in the project config counts the same way.
    (tmp_path / ".kafka-advisor.toml").write_text('[per-file-ignores]\n"*.producer.properties" = ["KP1"]\n')
    assert lint(str(producer), cwd=tmp_path).returncode == 0
    (tmp_path / ".kafka-advisor.toml").unlink()
    # Without the rule's findings to suppress and with the rule selected, the directive is unused.
    producer.write_text("# kafka-advisor: disable-next-line KP101 -- legacy\nacks=all\n")
    unused = json.loads(lint(str(producer), "--output-format", "json").stdout)["findings"]
    assert [f["rule"] for f in unused] == ["KO001"]
    # ...and KO001 itself can be ignored.
    assert json.loads(lint(str(producer), "--ignore", "KO001", "--output-format", "json").stdout)["findings"] == []


def test_every_format_renders_live_and_metric_provenance() -> None:
    """No source of live configs or metrics exists yet (later issues); a Report holding such
    findings is built by hand here so the formatters are ready for them."""
    (definition,) = [r.definition for r in load_rules() if r.definition.id == "KB101"]
    live = LiveConfig("prod-eu", "broker:1", "DYNAMIC_BROKER_CONFIG")
    sample = MetricSample("http://127.0.0.1:7071/metrics", "kafka_server_replicamanager_underreplicatedpartitions")
    common = {"rule": "KB101", "name": definition.name, "severity": "warning", "category": "durability",
              "message": "min.insync.replicas=1", "keys": ("min.insync.replicas",), "component": "broker",
              "client": "java", "subject": "broker 1"}  # fmt: skip
    findings = [Finding(location=live, related=(Location("server.properties", 3),), **common),
                Finding(location=sample, **common)]  # fmt: skip
    report = Report("test", [], findings, [], [definition])
    for fmt in FORMATS:
        rendered = render(report, fmt, RenderOptions())
        assert "live://prod-eu/broker:1" in rendered, fmt
        assert "http://127.0.0.1:7071/metrics" in rendered, fmt
    sarif = json.loads(render(report, "sarif", RenderOptions()))
    jsonschema.Draft4Validator(SARIF_SCHEMA, format_checker=jsonschema.FormatChecker()).validate(sarif)
    first = sarif["runs"][0]["results"][0]
    assert first["locations"] == [{"logicalLocations": [{"fullyQualifiedName": "live://prod-eu/broker:1",
                                                         "kind": "resource"}]}]  # fmt: skip
    assert json.loads(json.dumps(report.to_dict()))["findings"][0]["locations"][0]["source"] == "DYNAMIC_BROKER_CONFIG"


def test_rule_parameters_come_from_the_project_config_and_are_checked(tmp_path: Path) -> None:
    broker = tmp_path / "server.properties"
    broker.write_text("process.roles=broker\nnode.id=1\nnum.network.threads=6\n")
    assert lint(str(broker), "--select", "KB125").returncode == 0  # 6 is not above the default of 8
    config = tmp_path / ".kafka-advisor.toml"
    config.write_text("[params.KB125]\nthreads = 4\n")
    fired = json.loads(lint(str(broker), "--select", "KB125", "--output-format", "json").stdout)["findings"]
    assert [f["rule"] for f in fired] == ["KB125"]
    for text, says in [
        ("[params.KB125]\nthreads = 0\n", "threads = 0: must be at least 1"),
        ('[params.KB125]\nthreads = "many"\n', "threads = many: must be an integer"),
        ("[params.KB125]\nthreds = 4\n", "KB125.threds: KB125 has no such parameter (its parameters: threads)"),
        ("[params.KX999]\nthreads = 4\n", "params.KX999: there is no rule KX999"),
    ]:
        config.write_text(text)
        result = lint(str(broker), "--select", "KB125")
        assert result.returncode == 2, text
        assert f"{config}:2: params" in result.stderr and says in result.stderr, result.stderr


def test_baselines_and_per_path_ignores_work_for_live_and_metric_provenance(tmp_path: Path) -> None:
    from advisor.report import baseline
    from advisor.report.selection import Selection

    (definition,) = [r.definition for r in load_rules() if r.definition.id == "KB101"]
    common = {"rule": "KB101", "name": definition.name, "severity": "warning", "category": "durability",
              "message": "min.insync.replicas=1", "keys": ("min.insync.replicas",), "component": "broker",
              "client": "java", "subject": "broker 1"}  # fmt: skip
    live = Finding(location=LiveConfig("prod-eu", "broker:1", "DYNAMIC_BROKER_CONFIG"), **common)
    metric = Finding(location=MetricSample("scrapes/a.prom", "kafka_x", line=3), **common)
    recorded = tmp_path / "baseline.json"
    baseline.write(recorded, [live, metric])
    assert all(f.suppressed for f in baseline.apply(recorded, [live, metric]))
    other = Finding(location=LiveConfig("prod-us", "broker:1", "DYNAMIC_BROKER_CONFIG"), **common)
    assert not baseline.apply(recorded, [other])[0].suppressed  # another cluster is another entry
    from advisor import project_config

    config = tmp_path / ".kafka-advisor.toml"
    config.write_text('[per-file-ignores]\n"live://prod-eu/*" = ["KB101"]\n')
    selection = Selection(ignored_for=project_config.load(config).ignored_for)
    assert not selection.active(live.path, "KB101", definition.name)
    assert selection.active(other.path, "KB101", definition.name)


def test_a_suppression_on_one_broker_leaves_the_shared_cause_reported_on_the_others(tmp_path: Path) -> None:
    """Four brokers share a cause; the directive stands on broker-2's line only: that place is
    suppressed, and the other three stay one reported finding."""
    compose, lines = _four_brokers(tmp_path)
    text = compose.read_text().splitlines()
    text.insert(lines[1] - 1, "      # kafka-advisor: disable-next-line KB102 -- one RF-1 test broker")
    compose.write_text("\n".join(text) + "\n")
    moved = [lines[0], *(n + 1 for n in lines[1:])]
    result = lint(str(compose), "--output-format", "json", "--select", "KB102")
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    shown = [f for f in report["findings"] if not f["suppressed"]]
    hidden = [f for f in report["findings"] if f["suppressed"]]
    assert [[loc["line"] for loc in f["locations"]] for f in shown] == [[moved[0], moved[2], moved[3]]]
    assert [[loc["line"] for loc in f["locations"]] for f in hidden] == [[moved[1]]]
    assert shown[0]["subject"] == "broker-1, broker-3, broker-4" and hidden[0]["subject"] == "broker-2"
    assert hidden[0]["justification"] == "one RF-1 test broker"
    assert report["summary"]["suppressed"] == 1 and report["summary"]["findings"] == 1
    everywhere = compose.read_text().replace("disable-next-line KB102 -- one", "disable-file KB102 -- every")
    compose.write_text(everywhere)
    assert lint(str(compose), "--select", "KB102").returncode == 0  # every place suppressed: nothing left
