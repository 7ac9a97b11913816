"""One run, one judge (issue #23): every command reads, judges and settles through one session.

The first tests are the defects the split between a configs' session and a metrics' one caused,
each reproduced as a user meets it; then what the one pipeline promises: the runner changes no
document, and every command's report goes through the same settle stage.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
URP = "kafka_server_replicamanager_underreplicatedpartitions"


def kafka_advisor(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "advisor", *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def test_analyze_on_metrics_alone_says_a_wrong_rule_parameter_in_the_project_config(tmp_path: Path) -> None:
    (tmp_path / ".kafka-advisor.toml").write_text("[params.KM001]\nthreshold = -4\n")
    scrape = tmp_path / "broker.prom"
    scrape.write_text(f"# TYPE {URP} gauge\n{URP} 0\n")
    result = kafka_advisor("analyze", str(scrape), cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "params.KM001.threshold = -4" in result.stderr
    # The same parameter problem, said once, with configuration beside the metrics.
    (tmp_path / "server.properties").write_text("process.roles=broker\nnode.id=1\n")
    both = kafka_advisor("analyze", str(scrape), str(tmp_path / "server.properties"), cwd=tmp_path)
    assert both.returncode == 2 and both.stderr.count("params.KM001.threshold = -4") == 1


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "junit", "github"])
def test_a_configuration_secret_in_a_metric_label_is_never_printed(tmp_path: Path, fmt: str) -> None:
    secret = "Wq7-plover-93xk"
    (tmp_path / "client.properties").write_text(
        f"bootstrap.servers=kafka-1:9092\nsecurity.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nssl.key.password={secret}\n"
    )
    scrape = tmp_path / "scrape.prom"  # an exporter that copied a connection string into a label
    scrape.write_text(f'# TYPE {URP} gauge\n{URP}{{instance="kafka-1:9404",auth="{secret}"}} 3\n')
    result = kafka_advisor("analyze", str(scrape), str(tmp_path / "client.properties"), "--output-format", fmt,
                           cwd=tmp_path)  # fmt: skip
    assert "KM001" in result.stdout, result.stdout + result.stderr
    assert secret not in result.stdout + result.stderr


def test_recommend_reads_a_file_that_lint_reads_through_an_override(tmp_path: Path) -> None:
    (tmp_path / ".kafka-advisor.toml").write_text('[overrides."apps/*.cfg"]\nformat = "properties"\nas = "producer"\n')
    (tmp_path / "apps").mkdir()
    producer = tmp_path / "apps" / "orders.cfg"
    producer.write_text("bootstrap.servers=kafka-1:9092\nlinger.ms=0\n")
    lint = kafka_advisor("lint", str(producer), "--output-format", "json", cwd=tmp_path)
    assert json.loads(lint.stdout)["files"][0]["format"] == "properties", lint.stderr
    result = kafka_advisor("recommend", "--goal", "throughput", str(producer), "--output-format", "json",
                           cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    against = json.loads(result.stdout)["against"]
    assert any(a["path"] == str(producer) and a["key"] == "linger.ms" and a["current"] == "0" for a in against)


def test_reread_says_why_a_text_cannot_be_read_back() -> None:
    """Both of its refusals are the LoadError its docstring promises (they raised TypeError)."""
    from advisor.model.document import LoadError, SourceFile
    from advisor.sources import LoadOptions, reread

    unknown = SourceFile(path="orders.conf", text="linger.ms=5\n", format="no-such-format")
    compose = SourceFile(path="docker-compose.yml", text="services: {}\n", format="compose")
    for source, text, said in ((unknown, "a=1\n", "no loader reads"), (compose, "just words\n", "no longer a")):
        with pytest.raises(LoadError) as raised:
            reread(source, text, LoadOptions())
        assert raised.value.problem.path == source.path and said in raised.value.message


def test_the_runner_changes_no_document_and_says_what_it_met(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Judging returns its notes (a cluster judged as dev by its addresses) and its internal
    errors; the document it judged keeps the notes and errors its loaders gave it."""
    from advisor.rules import registry, runner
    from advisor.sources import LoadOptions, load

    dev = tmp_path / "server.properties"  # clients reach it on loopback only: judged as a laptop's
    dev.write_text("process.roles=broker,controller\nnode.id=1\ncontroller.listener.names=CONTROLLER\n"
                   "listeners=PLAINTEXT://localhost:9092,CONTROLLER://localhost:9093\n")  # fmt: skip
    broker = REPO_ROOT / "fixtures" / "rules" / "broker" / "acl-upgrade.server.properties"
    document = load([dev, broker], LoadOptions())
    notes, errors = list(document.notes), list(document.errors)
    rules = registry.load_rules()
    python_rule = next(r for r in rules if r.definition.python and r.definition.scope == "config-set"
                       and "broker" in r.definition.applies_to.components)  # fmt: skip

    def failing(values: object, config_set: object) -> list[object]:
        raise RuntimeError("a check's bug")

    monkeypatch.setitem(registry.PYTHON_CHECKS, python_rule.definition.python, failing)
    judged = runner.run(document, rules)
    assert (document.notes, document.errors) == (notes, errors)
    assert any("judged as a development setup" in note.message for note in judged.notes)
    assert judged.problems and all(p.kind == "internal" for p in judged.problems)
    assert all("a check's bug" not in p.message for p in judged.problems)  # its text may quote a secret
