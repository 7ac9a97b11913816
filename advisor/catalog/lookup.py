"""Questions about configuration keys, answered from the generated catalog.

Java (Apache Kafka) answers vary by Kafka version; librdkafka and kafka-python
answers come from the library versions recorded in their data files.
"""

from __future__ import annotations

from functools import cache, lru_cache

from advisor import TYPE_CHECKING, prebuilt
from advisor.catalog import store, versions
from advisor.catalog.records import SPAN_FIELDS, KeyRecord, LibrdkafkaProperty, Span
from advisor.model.vocabulary import CLIENT_COMPONENTS, Client, Component
from advisor.named_tuple import NamedTuple

if TYPE_CHECKING:
    from typing import Any

    from advisor.catalog.near_spellings import NearSpellings

COMPONENTS: tuple[str, ...] = Component.values()
CLIENTS: tuple[str, ...] = Client.values()
__all__ = ["CLIENTS", "CLIENT_COMPONENTS", "COMPONENTS"]


class KeyFacts(NamedTuple):
    """What one key means for one component, client and Kafka version (a NamedTuple, as the
    catalog's records: a frozen dataclass of these many fields costs ~2 ms to define at each start)."""

    key: str
    component: str
    client: str
    kafka_version: str  # the catalog release that answered (Java), or the newest one
    type: str | None
    default: Any
    default_text: str | None
    required: bool = False
    valid: str | None = None
    min: float | int | None = None
    max: float | int | None = None
    choices: tuple[str, ...] | None = None
    choices_ignore_case: bool = False  # Java: CaseInsensitiveValidString
    importance: str | None = None
    dynamic: str | None = None
    doc: str = ""
    internal: bool = False
    deprecated: bool = False
    alias_of: str | None = None  # librdkafka: the property this name is an alias of
    java_key: str | None = None  # kafka-python: the Kafka key this snake_case name sets
    broker_synonyms: tuple[str, ...] = ()
    client_version: str | None = None
    # librdkafka accepts every known property in any client but it takes effect only
    # for some roles; `applies` is False for e.g. a producer property in a consumer.
    roles: tuple[str, ...] = ()
    applies: bool = True


class HistoryEvent(NamedTuple):
    version: str  # first catalog release showing the change
    previous: str | None  # the catalog release before it: the change happened in between
    event: str  # present | added | default-changed | changed | removed
    default: str | None = None
    changes: tuple[str, ...] = ()


def releases() -> list[str]:
    return list(store.kafka().releases)


@cache
def resolve_version(kafka_version: str | None) -> str:
    return versions.resolve(kafka_version, store.kafka().releases)


# ---------------------------------------------------------------- Java / Kafka


def _span_at(record: KeyRecord, release: str) -> Span | None:
    order = store.kafka().releases
    position = order.index(release)
    current = None
    for span in record.spans:
        if order.index(span.start) <= position:
            current = span
    return None if current is None or current.removed else current


@lru_cache(maxsize=8192)  # owners() and value checks ask for the same few keys many times a run
def _java_facts(key: str, component: str, release: str) -> KeyFacts | None:
    record = store.kafka().components[component].get(key)
    span = _span_at(record, release) if record else None
    if record is None or span is None:
        return None
    return KeyFacts(
        key=key,
        component=component,
        client="java",
        kafka_version=release,
        type=span.type,
        default=None if span.required else span.default,
        default_text=span.default_text,
        required=span.required,
        valid=span.valid,
        min=span.min,
        max=span.max,
        choices=tuple(span.choices) if span.choices else None,
        choices_ignore_case=span.choices_ignore_case,
        importance=span.importance,
        dynamic=span.dynamic,
        doc=record.doc,
        internal=span.internal,
        broker_synonyms=tuple(span.broker_synonyms or ()),
        client_version=release,
    )


# What judging a key needs: whether it exists, its type, default and validation.
_VERDICT_FIELDS = ("removed", "type", "required", "default", "valid", "min", "max", "choices")
_WRITTEN_FIELDS = ("removed", "type", "required", "valid", "min", "max", "choices")  # a written value has no default


@cache
def varies_between_releases(key: str, component: str, written: bool = False) -> bool:
    """Whether a verdict on `key` could differ between catalog releases: the key appears,
    disappears, or changes its type, default or validation somewhere between the oldest and
    the newest release (for a key the config writes, its default does not count). A key no
    release knows is judged alike by all of them."""
    if component not in store.kafka().components:
        return False
    record = store.kafka().components[component].get(key)
    if record is None:
        return False
    spans = record.spans
    if spans[0].start != store.kafka().releases[0]:
        return True
    fields = _WRITTEN_FIELDS if written else _VERDICT_FIELDS
    first = tuple(getattr(spans[0], name) for name in fields)
    return any(tuple(getattr(span, name) for name in fields) != first for span in spans[1:])


# ---------------------------------------------------------------- librdkafka


def _librdkafka_applies(prop: LibrdkafkaProperty, component: str) -> bool:
    return (component == "admin" and prop.scope == "global") or component in prop.roles


def _librdkafka_default(prop: LibrdkafkaProperty) -> Any:
    text = prop.default
    if prop.type == "integer" and text.lstrip("-").isdigit():
        return int(text)
    if prop.type == "float":
        try:
            return float(text)
        except ValueError:
            return text
    if prop.type == "boolean" and text in ("true", "false"):
        return text == "true"
    return text if text != "" else None


def _librdkafka_facts(key: str, component: str, release: str) -> KeyFacts | None:
    data = store.librdkafka()
    prop = data.properties.get(key)
    if prop is None:
        return None
    return KeyFacts(
        key=key,
        component=component,
        client="librdkafka",
        kafka_version=release,
        type=prop.type,
        default=_librdkafka_default(prop),
        default_text=prop.default,
        valid=prop.range,
        min=prop.min,
        max=prop.max,
        choices=tuple(prop.choices) if prop.choices else None,
        importance=prop.importance,
        doc=prop.doc,
        deprecated=prop.deprecated,
        alias_of=prop.alias_of,
        client_version=data.librdkafka_version,
        roles=tuple(prop.roles),
        applies=_librdkafka_applies(prop, component),
    )


# ---------------------------------------------------------------- kafka-python


def _kafka_python_facts(key: str, component: str, release: str) -> KeyFacts | None:
    data = store.kafka_python()
    role = data.roles.get(component)
    entry = role.get(key) if role else None
    if entry is None:
        return None
    default = entry.default
    kind = None if default is None else type(default).__name__
    return KeyFacts(
        key=key,
        component=component,
        client="kafka-python",
        kafka_version=release,
        type=kind,
        default=default,
        default_text=None if default is None else str(default),
        java_key=entry.java_key,
        client_version=data.kafka_python_version,
    )


# ---------------------------------------------------------------- public questions

_FACTS = {"java": _java_facts, "librdkafka": _librdkafka_facts, "kafka-python": _kafka_python_facts}


def _check(component: str, client: str) -> None:
    if client not in CLIENTS:
        raise ValueError(f"unknown client {client!r}; expected one of {', '.join(CLIENTS)}")
    if component not in COMPONENTS:
        raise ValueError(f"unknown component {component!r}; expected one of {', '.join(COMPONENTS)}")
    if client != "java" and component not in CLIENT_COMPONENTS:
        raise ValueError(f"{client} has no {component} configuration (it is a client library)")


def lookup(key: str, component: str, *, kafka_version: str | None = None, client: str = "java") -> KeyFacts | None:
    """The facts of `key` for a component/client/version, or None if that software does not know
    the key. For librdkafka a known key of another role is returned with `applies=False`."""
    _check(component, client)
    return _FACTS[client](key, component, resolve_version(kafka_version))


@cache
def _accepted(component: str, release: str, client: str) -> frozenset[str]:
    """Every name the software accepts for the component (Java: internal keys too)."""
    if client == "java":
        built = prebuilt.java_keys("accepted", component, release)
        if built is not None:
            return frozenset(built)
        records = store.kafka().components[component]
        return frozenset(k for k, r in records.items() if _span_at(r, release) is not None)
    if client == "librdkafka":
        return frozenset(store.librdkafka().properties)
    return frozenset(store.kafka_python().roles.get(component, {}))


def exists(key: str, component: str, *, kafka_version: str | None = None, client: str = "java") -> bool:
    """Does that software accept `key` for the component? (Same answer as `lookup(...) is not None`.)"""
    _check(component, client)
    return key in _accepted(component, resolve_version(kafka_version), client)


def default(key: str, component: str, *, kafka_version: str | None = None, client: str = "java") -> Any:
    """The effective default (typed). Raises KeyError for an unknown key."""
    facts = lookup(key, component, kafka_version=kafka_version, client=client)
    if facts is None:
        raise KeyError(f"{key} is not a {client} {component} config in Kafka {resolve_version(kafka_version)}")
    return facts.default


def known_keys(component: str, *, kafka_version: str | None = None, client: str = "java") -> list[str]:
    """Every key that takes effect for the component in that software (internal Java keys excluded)."""
    _check(component, client)
    release = resolve_version(kafka_version)
    if client == "java":
        built = prebuilt.java_keys("known", component, release)
        if built is not None:
            return list(built)
        records = store.kafka().components[component]
        return sorted(k for k, r in records.items() if (s := _span_at(r, release)) is not None and not s.internal)
    if client == "librdkafka":
        props = store.librdkafka().properties
        return sorted(k for k, p in props.items() if _librdkafka_applies(p, component))
    return sorted(store.kafka_python().roles.get(component, {}))


def owners(key: str, *, kafka_version: str | None = None) -> list[str]:
    """The Kafka components (broker, topic, producer, consumer, admin) that define `key`."""
    release = resolve_version(kafka_version)
    return [c for c in COMPONENTS if _java_facts(key, c, release) is not None]


def _normalized(name: str) -> str:
    return name.strip().lower().replace("_", ".").replace("-", ".")


@cache
def _spelling_index(
    component: str, release: str, client: str
) -> tuple[dict[str, str], dict[tuple[str, ...], list[str]], NearSpellings]:
    """The known keys by normalized spelling and by their sorted words, built once per
    component, release and client (a run asks for suggestions many times)."""
    candidates = known_keys(component, kafka_version=release, client=client)
    by_words: dict[tuple[str, ...], list[str]] = {}
    for candidate in candidates:
        by_words.setdefault(tuple(sorted(_normalized(candidate).split("."))), []).append(candidate)
    from advisor.catalog.near_spellings import NearSpellings

    by_normal = {_normalized(c): c for c in candidates}
    return by_normal, by_words, NearSpellings(list(by_normal))


def suggest(
    key: str, component: str, *, kafka_version: str | None = None, client: str = "java", limit: int = 3
) -> list[str]:
    """Known keys closest to a misspelled or wrongly-spelled one ("did you mean")."""
    return list(_suggestions(key, component, resolve_version(kafka_version), client, limit))


@lru_cache(maxsize=4096)  # the same misspelling recurs across the files of a run; difflib is the costly part
def _suggestions(key: str, component: str, release: str, client: str, limit: int) -> tuple[str, ...]:
    by_normal, by_words, near = _spelling_index(component, release, client)
    wanted = _normalized(key)
    # Same words in another convention (linger_ms / linger.ms) or order (fetch.max.wait.ms / fetch.wait.max.ms).
    same_words = [c for c in by_words.get(tuple(sorted(wanted.split("."))), []) if c != key]
    close = [by_normal[n] for n in near.close(wanted, n=limit, cutoff=0.8)]
    ordered = [*same_words, *(c for c in close if c not in same_words and c != key)]
    return tuple(ordered[:limit])


def history(key: str, component: str) -> list[HistoryEvent]:
    """How the key changed across the catalog's Kafka releases (Java definitions)."""
    _check(component, "java")
    catalog = store.kafka()
    record = catalog.components[component].get(key)
    if record is None:
        return []
    events: list[HistoryEvent] = []
    previous_span: Span | None = None
    for span in record.spans:
        index = catalog.releases.index(span.start)
        before = catalog.releases[index - 1] if index else None
        if span.removed:
            events.append(HistoryEvent(span.start, before, "removed"))
        elif previous_span is None or previous_span.removed:
            kind = "present" if index == 0 else "added"
            events.append(HistoryEvent(span.start, before, kind, span.default_text))
        else:
            changed = tuple(
                name
                for name in SPAN_FIELDS
                if name != "default_text" and getattr(span, name) != getattr(previous_span, name)
            )
            kind = "default-changed" if "default" in changed or "required" in changed else "changed"
            events.append(HistoryEvent(span.start, before, kind, span.default_text, changed))
        previous_span = span
    return events
