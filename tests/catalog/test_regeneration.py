"""Truth check 2: the committed data is exactly what the generators produce from
the real software (Kafka's jars, the installed librdkafka and kafka-python)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tools" / "catalog"))

import fetch_kafka  # noqa: E402
import gen_client_catalog  # noqa: E402
import gen_early_removals  # noqa: E402
import gen_kafka_catalog  # noqa: E402
import gen_metadata_versions  # noqa: E402
import gen_spring_catalog  # noqa: E402

from advisor.catalog import store  # noqa: E402


def _raw_span_at(spans: list[dict], release: str, releases: list[str]) -> dict | None:
    active = None
    for span in spans:
        if releases.index(span["from"]) <= releases.index(release):
            active = span
    return None if active is None or active.get("removed") else active


def test_kafka_4_4_dump_matches_the_committed_4_4_facts() -> None:
    """Dump 4.4.0 with the jars the test cluster runs on and compare key by key."""
    dump = gen_kafka_catalog.dump_release("4.4.0", fetch_kafka.kafka_libs("4.4.0"))
    committed = json.loads(gen_kafka_catalog.OUTPUT.read_text())
    releases = committed["releases"]
    for component, records in dump["components"].items():
        keys = committed["components"][component]
        live = {k for k, r in keys.items() if _raw_span_at(r["spans"], "4.4.0", releases) is not None}
        assert {r["name"] for r in records} == live, component
        for raw in records:
            span = dict(_raw_span_at(keys[raw["name"]]["spans"], "4.4.0", releases))
            span.pop("from")
            assert span == {f: raw[f] for f in gen_kafka_catalog.SPAN_FIELDS if f in raw}, (component, raw["name"])
            assert keys[raw["name"]]["doc"] == raw["doc"]


def test_whole_kafka_catalog_regenerates_byte_for_byte() -> None:
    """Every release's jars (fetched from Maven Central once, then cached)."""
    assert gen_kafka_catalog.generate() == gen_kafka_catalog.OUTPUT.read_text()


def test_early_removals_regenerate_from_the_old_releases_jars() -> None:
    """0.8.2 to 2.8.2, each release's own definitions (fetched from Maven Central once, then cached)."""
    assert gen_early_removals.generate() == gen_early_removals.OUTPUT.read_text()


def test_metadata_versions_regenerate_from_kafkas_own_enum() -> None:
    """3.9.1's and 4.4.0's MetadataVersion enums (fetched from Maven Central once, then cached)."""
    assert gen_metadata_versions.generate() == gen_metadata_versions.OUTPUT.read_text()


@pytest.mark.parametrize("name", ["librdkafka.json", "kafka_python.json"])
def test_client_catalogs_regenerate_from_the_installed_libraries(name: str) -> None:
    outputs = {path.name: text for path, text in gen_client_catalog.outputs().items()}
    assert outputs[name] == (store.DATA_DIR / name).read_text()


def test_spring_boot_surface_regenerates_from_boots_own_jars() -> None:
    assert gen_spring_catalog.generate() == gen_spring_catalog.OUTPUT.read_text()
