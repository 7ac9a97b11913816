"""Kubernetes manifests: ConfigMaps that carry Kafka `.properties` files in `data:`
(server.properties, client.properties mounted into a pod), each entry read as the properties
file it becomes, its lines mapped into the YAML file; and the workloads whose containers run a
broker (advisor/sources/workload.py). One reader for both: they share files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from advisor.model.document import ConfigSet, LoadError, SourceFile
from advisor.model.provenance import Location
from advisor.sources import directives as directive_syntax
from advisor.sources import helm, properties, properties_syntax, workload
from advisor.sources.spans import LineIndex
from advisor.sources.structured import Located, read_yaml

FORMAT = "configmap"


def _entries(documents: list[Any]) -> list[tuple[str, Located, str]]:
    """(ConfigMap name, its data mapping, the data key) of each `*.properties` entry that holds
    a Kafka key."""
    found = []
    for document in documents:
        if not isinstance(document, Located) or document.get("kind") != "ConfigMap":
            continue
        data = document.get("data")
        metadata = document.get("metadata")
        name = str(metadata.get("name") or "") if isinstance(metadata, Located) else ""
        if not isinstance(data, Located):
            continue
        for key, text in data.items():
            if not str(key).endswith(".properties") or not isinstance(text, str):
                continue
            try:
                entries, _ = properties_syntax.parse(text, key)
            except LoadError:
                continue
            if any(properties.kafka_key(entry.key) for entry in entries):
                found.append((name, data, str(key)))
    return found


def sniff(path: Path, text: str) -> Any:
    if path.suffix not in (".yaml", ".yml"):
        return None
    maps = "ConfigMap" in text and ".properties" in text
    if not maps and not workload.mentions_workload(text):
        return None
    try:
        documents = read_yaml(text, str(path))
    except LoadError:
        return None
    entries = _entries(documents) if maps else []
    brokers = workload.brokers(documents)
    return (entries, brokers) if entries or brokers else None


def load(path: str, text: str, payload: Any, options) -> tuple[SourceFile, list[ConfigSet]]:  # type: ignore[no-untyped-def]
    entries, brokers = payload
    found = directive_syntax.in_hash_comments(text, path)
    source = SourceFile(path, text, FORMAT, found)
    index = LineIndex(text)
    config_sets: list[ConfigSet] = workload.config_sets(brokers, path, text)
    for name, data, key in entries:
        parsed, _ = properties_syntax.parse(data[key], path)
        line = data.position(key)[0]
        stated = options.component or directive_syntax.setting(found, "as") or properties.component_from_name(key)
        components = (stated,) if stated else properties.components_from_keys([e.key for e in parsed], path, line)
        for component in components:
            label = f":{component}" if len(components) > 1 else ""
            config_set = ConfigSet(
                component=component,
                path=path,
                anchor=Location(path, line),
                name=f"ConfigMap/{name}/{key}{label}",
                client="java" if component in ("broker", "topic") else options.client or "java",
            )
            helm.properties_text(config_set, data, key, path, source.lines, index)
            if len(components) > 1:
                config_set.facts["shared_roles"] = list(components)
            config_sets.append(config_set)
    directive_syntax.apply_file_settings(config_sets, found)
    return source, config_sets
