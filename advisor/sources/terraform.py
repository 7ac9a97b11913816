"""Terraform files that declare Kafka: the Kafka provider's `kafka_topic` resources (topic config
sets: `partitions`, `replication_factor`, the `config` map) and AWS MSK's
`aws_msk_configuration` (a broker config set: the `server_properties` heredoc, line by line, and
the release from `kafka_versions`). An `aws_msk_cluster` in the same files that names the
configuration gives its `number_of_broker_nodes` as the broker count. A `helm_release` of
Bitnami's kafka chart makes the files it names chart values, and a literal `version` pins their chart
(`values = [file("${path.module}/values.yaml")]`, `templatefile(...)`): helm.py reads them as
that chart version's values, with the Kafka release it ships.

MSK chooses its own defaults for what the properties leave out (they are not Kafka's), so an MSK
configuration is judged on what it writes only. A value Terraform computes (`var.x`,
`"${local.y}"`) is not in the file: a template, not judged.
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

from advisor import TYPE_CHECKING, lazy_re
from advisor.model.document import ConfigSet, Setting, SourceFile
from advisor.model.provenance import Location
from advisor.secrets import is_secret_key
from advisor.sources import directives as directive_syntax
from advisor.sources import limits
from advisor.sources.hcl_reader import Block, Value, read_hcl
from advisor.sources.spans import LineIndex, raw_text

if TYPE_CHECKING:
    from typing import Any

FORMAT = "terraform"
_RESOURCES = lazy_re.compile(r"^\s*resource\s+\"(?:kafka_topic|aws_msk_configuration)\"", re.MULTILINE)
_HELM_RELEASE = lazy_re.compile(r"^\s*resource\s+\"helm_release\"", re.MULTILINE)
_KAFKA_CHART = lazy_re.compile(r"\bchart\s*=\s*\"(?:[^\"]*/)?kafka\"")
# file("${path.module}/values.yaml"), templatefile("values/kafka.yaml", {...}): the file, from the module's folder
_VALUES_FILE = lazy_re.compile(
    r"\b(?:file|templatefile)\(\s*\"(?:\$\{path\.(?:module|root|cwd)\}/)?(?P<file>[^\"$]+)\""
)
_CONFIGURATION_ARN = lazy_re.compile(r"aws_msk_configuration\.([\w-]+)\.arn")


def sniff(path: Path, text: str) -> Any:
    if path.suffix != ".tf":
        return None
    return True if _RESOURCES.search(text) or (_HELM_RELEASE.search(text) and _KAFKA_CHART.search(text)) else None


def _text(value: Value | None) -> str | None:
    """A literal as text; an expression as a template (not judged); None when absent."""
    if value is None:
        return None
    if value.expression:
        return "${" + str(value.value) + "}"
    if isinstance(value.value, bool):
        return "true" if value.value else "false"
    return str(value.value) if not isinstance(value.value, (list, dict)) else None


def _topic(block: Block, path: str, text: str) -> ConfigSet:
    name = _text(block.attributes.get("name")) or (block.labels[1] if len(block.labels) > 1 else "topic")
    config = block.attributes.get("config")
    facts = {
        "partitions": _text(block.attributes.get("partitions")),
        "replicas": _text(block.attributes.get("replication_factor")),
        "operator": "terraform",
    }
    config_set = ConfigSet(
        component="topic",
        path=path,
        anchor=Location(path, block.span.line, block.span.column),
        name=f"kafka_topic/{name}",
        facts=facts,
    )
    if config is not None and isinstance(config.value, dict):
        for key, item in config.value.items():
            value = _text(item)
            if value is None or item.key_span is None:
                continue
            where = item.span.at(path)
            raw = raw_text(text, where)
            config_set.add(Setting(key, value, key, item.key_span.at(path), is_secret_key(key), where, raw))
    return config_set


_PROPERTY = lazy_re.compile(r"^(?P<indent>[ \t]*)(?P<key>[^\s=:#!][^\s=:]*)[ \t]*[=:][ \t]*(?P<value>.*?)[ \t]*$")


def _msk(block: Block, path: str, index: LineIndex, text: str) -> ConfigSet:
    name = _text(block.attributes.get("name")) or (block.labels[1] if len(block.labels) > 1 else "configuration")
    versions = block.attributes.get("kafka_versions")
    first = None
    if versions is not None and isinstance(versions.value, list) and versions.value:
        first = _text(versions.value[0])
    config_set = ConfigSet(
        component="broker",
        path=path,
        anchor=Location(path, block.span.line, block.span.column),
        name=f"aws_msk_configuration/{name}",
        kafka_version=first if first and not first.startswith("${") else None,
        kafka_version_from="kafka_versions" if first and not first.startswith("${") else None,
        facts={"platform": "msk", "defaults_unknown": True},
    )
    properties = block.attributes.get("server_properties")
    if properties is None or properties.expression or not isinstance(properties.value, str):
        return config_set
    offset = properties.span.offset + (1 if text[properties.span.offset : properties.span.offset + 1] == '"' else 0)
    for line in properties.value.splitlines(keepends=True):
        match = _PROPERTY.match(line.rstrip("\r\n"))
        if match and not line.lstrip().startswith(("#", "!")):
            key_at, value_at = offset + match.start("key"), offset + match.start("value")
            key_where = index.span(key_at, key_at + len(match["key"])).at(path)
            value_where = index.span(value_at, value_at + len(match["value"])).at(path)
            key, value = match["key"], match["value"]
            config_set.add(Setting(key, value, key, key_where, is_secret_key(key), value_where, value))
        offset += len(line)
    return config_set


def _broker_counts(blocks: list[Block]) -> dict[str, int]:
    """configuration resource name → number_of_broker_nodes of the MSK cluster that uses it."""
    counts: dict[str, int] = {}
    for block in blocks:
        if block.kind != "resource" or block.labels[:1] != ["aws_msk_cluster"]:
            continue
        nodes = _text(block.attributes.get("number_of_broker_nodes"))
        for inner in block.blocks:
            arn = _text(inner.attributes.get("arn")) if inner.kind == "configuration_info" else None
            reference = _CONFIGURATION_ARN.search(arn or "")
            if reference and nodes and nodes.isdigit():
                counts[reference.group(1)] = int(nodes)
    return counts


def _bitnami_kafka(block: Block) -> bool:
    chart = _text(block.attributes.get("chart")) or ""
    repository = _text(block.attributes.get("repository")) or ""
    return chart.endswith(("bitnamicharts/kafka", "bitnami/kafka")) or (chart == "kafka" and "bitnami" in repository)


def _chart_pin(block: Block, path: str) -> dict[str, Any] | None:
    """A Bitnami kafka helm_release: its chart version (None unless literal) and the values files
    it hands the chart (absolute paths)."""
    version = block.attributes.get("version")
    values = block.attributes.get("values")
    if not _bitnami_kafka(block) or values is None:
        return None
    items = values.value if isinstance(values.value, list) else [values]
    folder = os.path.dirname(os.path.abspath(path))
    found = (m["file"] for item in items for m in _VALUES_FILE.finditer(str(item.value)))
    named = [os.path.normpath(os.path.join(folder, file)) for file in found]
    if not named:
        return None
    where = f"{Path(path).name}:{block.span.line}"
    literal = version is not None and not version.expression
    return {"chart_version": str(version.value) if literal else None, "values": named, "where": where}  # type: ignore[union-attr]


@cache
def values_named_in(folder: str) -> dict[str, tuple[str | None, str]]:
    """Files the Bitnami kafka helm_releases of a folder's .tf files hand the chart (absolute
    paths) → (chart version, "file.tf:line"): chart values whatever their name or keys, judged by
    that chart version (helm.py). A file two releases pin differently is left out."""
    named: dict[str, tuple[str | None, str]] = {}
    disputed: set[str] = set()
    try:
        candidates = sorted(p for p in os.listdir(folder) if p.endswith(".tf"))
    except OSError:
        return {}
    for name in candidates:
        try:
            with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as file:
                text = file.read(limits.current().file_bytes)
        except OSError:
            continue
        if not (_HELM_RELEASE.search(text) and _KAFKA_CHART.search(text)):
            continue
        try:
            blocks = read_hcl(text, os.path.join(folder, name))
        except Exception:  # noqa: BLE001 - a broken .tf file names nothing here; its own read reports it
            continue
        for block in blocks:
            if block.kind == "resource" and block.labels[:1] == ["helm_release"]:
                pin = _chart_pin(block, os.path.join(folder, name))
                for values_file in pin["values"] if pin else ():
                    if named.setdefault(values_file, (pin["chart_version"], pin["where"]))[0] != pin["chart_version"]:  # type: ignore[index]
                        disputed.add(values_file)
    return {path: pin for path, pin in named.items() if path not in disputed}


def load(path: str, text: str, _payload: Any, options) -> tuple[SourceFile, list[ConfigSet]]:  # type: ignore[no-untyped-def]
    found = directive_syntax.in_hash_comments(text, path)
    source = SourceFile(path, text, FORMAT, found)
    blocks = read_hcl(text, path)
    index = LineIndex(text)
    counts = _broker_counts(blocks)
    config_sets = []
    for block in blocks:
        if block.kind != "resource" or len(block.labels) < 2:
            continue
        if block.labels[0] == "kafka_topic":
            config_sets.append(_topic(block, path, text))
        elif block.labels[0] == "aws_msk_configuration":
            config_set = _msk(block, path, index, text)
            config_set.facts["broker_count"] = counts.get(block.labels[1])
            config_sets.append(config_set)
    directive_syntax.apply_file_settings(config_sets, found)
    return source, config_sets
