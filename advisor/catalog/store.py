"""Loads the generated catalog data once, on first use, and validates it."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from advisor.catalog.model import KafkaCatalogData, KafkaPythonData, LibrdkafkaData

DATA_DIR = Path(__file__).resolve().parent / "data"


def _read(name: str) -> dict:
    return json.loads((DATA_DIR / name).read_text(encoding="utf-8"))


@cache
def kafka() -> KafkaCatalogData:
    return KafkaCatalogData.model_validate(_read("kafka.json"))


@cache
def librdkafka() -> LibrdkafkaData:
    return LibrdkafkaData.model_validate(_read("librdkafka.json"))


@cache
def kafka_python() -> KafkaPythonData:
    return KafkaPythonData.model_validate(_read("kafka_python.json"))
