"""Canonical key names: rules read Kafka's (Java) names whatever the client spells.

librdkafka aliases (queue.buffering.max.ms ↔ linger.ms, request.required.acks ↔ acks, ...)
and kafka-python's snake_case names map to the Java key when Kafka has one. Keys a
client does not know keep their spelling, so the unknown-key rules can name them.
"""

from __future__ import annotations

from functools import cache

from advisor import catalog


@cache
def _librdkafka_to_java(component: str) -> dict[str, str]:
    mapping: dict[str, str] = {}
    java = set(catalog.known_keys(component)) if component in catalog.CLIENT_COMPONENTS else set()
    for name in catalog.known_keys(component, client="librdkafka"):
        facts = catalog.lookup(name, component, client="librdkafka")
        if facts.alias_of and name in java:
            mapping[facts.alias_of] = name  # the target spelled the librdkafka way → its Java alias
        elif facts.alias_of and facts.alias_of in java:
            mapping[name] = facts.alias_of  # a librdkafka-only alias of a Java-named property
    return mapping


def canonical(key: str, component: str, client: str) -> str:
    if client == "kafka-python" and component in catalog.CLIENT_COMPONENTS:
        facts = catalog.lookup(key, component, client="kafka-python")
        return facts.java_key if facts is not None and facts.java_key else key
    if client == "librdkafka" and component in catalog.CLIENT_COMPONENTS:
        return _librdkafka_to_java(component).get(key, key)
    return key
