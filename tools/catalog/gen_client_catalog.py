#!/usr/bin/env python3
"""Generate the client config surfaces from the installed client libraries.

    advisor/catalog/data/librdkafka.json    the property table of the librdkafka bundled
                                            in confluent-kafka, as the library prints it
                                            (rd_kafka_conf_properties_show, via ctypes)
    advisor/catalog/data/kafka_python.json  kafka-python's DEFAULT_CONFIG for producer,
                                            consumer and admin, with each snake_case key's
                                            Java (dotted) name where Kafka has that key

Run it with the project's venv (the installed versions are recorded in the data and
pinned in constraints.txt):  .venv/bin/python tools/catalog/gen_client_catalog.py [--check]
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import re
import sys
import types
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import generated  # tools/generated.py

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
DATA = REPO_ROOT / "advisor" / "catalog" / "data"
SCHEMA_VERSION = 1


# ---------------------------------------------------------------- librdkafka


def librdkafka_library() -> ctypes.CDLL:
    """The librdkafka shared object that confluent_kafka itself loaded."""
    import confluent_kafka  # noqa: F401  (loads the bundled library into the process)

    with open("/proc/self/maps") as maps:
        paths = sorted({line.split()[-1] for line in maps if "/librdkafka" in line})
    if not paths:
        raise SystemExit("gen_client_catalog: librdkafka is not mapped after importing confluent_kafka")
    return ctypes.CDLL(paths[0])


def librdkafka_properties_text() -> str:
    """What rd_kafka_conf_properties_show() prints, captured through open_memstream."""
    rdkafka = librdkafka_library()
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    libc.open_memstream.restype = ctypes.c_void_p
    libc.open_memstream.argtypes = [ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_size_t)]
    libc.fclose.argtypes = [ctypes.c_void_p]
    rdkafka.rd_kafka_conf_properties_show.argtypes = [ctypes.c_void_p]
    buffer, size = ctypes.c_char_p(), ctypes.c_size_t()
    stream = libc.open_memstream(ctypes.byref(buffer), ctypes.byref(size))
    rdkafka.rd_kafka_conf_properties_show(stream)
    libc.fclose(stream)
    return ctypes.string_at(buffer, size.value).decode()


_ROLES = {"*": ["producer", "consumer"], "P": ["producer"], "C": ["consumer"]}
_TYPE = re.compile(r"\*Type: ([^*]+)\*")
_ALIAS = re.compile(r"^Alias for `([^`]+)`")


def parse_librdkafka_table(text: str) -> dict[str, dict[str, Any]]:
    properties: dict[str, dict[str, Any]] = {}
    scope = None
    for line in text.splitlines():
        if line.startswith("## Global"):
            scope = "global"
        elif line.startswith("## Topic"):
            scope = "topic"
        elif line.startswith("#"):
            scope = None
        if scope is None or "|" not in line or line.startswith(("Property", "---")):
            continue
        name, roles, value_range, default, importance, description = (p.strip() for p in line.split("|", 5))
        record: dict[str, Any] = {
            "scope": scope,
            "roles": _ROLES[roles],
            "default": default,
            "importance": importance,
            "doc": re.split(r"(?<=\.) ", _ALIAS.sub("", description).lstrip(": ").split("<br>")[0], maxsplit=1)[0],
        }
        if value_range:
            record["range"] = value_range
            bounds = re.fullmatch(r"(-?[\d.]+) \.\. (-?[\d.]+)", value_range)
            if bounds:
                record["min"], record["max"] = (float(b) if "." in b else int(b) for b in bounds.groups())
            else:
                record["choices"] = [choice.strip() for choice in value_range.split(",")]
        type_match = _TYPE.search(description)
        if type_match:
            record["type"] = type_match.group(1).strip()
        alias = _ALIAS.match(description)
        if alias:
            record["alias_of"] = alias.group(1)
        if "**DEPRECATED**" in description:
            record["deprecated"] = True
        if name in properties:
            # A few names exist globally and as (legacy) topic properties with other
            # ranges/defaults; a config dict sets the global one.
            properties[name]["topic_variant"] = record
        else:
            properties[name] = record
    if not properties:
        raise SystemExit("gen_client_catalog: no properties parsed from librdkafka's table")
    return properties


def librdkafka_catalog() -> dict[str, Any]:
    import confluent_kafka

    return {
        "schema_version": SCHEMA_VERSION,
        "client": "librdkafka",
        "librdkafka_version": confluent_kafka.libversion()[0],
        "confluent_kafka_version": confluent_kafka.version()[0],
        "source": "rd_kafka_conf_properties_show() of the librdkafka bundled with confluent-kafka",
        "properties": parse_librdkafka_table(librdkafka_properties_text()),
    }


# ---------------------------------------------------------------- kafka-python


def render_python_default(value: Any) -> Any:
    """JSON form of a DEFAULT_CONFIG value; objects become stable descriptive strings."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [render_python_default(item) for item in value]
    if isinstance(value, type):
        return f"<class {value.__module__}.{value.__qualname__}>"
    if isinstance(value, (types.FunctionType, types.LambdaType, types.BuiltinFunctionType)):
        return f"<function {value.__module__}.{value.__qualname__}>"
    return f"<{type(value).__module__}.{type(value).__qualname__} instance>"


def kafka_python_catalog() -> dict[str, Any]:
    import kafka
    from kafka import KafkaConsumer, KafkaProducer
    from kafka.admin import KafkaAdminClient

    java = json.loads((DATA / "kafka.json").read_text())["components"]

    def java_keys(component: str) -> set[str]:
        return {name for name, record in java[component].items() if not record["spans"][-1].get("removed")}

    roles = {"producer": KafkaProducer, "consumer": KafkaConsumer, "admin": KafkaAdminClient}
    configs: dict[str, dict[str, Any]] = {}
    for role, cls in roles.items():
        known = java_keys(role)
        keys = {}
        for name, value in sorted(cls.DEFAULT_CONFIG.items()):
            dotted = name.replace("_", ".")
            keys[name] = {"default": render_python_default(value), "java_key": dotted if dotted in known else None}
        configs[role] = keys
    return {
        "schema_version": SCHEMA_VERSION,
        "client": "kafka-python",
        "kafka_python_version": kafka.__version__,
        "source": "DEFAULT_CONFIG of kafka.KafkaProducer, kafka.KafkaConsumer, kafka.admin.KafkaAdminClient",
        "roles": configs,
    }


# ---------------------------------------------------------------- output


def render(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def outputs() -> dict[Path, str]:
    return {
        DATA / "librdkafka.json": render(librdkafka_catalog()),
        DATA / "kafka_python.json": render(kafka_python_catalog()),
    }


def main(argv: list[str] | None = None) -> int:
    return generated.run(__doc__.split("\n\n")[0], outputs, "tools/catalog/gen_client_catalog.py", argv)


if __name__ == "__main__":
    sys.exit(main())
