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
