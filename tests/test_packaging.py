"""The wheel is what users install: it must carry the rules and run without a checkout."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), REPO_ROOT],
        check=True,
        timeout=300,
    )
    (built,) = out.glob("kafka_advisor-*.whl")
    return built


def test_wheel_ships_every_rule_file_inside_the_package(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    rule_files = [p.relative_to(REPO_ROOT / "rules") for p in (REPO_ROOT / "rules").rglob("*") if p.is_file()]
    assert rule_files, "rules/ is empty"
    for relative in rule_files:
        assert f"advisor/rules/definitions/{relative.as_posix()}" in names
    pages = sorted(p.name for p in (REPO_ROOT / "docs" / "rules").glob("*.md"))
    assert pages and all(f"advisor/docs/rules/{page}" in names for page in pages)  # SARIF helpUri targets
    assert "advisor/catalog/data/kafka.json" in names


def test_wheel_declares_the_console_command(wheel: Path) -> None:
    archive = zipfile.ZipFile(wheel)
    (entry_points,) = [n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt")]
    assert "kafka-advisor = advisor.cli:entrypoint" in archive.read(entry_points).decode()


def test_installed_package_finds_rules_without_a_checkout(wheel: Path, tmp_path: Path) -> None:
    zipfile.ZipFile(wheel).extractall(tmp_path / "site")
    code = "import advisor, advisor.resources as r; print(advisor.__file__, r.rules_dir(), r.rule_docs_dir())"
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path / "site"), "PATH": "/usr/bin:/bin"},
        check=True,
    )
    package_file, rules, rule_docs = result.stdout.split()
    assert Path(package_file).is_relative_to(tmp_path / "site")
    assert Path(rules) == tmp_path / "site" / "advisor" / "rules" / "definitions"
    assert Path(rule_docs) == tmp_path / "site" / "advisor" / "docs" / "rules"
