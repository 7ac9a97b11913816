"""How to change a value where it lives on a running cluster: the kafka-configs command for a
dynamic value (one broker, all brokers, a topic), or the broker's file for a static one — what a
live finding adds to its recommendation."""

from __future__ import annotations

from advisor import lazy_re
from advisor.model.provenance import LiveConfig

_PLAIN = lazy_re.compile(r"^[\w.,:/-]+$")  # a recommendation that is a value, not a sentence


def how_to_change(place: LiveConfig, key: str, recommended: str, bootstrap: str) -> str | None:
    """The command or place that changes `key` at `place`; None for a place that is not a config."""
    value = recommended.strip() if _PLAIN.match(recommended.strip()) else "VALUE"
    tool = f"kafka-configs.sh --bootstrap-server {bootstrap} --alter"
    kind, _, name = place.resource.partition(":")
    if kind == "topic":
        return f"on the running cluster: {tool} --entity-type topics --entity-name {name} --add-config {key}={value}"
    if kind != "broker":
        return None
    if place.source == "DYNAMIC_BROKER_CONFIG":
        return (f"on the running cluster: {tool} --entity-type brokers --entity-name {name} --add-config "
                f"{key}={value} (for each broker it is set on), or --delete-config {key} to fall back to "
                "the file")  # fmt: skip
    if place.source == "DYNAMIC_DEFAULT_BROKER_CONFIG":
        return f"on the running cluster: {tool} --entity-type brokers --entity-default --add-config {key}={value}"
    if place.source == "STATIC_BROKER_CONFIG":
        return f"in each broker's server.properties ({key}={value}), read when the broker starts"
    return f"it runs at Kafka's default: set {key}={value} in each broker's server.properties"
