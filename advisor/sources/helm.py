"""Helm values for the Bitnami Kafka chart (KRaft layout), also nested as a subchart (`kafka:`).

What is read, as the chart's own values.yaml documents it:
- `config` / `extraConfig` (top level and per role): server.properties text, the generated
  file replaced / appended to; parsed as .properties with lines mapped into the YAML file;
- `extraEnvVars` (list of name/value, the image's KAFKA_CFG_* convention);
- `heapOpts` (JVM heap) and `image.tag` (Kafka version);
- broker count: `controller.replicaCount` (default 3) when `controller.controllerOnly` is
  false (the default: controller+broker nodes), plus `broker.replicaCount` (default 0).
The values form one broker config set standing for the release's brokers.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from advisor.catalog import surfaces
from advisor.model.document import ConfigSet, Location, Setting, SourceFile
from advisor.secrets import is_secret_key
from advisor.sources import directives as directive_syntax
from advisor.sources import properties_syntax
from advisor.sources.spans import LineIndex, raw_text
from advisor.sources.structured import Located, LocatedList, read_yaml

FORMAT = "helm"
_NAME = re.compile(r"^values[\w.-]*\.ya?ml$")
_CHART_KEYS = {"controller", "broker", "extraConfig", "heapOpts", "listeners", "kraft"}
_TAG_VERSION = re.compile(r"^(\d+\.\d+(?:\.\d+)?)")


# Keys of the Bitnami Kafka chart's values that other charts and apps rarely have: two of them
# (or a kafka image with one) make a YAML file chart values whatever its name; a values*.yaml
# needs only one of the chart's keys.
_DISTINCT = {"controller", "broker", "kraft", "extraConfig", "heapOpts", "overrideConfiguration", "provisioning",
             "externalAccess", "zookeeper", "sasl"}  # fmt: skip


def _shape(values: Located, named: bool) -> bool:
    keys = set(values)
    if named:
        return bool(_CHART_KEYS & keys)
    image = values.get("image")
    kafka_image = isinstance(image, Located) and "kafka" in str(image.get("repository") or "")
    return len(_DISTINCT & keys) >= (1 if kafka_image else 2)


def _chart_values(data: Any, named: bool = True) -> Located | None:
    if not isinstance(data, Located):
        return None
    nested = data.get("kafka")
    if isinstance(nested, Located) and _shape(nested, named):
        return nested  # the chart used as a subchart named kafka
    return data if _shape(data, named) else None


def sniff(path: Path, text: str) -> Any:
    named = bool(_NAME.match(path.name))  # values*.yaml: the name is a hint, the shape still decides
    if path.suffix not in (".yaml", ".yml") or not (named or any(f"{key}:" in text for key in _DISTINCT)):
        return None
    try:
        documents = read_yaml(text, str(path))
    except Exception:  # noqa: BLE001 - a broken values file is reported by load()
        return None
    values = _chart_values(documents[0], named) if documents else None
    return values


def _int(value: Any, default: int) -> int:
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return default


def _place(path: str, index: LineIndex, line: int, column: int, end_column: int) -> Location:
    """A span on one line of the YAML file, with its offsets."""
    start = index.starts[line - 1] if line <= len(index.starts) else None
    offsets = (start + column - 1, start + end_column - 1) if start is not None else (None, None)
    return Location(path, line, column, line, end_column, *offsets)


def _properties_text(
    config_set: ConfigSet, section: Located, key: str, path: str, lines: list[str], index: LineIndex
) -> None:
    """`config`/`extraConfig` text: each entry keeps its line and columns in the YAML file."""
    text = section.get(key)
    if not isinstance(text, str) or not text.strip():
        return
    value_span = section.value_spans.get(key)
    block = "\n" in text
    offset = section.position(key)[0] if block else section.position(key)[0] - 1  # a block starts a line later
    if block:  # the block's indentation, which YAML took away from every line of it
        content = next((lines[n] for n in range(offset, len(lines)) if lines[n].strip()), "")
        shift = len(content) - len(content.lstrip())
    elif value_span is not None and offset < len(lines):  # a one-line scalar: after its opening quote, if any
        quote = lines[offset][value_span.column - 1 : value_span.column]
        shift = value_span.column - 1 + (quote in ("'", '"'))
    else:
        shift = 0
    entries, _ = properties_syntax.parse(text, path)
    for entry in entries:
        line = offset + entry.line
        key_span, span = entry.key_span, entry.value_span
        where = _place(path, index, line, shift + entry.column, shift + key_span.end_column) if key_span else None
        value_where = None
        if span is not None and span.line == span.end_line:  # a continued value: no exact span in YAML
            value_where = _place(path, index, line, shift + span.column, shift + span.end_column)
        secret = is_secret_key(entry.key)
        where = where or Location(path, line)
        config_set.add(Setting(entry.key, entry.value, entry.key, where, secret, value_where, entry.raw_value))


def _env(config_set: ConfigSet, section: Located, path: str, text: str) -> None:
    variables = section.get("extraEnvVars")
    if not isinstance(variables, LocatedList):
        return
    for item, (line, column) in zip(variables, variables.positions, strict=True):
        if isinstance(item, Located) and isinstance(item.get("name"), str):
            key = surfaces.env_to_property("bitnami", item["name"])
            if key:
                value = "" if item.get("value") is None else str(item["value"])
                where = item.value_location("value", path)
                config_set.add(
                    Setting(
                        key,
                        value,
                        item["name"],
                        Location(path, line, column),
                        is_secret_key(key),
                        where,
                        raw_text(text, where),
                    )
                )


def load(path: str, text: str, values: Located, options) -> tuple[SourceFile, list[ConfigSet]]:  # type: ignore[no-untyped-def]
    found = directive_syntax.in_hash_comments(text, path)
    source = SourceFile(path, text, FORMAT, found)
    index = LineIndex(text)
    controller = values.get("controller") if isinstance(values.get("controller"), Located) else Located()
    broker = values.get("broker") if isinstance(values.get("broker"), Located) else Located()
    combined = str(controller.get("controllerOnly", "false")).lower() != "true"
    brokers = (_int(controller.get("replicaCount"), 3) if combined else 0) + _int(broker.get("replicaCount"), 0)
    image = values.get("image")
    tag = str(image.get("tag") or "") if isinstance(image, Located) else ""
    version = _TAG_VERSION.match(tag)
    # Findings about absent keys point where broker configuration is written.
    anchors = [s.position(k)[0] for s in (values, controller, broker) for k in ("extraConfig", "config") if k in s]
    config_set = ConfigSet(
        component="broker",
        path=path,
        anchor=Location(path, min(anchors) if anchors else values.line),
        name=f"helm:{Path(path).name}",
        kafka_version=version.group(1) if version else None,
        kafka_version_from=f"image.tag {tag}" if version else None,
        cluster=path,
    )
    jvm: dict[str, dict[str, Any]] = {}
    for section, label in ((values, ""), (controller, "controller."), (broker, "broker.")):
        for key in ("config", "extraConfig"):
            _properties_text(config_set, section, key, path, source.lines, index)
        _env(config_set, section, path, text)
        if isinstance(section.get("heapOpts"), str):
            jvm[f"{label}heapOpts"] = {"value": section["heapOpts"], "line": section.position("heapOpts")[0]}
    config_set.facts.update({"broker_count": brokers or None, "jvm": jvm})
    directive_syntax.apply_file_settings([config_set], found)
    return source, [config_set]
