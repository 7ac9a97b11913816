from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
DEMO = REPO_ROOT / "fixtures" / "demo"
CLEAN = REPO_ROOT / "fixtures" / "rules" / "broker" / "production-clean.server.properties"
FINDING_FIELDS = {"rule", "name", "severity", "message", "path", "line", "column", "keys", "component", "client"}
FINDING_FIELDS |= {"recommended", "fix"}


def lint(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "advisor", "lint", *args], capture_output=True, text=True, cwd=REPO_ROOT, timeout=60
    )


def test_clean_file_exits_0() -> None:
    result = lint(str(CLEAN))
    assert result.returncode == 0, result.stdout
    assert "1 file(s) checked: no findings\n" in result.stdout


def test_warnings_exit_1_unless_threshold_or_exit_zero() -> None:
    warnings_only = str(DEMO / "server.properties")
    assert lint(warnings_only).returncode == 1
    assert lint(warnings_only, "--fail-on", "error").returncode == 0
    assert lint(str(DEMO), "--fail-on", "error").returncode == 1  # reassign.sh: KO101 is an error
    assert lint(str(DEMO), "--exit-zero").returncode == 0


def test_json_report_has_the_documented_fields() -> None:
    result = lint(str(DEMO / "producer.properties"), "--output-format", "json")
    report = json.loads(result.stdout)
    assert report["schema_version"] == 2
    (finding,) = [f for f in report["findings"] if f["rule"] == "KP101"]
    assert set(finding) >= FINDING_FIELDS
    assert (finding["line"], finding["keys"], finding["component"], finding["client"]) == (
        8,
        ["acks"],
        "producer",
        "java",
    )
    assert finding["fix"] == {"value": "all", "applicability": "unsafe"}


def test_o_writes_reports_and_stdout_keeps_its_format(tmp_path: Path) -> None:
    result = lint(
        str(DEMO / "producer.properties"), "-o", f"json={tmp_path / 'r.json'}", "-o", f"text={tmp_path / 'r.txt'}"
    )
    assert "KP101" in result.stdout
    assert json.loads((tmp_path / "r.json").read_text())["summary"]["findings"] >= 1
    assert "KP101" in (tmp_path / "r.txt").read_text()


def test_bad_file_gives_file_line_and_exit_2_while_others_are_checked(tmp_path: Path) -> None:
    bad = tmp_path / "bad.producer.properties"
    bad.write_text("acks=all\nlinger.ms=\\u00ZZ\n")
    result = lint(str(bad), str(DEMO / "producer.properties"), "--output-format", "json")
    assert result.returncode == 2
    assert f"{bad}:2: malformed \\uxxxx escape" in result.stderr
    report = json.loads(result.stdout)
    assert any(f["rule"] == "KP101" for f in report["findings"])  # the good file was still linted
    assert report["summary"]["errors"] == 1
    assert report["errors"] == [
        {"path": str(bad), "line": 2, "message": "malformed \\uxxxx escape (expected four hex digits)", "kind": "input"}
    ]


def test_missing_and_unreadable_kinds_are_errors(tmp_path: Path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("hello")
    result = lint("no/such/dir", str(other))
    assert result.returncode == 2
    assert "no/such/dir: no such file or directory" in result.stderr
    assert f"{other}:1: not a configuration format" in result.stderr


def test_select_and_ignore() -> None:
    only = json.loads(lint(str(DEMO), "--select", "KP", "--output-format", "json").stdout)
    selected = {f["rule"] for f in only["findings"]}
    assert "KP101" in selected and all(rule.startswith("KP") for rule in selected)
    rest = json.loads(lint(str(DEMO), "--ignore", "KB,producer-acks-not-all", "--output-format", "json").stdout)
    assert not any(f["rule"].startswith("KB") or f["rule"] == "KP101" for f in rest["findings"])


def test_bad_output_spec_is_a_usage_error() -> None:
    result = lint(str(CLEAN), "-o", "sarif")
    assert result.returncode == 2
    assert "FORMAT=PATH" in result.stderr


def test_explain_and_rules() -> None:
    explained = subprocess.run(
        [sys.executable, "-m", "advisor", "explain", "min-insync-replicas-one"],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
    )
    assert explained.returncode == 0 and explained.stdout.startswith("# KB101 min-insync-replicas-one")
    listed = subprocess.run(
        [sys.executable, "-m", "advisor", "rules", "--format", "json"], capture_output=True, text=True, cwd=REPO_ROOT
    )
    assert {r["id"] for r in json.loads(listed.stdout)} >= {"KB101", "KP101", "KX101"}
    missing = subprocess.run(
        [sys.executable, "-m", "advisor", "explain", "KZ999"], capture_output=True, text=True, cwd=REPO_ROOT
    )
    assert missing.returncode == 2


def test_colour_and_plain_reports_say_the_same() -> None:
    """Terminals get rich's colours, pipes a plain renderer: after stripping colour they agree."""
    import re

    plain = lint(str(DEMO), "--color", "never").stdout
    coloured = lint(str(DEMO), "--color", "always").stdout
    assert "\x1b[" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


def test_a_folder_walk_lists_what_looks_like_kafka_but_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "application.properties").write_text("bootstrap.servers=kafka.prod.example:9092\n")
    (tmp_path / "app" / "orders.producer.properties").write_text("acks=all\n")
    (tmp_path / "package.json").write_text('{"name": "web", "version": "1.0.0"}\n')  # not ours: not listed
    (tmp_path / "broker.yml").write_text(  # an app's Deployment that passes Kafka settings in its environment
        "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n"
        "        - name: orders\n          env:\n"
        "            - name: KAFKA_BOOTSTRAP_SERVERS\n              value: k:9092\n"
    )
    result = lint(str(tmp_path), "--output-format", "json")
    assert result.returncode == 0, result.stderr  # skipping is said, and is no error
    report = json.loads(result.stdout)
    skipped = {Path(s["path"]).name: s for s in report["skipped"]}
    assert set(skipped) == {"application.properties", "broker.yml"} and report["summary"]["skipped"] == 2
    assert skipped["broker.yml"]["line"] == 9
    assert "mentions KAFKA_BOOTSTRAP_SERVERS" in skipped["broker.yml"]["message"]
    assert "name a Kafka client config for its role" in skipped["application.properties"]["message"]
    assert f"{tmp_path / 'broker.yml'}:9: skipped:" in result.stderr
    text = lint(str(tmp_path), "--color", "never").stdout
    assert "2 file(s) skipped (see stderr)" in text
    import jsonschema

    sarif = json.loads(lint(str(tmp_path), "--output-format", "sarif").stdout)
    schema = json.loads((REPO_ROOT / "tests" / "schemas" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker()).validate(sarif)
    notes = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert [n["level"] for n in notes] == ["note", "note"] and sarif["runs"][0]["invocations"][0]["executionSuccessful"]
    named = lint(str(tmp_path / "app" / "application.properties"))  # named on the command line: an error
    assert named.returncode == 2 and "not a configuration format" in named.stderr


def test_no_output_ever_replaces_an_input_a_folder_or_a_device(tmp_path: Path) -> None:
    config = tmp_path / "app.producer.properties"
    config.write_text("acks=1\n")
    for flags in (["-o", f"json={config}"], ["--write-baseline", str(config)]):
        result = lint(str(config), *flags)
        assert result.returncode == 2 and "refusing to write over it" in result.stderr, flags
        assert config.read_text() == "acks=1\n", flags  # not a byte lost
    refused = {
        f"json={tmp_path / 'missing' / 'out.json'}": "does not exist",
        f"json={tmp_path}": "not a regular file",
        "json=/dev/null": "not a regular file",
    }
    for spec, said in refused.items():
        result = lint(str(config), "-o", spec, "-o", f"sarif={tmp_path / 'out.sarif'}")
        assert result.returncode == 2 and said in result.stderr, spec
        assert json.loads((tmp_path / "out.sarif").read_text())["version"] == "2.1.0"  # the others still written
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # nothing left behind


def test_a_planted_link_at_the_output_is_replaced_not_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    config = tmp_path / "app.producer.properties"
    config.write_text("acks=1\n")
    report = tmp_path / "report.json"
    report.symlink_to(victim)
    result = lint(str(config), "-o", f"json={report}")
    assert result.returncode == 1, result.stderr
    assert victim.read_text() == "precious\n" and not report.is_symlink()
