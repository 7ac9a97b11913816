"""A recommended client setting in each client's own spelling: Java's keys, librdkafka's
properties (the same name, an alias, or a different knob with its own unit), kafka-python's
keyword arguments — from the generated catalogs, not typed."""

from __future__ import annotations

from typing import Any

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
