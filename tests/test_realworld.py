"""fixtures/realworld/: each project folder, linted as a user lints a repository, gives exactly
what its annotations say — found where the reviewer expects it or knowingly calls it wrong,
not found where the reviewer says it is missed (so the figures tools/realworld_score.py prints
stay true) or fine — with no input error and no file skipped."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import realworld_score

PROJECTS = realworld_score.projects()


def test_the_corpus_is_there() -> None:
    assert PROJECTS, "fixtures/realworld/ has no project folders"
    sources = (realworld_score.CORPUS / "SOURCES.md").read_text()
    for project in PROJECTS:
        assert f"`{project.name}/" in sources, f"{project.name}: SOURCES.md names no model for it"


@pytest.mark.parametrize("project", PROJECTS, ids=[p.name for p in PROJECTS])
def test_project(project: Path) -> None:
    result = realworld_score.judge(project)
    marks, found = result["marks"], result["found"]
    assert not result["errors"], result["errors"]
    assert not result["skipped"], result["skipped"]
    assert found == marks["expect"] | marks["wrong"], (
        f"unannotated: {sorted(found - marks['expect'] - marks['wrong'])}; "
        f"not found: {sorted((marks['expect'] | marks['wrong']) - found)}"
    )
    assert not found & marks["missed"], f"now found (make them expect): {sorted(found & marks['missed'])}"
    assert not found & marks["ok"], sorted(found & marks["ok"])
