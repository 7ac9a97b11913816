"""Values for Confluent's cp-helm-charts cp-kafka chart, alone or under an umbrella's `cp-kafka:`.

The chart's StatefulSet turns each `configurationOverrides` entry into a `KAFKA_<KEY>` variable
of the Confluent image (so they are the broker's properties, as written), `customEnv` into
variables read by the image's convention, `heapOptions` into KAFKA_HEAP_OPTS; `brokers` is the
replica count and `imageTag` the Confluent Platform release. What the values leave out has the
chart's defaults (charts/cp-kafka/values.yaml): 3 brokers, a 512 MiB heap, the image's (so
Kafka's) broker defaults.
"""

from __future__ import annotations

from pathlib import Path

from advisor import TYPE_CHECKING
from advisor.model.document import ConfigSet, Setting, SourceFile
from advisor.secrets import is_secret_key
from advisor.sources import chart_paths, compose
from advisor.sources import directives as directive_syntax
from advisor.sources.spans import Located, raw_text
from advisor.sources.structured import read_yaml

if TYPE_CHECKING:
    from typing import Any

FORMAT = "cp-helm"
_DISTINCT = ("configurationOverrides", "heapOptions", "customEnv", "cp-zookeeper", "brokers")
_CHART_BROKERS = 3  # charts/cp-kafka/values.yaml
_CHART_IMAGE = "confluentinc/cp-server"


def _values(data: Any) -> Located | None:
    """The cp-kafka chart's values: the document, or its `cp-kafka:` subchart block."""
    if not isinstance(data, Located):
        return None
    inner = data.get("cp-kafka")
    candidate = inner if isinstance(inner, Located) else data
    present = sum(1 for key in _DISTINCT if key in candidate)
    return candidate if present >= 2 and ("configurationOverrides" in candidate or "heapOptions" in candidate) else None


def sniff(path: Path, text: str) -> Any:
    if path.suffix not in (".yaml", ".yml") or ("configurationOverrides" not in text and "heapOptions" not in text):
        return None
    try:
        documents = read_yaml(text, str(path))
    except Exception:  # noqa: BLE001 - not this reader's file
        return None
    return True if documents and _values(documents[0]) is not None else None


def _scalar(value: Any) -> str | None:
    return None if isinstance(value, (Located, list)) else "" if value is None else str(value)


def load(path: str, text: str, _payload: Any, options) -> tuple[SourceFile, list[ConfigSet]]:  # type: ignore[no-untyped-def]
    found = directive_syntax.in_hash_comments(text, path)
    source = SourceFile(path, text, FORMAT, found)
    documents = read_yaml(text, path)
    values = _values(documents[0])
    assert values is not None  # sniff said so
    tag = _scalar(values.get("imageTag"))
    image = f"{_scalar(values.get('image')) or _CHART_IMAGE}:{tag}" if tag else str(values.get("image") or "")
    entries: list[compose.Entry] = []
    custom = values.get("customEnv")
    if isinstance(custom, Located):
        for name, value in custom.items():
            if (written := _scalar(value)) is not None:
                where = custom.value_location(name, path)
                entries.append((str(name), written, custom.key_location(name, path), where, raw_text(text, where)))
    heap = _scalar(values.get("heapOptions"))
    if heap is not None:
        where = values.value_location("heapOptions", path)
        entries.append(
            ("KAFKA_HEAP_OPTS", heap, values.key_location("heapOptions", path), where, raw_text(text, where))
        )
    anchor = values.position("configurationOverrides") if "configurationOverrides" in values else (values.line, 1)
    config_set = compose.broker_config_set(path, f"{Path(path).name}:cp-kafka", image or _CHART_IMAGE, entries, anchor)
    overrides = values.get("configurationOverrides")
    if isinstance(overrides, Located):
        for key, value in overrides.items():
            written = _scalar(value)
            if written is None:
                continue
            where = overrides.value_location(key, path)
            setting = Setting(key, written.strip(), key, overrides.key_location(key, path), is_secret_key(key), where,
                              raw_text(text, where))  # fmt: skip
            config_set.add(setting)
    if "KAFKA_HEAP_OPTS" not in config_set.facts["jvm"]:
        config_set.facts["jvm"]["KAFKA_HEAP_OPTS"] = {"value": "-Xms512M -Xmx512M", "line": anchor[0]}
    brokers = _scalar(values.get("brokers"))
    config_set.facts["broker_count"] = (
        int(brokers) if brokers and brokers.isdigit() else (_CHART_BROKERS if brokers is None else None)
    )
    config_set.facts["kafka_defaults"] = True  # the Confluent image builds server.properties from the variables
    config_set.facts["kubernetes"] = True
    resources = values.get("resources")
    limits = resources.get("limits") if isinstance(resources, Located) else None
    if isinstance(limits, Located) and limits.get("memory") is not None:
        config_set.facts["memory_limit"] = {"value": str(limits["memory"]), "line": limits.position("memory")[0]}
    nested = values is not documents[0]  # under an umbrella's cp-kafka:
    config_set.facts["chart_values"] = {"chart": "cp-kafka", "version": None, "nested": nested,
                                        "identified": True, **chart_paths.written(values)}  # fmt: skip
    directive_syntax.apply_file_settings([config_set], found)
    return source, [config_set]
