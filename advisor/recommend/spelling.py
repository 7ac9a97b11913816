"""A recommended client setting in each client's own spelling: Java's keys, librdkafka's
properties (the same name, an alias, or a different knob with its own unit), kafka-python's
keyword arguments — from the generated catalogs, not typed."""

from __future__ import annotations

from typing import Any

from advisor import lazy_re
from advisor.catalog import store
from advisor.named_tuple import NamedTuple

# Java settings librdkafka spells differently, with how the value converts.
_LIBRDKAFKA = {
    "buffer.memory": ("queue.buffering.max.kbytes", lambda v: str(max(1, int(v) // 1024))),
    "fetch.max.wait.ms": ("fetch.wait.max.ms", str),
    "max.request.size": ("message.max.bytes", str),  # librdkafka's client-side request limit
}

_FLOORS = {"buffer.memory"}
# kafka-python compresses with optional packages, except gzip (zlib): without the package it refuses the codec.
_PYTHON_CODEC_PACKAGES = {
    "lz4": "lz4",
    "zstd": "zstandard",
    "snappy": "python-snappy",
}  # a recommendation of at least this much: never lower a larger default


# The client metrics a recommendation's proof names, in Java's spelling, as the other libraries report
# them: from where the metric readers find each (advisor/metrics/clients.py FIELDS), and librdkafka's
# STATISTICS.md for the per-broker request counters its readers do not need.
_LIBRDKAFKA_METRICS_TOO = {"record-retry-rate": "brokers.<broker>.txretries", "record-error-rate":
                           "brokers.<broker>.txerrs", "bufferpool-wait-ratio": "msg_cnt / msg_max"}  # fmt: skip
_CLIENT_METRIC = lazy_re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)+$")


def _metric_names(library: str) -> dict[str, str]:
    from advisor.metrics import clients

    found = {}
    for entries in clients.FIELDS.values():
        by_library = dict(entries)
        java, other = by_library.get("java"), by_library.get(library)
        if java and other and " / " not in java:  # a ratio of two is no name of its own
            found[java.split()[1]] = other.split(" (")[0] if library == "librdkafka" else other.split()[1]
    return {**found, **_LIBRDKAFKA_METRICS_TOO} if library == "librdkafka" else found


def proof(text: str, client: str) -> str:
    """A recommendation's proof with each client metric spelled as `client` reports it, or said
    to be Java's where the library reports none (broker metrics and checks are left as written)."""
    if client == "java":
        return text
    names = _metric_names(client)
    parts = []
    for part in text.split("; "):
        if not _CLIENT_METRIC.match(part):
            parts.append(part)
        elif part in names:
            parts.append(names[part])
        elif client == "kafka-python" and part not in _NOT_IN_KAFKA_PYTHON:
            parts.append(part)  # kafka-python reports Java's names
        else:
            parts.append(f"{part} (Java's; {client} reports none)")
    return "; ".join(parts)


# Java client metrics kafka-python does not report (its metrics mirror Java's names otherwise).
_NOT_IN_KAFKA_PYTHON = frozenset({"bufferpool-wait-ratio", "time-between-poll-max"})


class Spelled(NamedTuple):
    key: str | None  # None: the client has no such setting
    value: Any
    note: str = ""


def spell(key: str, value: str, client: str, role: str) -> Spelled:
    if client == "java":
        return Spelled(key, value)
    if client == "librdkafka":
        return _librdkafka(key, value, role)
    return _kafka_python(key, value, role)


def _librdkafka(key: str, value: str, role: str) -> Spelled:
    if key in _LIBRDKAFKA:
        name, convert = _LIBRDKAFKA[key]
        converted = convert(value)
        default = store.librdkafka().properties[name].default
        if key in _FLOORS and default is not None and int(converted) <= int(default):
            return Spelled(None, None, f"librdkafka's {name} default ({default}) already holds it")
        return Spelled(name, converted, f"librdkafka's {name} for Java's {key}")
    prop = store.librdkafka().properties.get(key)
    if prop is None or (prop.roles and role not in prop.roles):
        return Spelled(None, None, f"librdkafka has no {key}")
    return Spelled(key, value)


def _kafka_python(key: str, value: str, role: str) -> Spelled:
    entries = store.kafka_python().roles.get(role, {})
    name = next((n for n, e in entries.items() if e.java_key == key), None)
    if name is None:
        version = store.kafka_python().kafka_python_version
        return Spelled(None, None, f"kafka-python {version} has no {key}")
    if key == "compression.type":
        if value == "none":
            return Spelled(name, None)  # kafka-python's "no codec" is None; the string "none" is refused
        if value in _PYTHON_CODEC_PACKAGES:
            package = _PYTHON_CODEC_PACKAGES[value]
            return Spelled(name, value, f"kafka-python needs the {package} package for {value} (pip install {package})")
    return Spelled(name, _python_value(value, entries[name].default))


def _python_value(value: str, default: Any) -> Any:
    """The keyword argument's Python value: numbers and booleans as such (acks 'all' stays a string)."""
    if value in ("true", "false"):
        return value == "true"
    try:
        return int(value)
    except ValueError:
        return value
