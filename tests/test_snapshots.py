"""The demo report is pinned: any change to what `make demo` prints shows up as a diff here.
Refresh deliberately with `make snapshots` (tools/update_snapshots.py) and review it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tools"))

import update_snapshots  # noqa: E402


@pytest.mark.parametrize("name", sorted(update_snapshots.SNAPSHOTS))
def test_snapshot(name: str) -> None:
    expected = (REPO_ROOT / "tests" / "snapshots" / name).read_text()
    assert update_snapshots.render(update_snapshots.SNAPSHOTS[name]) == expected


# Every file in fixtures/demo/clean/ (one production-grade file per format) and the demo's clean ones.
_CLEAN_SET = REPO_ROOT / "fixtures" / "demo" / "clean"
CLEAN_DEMO_FILES = [
    *sorted(f"clean/{p.name}" for p in _CLEAN_SET.iterdir()),
    "strimzi-kafka.yaml",
    "helm/values.yaml",
    "broker.env",
]


@pytest.mark.parametrize("name", CLEAN_DEMO_FILES)
def test_clean_demo_files_have_no_findings(name: str) -> None:
    """The demo's production-grade files: any finding on them is a false alarm."""
    from advisor.report.session import lint

    result = lint([REPO_ROOT / "fixtures" / "demo" / name])
    assert result.document.config_sets, f"{name} was not read as configuration"
    assert [(f.rule, f.line, f.message) for f in result.findings] == []
