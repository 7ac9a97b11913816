"""The hand-kept removals (advisor/catalog/data/legacy_removals.json) against the real jars:
each key is a string constant in the jar of the last release that read it, and in no class of
the jars of the release that removed it — no code there can read it."""

from __future__ import annotations

import json
import sys
import zipfile
from pathlib import Path

import pytest

from advisor.catalog import versions
from advisor.catalog.store import DATA_DIR
from advisor.report.session import lint

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tools"))
import fetch_kafka  # noqa: E402

REMOVALS = json.loads((DATA_DIR / "legacy_removals.json").read_text())["removals"]


def has_string_constant(jar: Path, text: str) -> bool:
    """A CONSTANT_Utf8 entry equal to `text` in any class: tag 1, a two-byte length, the bytes
    (exact, so 'timeout.ms' is not found inside 'request.timeout.ms')."""
    encoded = text.encode()
    entry = b"\x01" + len(encoded).to_bytes(2, "big") + encoded
    with zipfile.ZipFile(jar) as archive:
        return any(entry in archive.read(name) for name in archive.namelist() if name.endswith(".class"))


@pytest.mark.parametrize("removal", REMOVALS, ids=[r["key"] for r in REMOVALS])
def test_the_key_was_read_before_and_nowhere_after(removal: dict, tmp_path: Path) -> None:
    key = removal["key"]
    for coordinate in removal["present_in"]:
        assert has_string_constant(fetch_kafka.artifact_jar(coordinate), key), f"{key} not in {coordinate}"
    for coordinate in removal["absent_from"]:
        assert not has_string_constant(fetch_kafka.artifact_jar(coordinate), key), f"{key} still in {coordinate}"
    # The removing release is the one right after the last that had it.
    last = max(c.rsplit(":", 1)[1] for c in removal["present_in"])
    first_absent = min(c.rsplit(":", 1)[1] for c in removal["absent_from"])
    assert versions.parse(last) < versions.parse(removal["removed_in"])
    assert versions.parse(first_absent)[:2] == versions.parse(removal["removed_in"])[:2]

    # The linter names the removal for each component, and not for releases that still read it.
    for component in removal["components"]:
        suffix = "server" if component == "broker" else component
        config = tmp_path / f"app.{suffix}.properties"
        config.write_text(f"{key}=x\n")
        found = [f for f in lint([config], kafka_version="4.4").findings if key in f.message]
        assert found and f"removed in Kafka {removal['removed_in']}" in found[0].message, (component, found)
