from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse
from xml.etree import ElementTree

import jsonschema
import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
# The official OASIS SARIF 2.1.0 schema, kept in the repository so a lone clone can test against
# it; the team's shared copy (../shared/schemas), when present, must be the same file.
SARIF_SCHEMA_PATH = REPO_ROOT / "tests" / "schemas" / "sarif-schema-2.1.0.json"
SHARED_SARIF_SCHEMA = REPO_ROOT.parent / "shared" / "schemas" / "sarif-schema-2.1.0.json"
SARIF_SCHEMA = json.loads(SARIF_SCHEMA_PATH.read_text())
SUPPRESSED = REPO_ROOT / "fixtures" / "rules" / "clients" / "suppressed.producer.properties"
DEMO = REPO_ROOT / "fixtures" / "demo"


def lint(*args: str, env: dict | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "advisor", "lint", *args],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=60,
        env=env,
    )


def sarif(*paths: Path, extra: tuple[str, ...] = ()) -> dict:
    return json.loads(lint(*map(str, paths), *extra, "--output-format", "sarif").stdout)


def test_sarif_is_valid_against_the_official_schema() -> None:
    report = sarif(DEMO, SUPPRESSED)
    jsonschema.Draft4Validator(SARIF_SCHEMA, format_checker=jsonschema.FormatChecker()).validate(report)
    (run,) = report["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert run["results"], "the demo has findings"
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["partialFingerprints"]["primaryLocationLineHash"]
    for rule in rules:
        assert urlparse(rule["helpUri"]).scheme in ("file", "https")
        assert rule["help"]["markdown"].startswith(f"# {rule['id']} ")


def test_sarif_marks_suppressed_findings_in_source() -> None:
    results = sarif(SUPPRESSED)["runs"][0]["results"]
    suppressed = [r for r in results if "suppressions" in r]
    assert {r["ruleId"] for r in suppressed} == {"KP101", "KX100"}
    kp101 = next(r for r in suppressed if r["ruleId"] == "KP101")
    assert kp101["suppressions"] == [{"kind": "inSource", "justification": "legacy fire-and-forget metrics producer"}]


def test_sarif_docs_url_sets_help_uri() -> None:
    rules = sarif(SUPPRESSED, extra=("--docs-url", "https://example.org/kafka-advisor/rules"))["runs"][0]["tool"][
        "driver"
    ]["rules"]
    assert rules[0]["helpUri"] == f"https://example.org/kafka-advisor/rules/{rules[0]['id']}.md"


def test_fingerprints_survive_moving_lines(tmp_path: Path) -> None:
    config = tmp_path / "server.properties"
    original = (DEMO / "server.properties").read_text()
    config.write_text(original)

    def fingerprints() -> dict[str, tuple[int, str]]:
        results = sarif(config)["runs"][0]["results"]
        return {
            r["ruleId"]: (
                r["locations"][0]["physicalLocation"]["region"]["startLine"],
                r["partialFingerprints"]["primaryLocationLineHash"],
            )
            for r in results
        }

    before = fingerprints()
    config.write_text("# a new header\n# pushing everything down\n\n" + original)
    after = fingerprints()
    assert before and set(before) == set(after)
    for rule, (line, fingerprint) in before.items():
        assert after[rule] == (line + 3, fingerprint)
    config.write_text(original.replace("unclean.leader.election.enable=true", "unclean.leader.election.enable=TRUE"))
    assert fingerprints()["KB103"][1] != before["KB103"][1]  # a changed line is a new finding


def test_junit_counts_and_failures() -> None:
    result = lint(str(DEMO), "--output-format", "junit")
    suite = ElementTree.fromstring(result.stdout)
    cases = suite.findall("testcase")
    assert int(suite.get("tests")) == len(cases)
    failures = [c for c in cases if c.find("failure") is not None]
    assert int(suite.get("failures")) == len(failures) > 0
    assert any("KP101" in c.get("name") for c in failures)


def test_github_annotations_escape_and_default_under_actions() -> None:
    env = {"GITHUB_ACTIONS": "true", "PATH": "/usr/bin:/bin"}
    result = lint(str(DEMO / "producer.properties"), env=env)
    assert result.stdout.startswith("::warning file=")
    assert ",line=8,col=1,title=KP101 producer-acks-not-all::acks=1" in result.stdout
    explicit = lint(str(DEMO / "producer.properties"), "--output-format", "text", env=env)
    assert "KP101" in explicit.stdout and "::warning" not in explicit.stdout
    escaped = lint(str(DEMO / "server.properties"), "--output-format", "github").stdout
    assert "title=KB102 default-replication-factor-one::default.replication.factor is 1 on a cluster" in escaped


@pytest.mark.parametrize("fmt", ["sarif", "junit", "github"])
def test_unreadable_inputs_appear_in_every_format(tmp_path: Path, fmt: str) -> None:
    bad = tmp_path / "bad.producer.properties"
    bad.write_text("x=\\u00Z1\n")
    result = lint(str(bad), "--output-format", fmt)
    assert result.returncode == 2
    assert "malformed" in result.stdout


@pytest.mark.skipif(not SHARED_SARIF_SCHEMA.exists(), reason="no ../shared beside this checkout")
def test_the_kept_sarif_schema_is_the_shared_one() -> None:
    assert SARIF_SCHEMA_PATH.read_bytes() == SHARED_SARIF_SCHEMA.read_bytes()


def test_control_characters_from_input_are_shown_never_acted_on(tmp_path: Path) -> None:
    """An escape sequence in a value (clear the screen, a bell, a right-to-left override) must not
    reach a terminal, a CI log or an XML report as itself."""
    from advisor.output import render
    from advisor.report.session import RunRequest, run

    config = tmp_path / "esc.producer.properties"
    config.write_text("acks=1\x1b[2J\x07\u202e\nlinger.ms=5\n")
    report = run(RunRequest(paths=(config,)))
    assert report.findings
    for fmt in ("text", "github", "junit"):
        out = render(report, fmt)
        assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out, fmt
        assert "\\x1b[2J" in out, fmt
    ElementTree.fromstring(render(report, "junit").split("\n", 1)[1])  # well-formed XML


def test_sarif_uris_are_percent_encoded(tmp_path: Path) -> None:
    """A space, '#' or '%' in a file name would otherwise change what the URI names."""
    folder = tmp_path / "team a#1"
    folder.mkdir()
    (folder / "50% orders.producer.properties").write_text("acks=1\n")
    result = subprocess.run(
        [sys.executable, "-m", "advisor", "lint", "team a#1", "--output-format", "sarif"],
        capture_output=True, text=True, cwd=tmp_path, timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )  # fmt: skip
    (uri,) = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in json.loads(result.stdout)["runs"][0]["results"]
    }
    assert uri == "team%20a%231/50%25%20orders.producer.properties"
    absolute = sarif(folder / "50% orders.producer.properties")["runs"][0]["results"][0]
    assert absolute["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith(
        "/team%20a%231/50%25%20orders.producer.properties"
    )
