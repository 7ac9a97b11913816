"""Truth check 2: the committed data is exactly what the generators produce from
the real software (Kafka's jars, the installed librdkafka and kafka-python)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tools" / "catalog"))

import fetch_kafka  # noqa: E402
import gen_client_catalog  # noqa: E402
import gen_kafka_catalog  # noqa: E402
import gen_spring_catalog  # noqa: E402

from advisor.catalog import store  # noqa: E402
from advisor.catalog.lookup import _span_at  # noqa: E402


def test_kafka_4_4_dump_matches_the_committed_4_4_facts() -> None:
    """Dump 4.4.0 with the jars the test cluster runs on and compare key by key."""
    dump = gen_kafka_catalog.dump_release("4.4.0", fetch_kafka.kafka_libs("4.4.0"))
    committed = store.kafka().components
    for component, records in dump["components"].items():
        live_in_catalog = {k for k, r in committed[component].items() if _span_at(r, "4.4.0") is not None}
        assert {r["name"] for r in records} == live_in_catalog, component
        for raw in records:
            span = _span_at(committed[component][raw["name"]], "4.4.0")
            expected = {f: raw[f] for f in gen_kafka_catalog.SPAN_FIELDS if f in raw}
            actual = span.model_dump(by_alias=True, exclude_unset=True, exclude={"start"})
            assert actual == expected, (component, raw["name"])
            assert committed[component][raw["name"]].doc == raw["doc"]


def test_whole_kafka_catalog_regenerates_byte_for_byte() -> None:
    """Every release's jars (fetched from Maven Central once, then cached)."""
    assert gen_kafka_catalog.generate() == gen_kafka_catalog.OUTPUT.read_text()


@pytest.mark.parametrize("name", ["librdkafka.json", "kafka_python.json"])
def test_client_catalogs_regenerate_from_the_installed_libraries(name: str) -> None:
    outputs = {path.name: text for path, text in gen_client_catalog.outputs().items()}
    assert outputs[name] == (store.DATA_DIR / name).read_text()


def test_spring_boot_surface_regenerates_from_boots_own_jars() -> None:
    assert gen_spring_catalog.generate() == gen_spring_catalog.OUTPUT.read_text()
