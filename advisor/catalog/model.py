"""Pydantic models of the generated catalog data (advisor/catalog/data/*.json).

The data is produced by tools/catalog/; these models reject anything malformed
when it is loaded, so a bad regeneration fails loudly instead of answering wrong.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from advisor.model import vocabulary

Number = int | float

Component = Literal[vocabulary.Component.values()]  # type: ignore[valid-type]


class _Strict(BaseModel):
    # defer_build: a model pays its schema build only when first used (each costs ~10 ms).
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)


class Span(_Strict):
    """A key's facts from release `start` until the next span (or the last release)."""

    start: str = Field(alias="from")
    removed: bool = False
    type: str | None = None
    required: bool = False
    default: Any = None
    default_text: str | None = None
    valid: str | None = None
    min: Number | None = None
    max: Number | None = None
    choices: list[str] | None = None
    choices_ignore_case: bool = False
    importance: str | None = None
    internal: bool = False
    dynamic: Literal["read-only", "per-broker", "cluster-wide"] | None = None
    broker_synonyms: list[str] | None = None


class KeyRecord(_Strict):
    doc: str
    spans: list[Span] = Field(min_length=1)


class KafkaCatalogData(_Strict):
    schema_version: Literal[1]
    releases: list[str] = Field(min_length=1)
    components: dict[Component, dict[str, KeyRecord]]


class LibrdkafkaProperty(_Strict):
    scope: Literal["global", "topic"]
    roles: list[Literal["producer", "consumer"]]
    default: str
    importance: str
    doc: str
    type: str | None = None
    range: str | None = None
    min: Number | None = None
    max: Number | None = None
    choices: list[str] | None = None
    alias_of: str | None = None
    deprecated: bool = False
    # The same name as a topic-level property (e.g. the legacy auto.commit.interval.ms).
    topic_variant: LibrdkafkaProperty | None = None


class LibrdkafkaData(_Strict):
    schema_version: Literal[1]
    client: Literal["librdkafka"]
    librdkafka_version: str
    confluent_kafka_version: str
    source: str
    properties: dict[str, LibrdkafkaProperty]


class KafkaPythonKey(_Strict):
    default: Any
    java_key: str | None


class KafkaPythonData(_Strict):
    schema_version: Literal[1]
    client: Literal["kafka-python"]
    kafka_python_version: str
    source: str
    roles: dict[Literal["producer", "consumer", "admin"], dict[str, KafkaPythonKey]]
