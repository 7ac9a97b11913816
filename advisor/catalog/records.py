"""The catalog data as plain records (NamedTuples: cheap to define at every start, cheap to
build by the thousand), for fast lookups without pydantic on the hot path.

advisor/catalog/model.py (pydantic) validates the same JSON; store.py builds these only
from data that the models have accepted (see store.py for when validation runs).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from advisor import TYPE_CHECKING
from advisor.named_tuple import NamedTuple

if TYPE_CHECKING:
    from typing import Any


class Span(NamedTuple):
    start: str
    removed: bool = False
    type: str | None = None
    required: bool = False
    default: Any = None
    default_text: str | None = None
    valid: str | None = None
    min: float | int | None = None
    max: float | int | None = None
    choices: list[str] | None = None
    choices_ignore_case: bool = False
    importance: str | None = None
    internal: bool = False
    dynamic: str | None = None
    broker_synonyms: list[str] | None = None

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Span:
        values = dict(raw)
        return cls(start=values.pop("from"), **values)


SPAN_FIELDS = tuple(f for f in Span._fields if f != "start")  # the comparable fields, in model order


class KeyRecord(NamedTuple):
    doc: str
    spans: tuple[Span, ...]


class KeyRecords(Mapping[str, KeyRecord]):
    """One component's keys, each record built from the JSON the first time it is read: a run
    reads the keys of the components its files are (a producer file, the producer's), not all
    ~1,900 records of every component."""

    __slots__ = ("_built", "_raw")

    def __init__(self, raw: dict[str, Any]) -> None:
        self._raw = raw
        self._built: dict[str, KeyRecord] = {}

    def __getitem__(self, key: str) -> KeyRecord:
        record = self._built.get(key)
        if record is None:
            raw = self._raw[key]
            record = self._built[key] = KeyRecord(raw["doc"], tuple(Span.from_json(s) for s in raw["spans"]))
        return record

    def get(self, key: str, default: Any = None) -> Any:  # the hot path: no exception for a miss
        return self[key] if key in self._raw else default

    def __contains__(self, key: object) -> bool:
        return key in self._raw

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


class KafkaCatalog(NamedTuple):
    schema_version: int
    releases: list[str]
    components: dict[str, KeyRecords]

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> KafkaCatalog:
        components = {component: KeyRecords(records) for component, records in raw["components"].items()}
        return cls(raw["schema_version"], raw["releases"], components)


class LibrdkafkaProperty(NamedTuple):
    scope: str
    roles: list[str]
    default: str
    importance: str
    doc: str
    type: str | None = None
    range: str | None = None
    min: float | int | None = None
    max: float | int | None = None
    choices: list[str] | None = None
    alias_of: str | None = None
    deprecated: bool = False
    topic_variant: LibrdkafkaProperty | None = None

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> LibrdkafkaProperty:
        values = dict(raw)
        if values.get("topic_variant") is not None:
            values["topic_variant"] = cls.from_json(values["topic_variant"])
        return cls(**values)


class LibrdkafkaCatalog(NamedTuple):
    librdkafka_version: str
    confluent_kafka_version: str
    properties: dict[str, LibrdkafkaProperty]

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> LibrdkafkaCatalog:
        properties = {name: LibrdkafkaProperty.from_json(p) for name, p in raw["properties"].items()}
        return cls(raw["librdkafka_version"], raw["confluent_kafka_version"], properties)


class KafkaPythonKey(NamedTuple):
    default: Any
    java_key: str | None


class KafkaPythonCatalog(NamedTuple):
    kafka_python_version: str
    roles: dict[str, dict[str, KafkaPythonKey]]

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> KafkaPythonCatalog:
        roles = {
            role: {key: KafkaPythonKey(entry["default"], entry["java_key"]) for key, entry in keys.items()}
            for role, keys in raw["roles"].items()
        }
        return cls(raw["kafka_python_version"], roles)
