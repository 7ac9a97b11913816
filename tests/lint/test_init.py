"""`kafka-advisor init`: a commented project config for a repository as it is, and today's findings
as its baseline — after which a run passes, and fails only on what is new; the clusters it
declares are the ones the run found; nothing is ever written over."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from advisor import project_config
from advisor.report.session import RunRequest, run_with_document

REPO_ROOT = Path(__file__).resolve().parents[2]


def advisor(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "advisor", *args], cwd=folder, capture_output=True, text=True,
                          timeout=120)  # fmt: skip


def repository(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(REPO_ROOT / "fixtures" / "demo", root / "deploy")
    shutil.copytree(REPO_ROOT / "fixtures" / "realworld" / "confluent-python", root / "apps" / "telemetry")
    return root


def test_after_init_a_run_passes_and_only_a_new_finding_fails(tmp_path: Path) -> None:
    root = repository(tmp_path)
    assert advisor(root, "lint", ".").returncode == 1  # findings today
    result = advisor(root, "init")
    assert result.returncode == 0, result.stderr
    config = project_config.load(root / ".kafka-advisor.toml")
    assert config.baseline == ".kafka-advisor-baseline.json" and (root / config.baseline).exists()
    assert (root / ".kafka-advisor.toml").stat().st_mode & 0o044  # readable by the team, as any file
    clean = advisor(root, "lint", ".")
    assert clean.returncode == 0, clean.stdout
    (root / "apps" / "orders.producer.properties").write_text("acks=1\nenable.idempotence=true\n")
    new = advisor(root, "lint", ".", "--output-format", "json")
    import json

    shown = [f for f in json.loads(new.stdout)["findings"] if not f.get("suppressed")]
    assert new.returncode == 1 and {Path(f["path"]).name for f in shown} == {"orders.producer.properties"}


def test_the_declared_clusters_are_the_ones_found(tmp_path: Path) -> None:
    root = repository(tmp_path)
    _, before = run_with_document(RunRequest(paths=(root,)))
    files = [sorted({m.path for m in c.members}) for c in before.clusters.values()]
    found = sorted(paths for paths in files if len(paths) > 1)
    assert advisor(root, "init", "--no-baseline").returncode == 0
    text = (root / ".kafka-advisor.toml").read_text()
    assert "baseline =" not in text and "[clusters." in text
    config = project_config.load(root / ".kafka-advisor.toml")
    declared = sorted(sorted(str(root / p) for p in c.paths) for c in config.clusters)
    assert declared == sorted(sorted(str(Path(p).resolve()) for p in paths) for paths in found)


def test_nothing_is_written_over(tmp_path: Path) -> None:
    root = repository(tmp_path)
    (root / ".kafka-advisor.toml").write_text('fail-on = "error"\n')
    refused = advisor(root, "init")
    assert refused.returncode == 2 and "exists" in refused.stderr
    assert (root / ".kafka-advisor.toml").read_text() == 'fail-on = "error"\n'
    assert not (root / ".kafka-advisor-baseline.json").exists()
    printed = advisor(root, "init", "--stdout")
    assert printed.returncode == 0 and printed.stdout.startswith("# kafka-advisor project config")
    assert (root / ".kafka-advisor.toml").read_text() == 'fail-on = "error"\n'


def test_a_pyproject_table_is_added_and_read(tmp_path: Path) -> None:
    root = repository(tmp_path)
    (root / "pyproject.toml").write_text('[project]\nname = "telemetry"\nversion = "1.0"\n')
    assert advisor(root, "init", "--pyproject").returncode == 0
    text = (root / "pyproject.toml").read_text()
    assert text.startswith('[project]\nname = "telemetry"\n') and "\n[tool.kafka-advisor]\n" in text
    assert "[tool.kafka-advisor.clusters." in text
    config = project_config.load(root / "pyproject.toml")
    assert config.baseline and config.clusters
    assert advisor(root, "lint", ".").returncode == 0
    again = advisor(root, "init", "--pyproject")
    assert again.returncode == 2 and (root / "pyproject.toml").read_text() == text


def test_a_camunda_repository_is_surveyed_as_camunda(tmp_path: Path) -> None:
    """The Camunda pack's files: their releases named as Camunda's, never offered as a Kafka
    version; no Kafka cluster made of them; the run's notes not counted as files passed over."""
    root = tmp_path / "repo"
    shutil.copytree(REPO_ROOT / "fixtures" / "rules" / "camunda", root / "camunda")
    assert advisor(root, "init", "--no-baseline").returncode == 0
    written = (root / ".kafka-advisor.toml").read_text()
    assert "name Camunda 8.4.9, 8.5.4" in written and "camunda-version=8.X" in written
    assert "kafka-version" not in written and "[clusters." not in written
    assert "passed over (no reader claims them): 0" in written
