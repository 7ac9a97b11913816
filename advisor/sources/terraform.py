"""Terraform files that declare Kafka: the Kafka provider's `kafka_topic` resources (topic config
sets: `partitions`, `replication_factor`, the `config` map) and AWS MSK's
`aws_msk_configuration` (a broker config set: the `server_properties` heredoc, line by line, and
the release from `kafka_versions`). An `aws_msk_cluster` in the same files that names the
configuration gives its `number_of_broker_nodes` as the broker count. A `helm_release` of
Bitnami's kafka chart (helm_release.py) makes the files it names chart values, and a literal
`version` pins their chart (`values = [file("${path.module}/values.yaml")]`, `templatefile(...)`):
helm.py reads them as that chart version's values, with the Kafka release it ships and the
values the release writes itself (inline YAML, `yamlencode({...})`, `set` entries) merged over
them. A release that names no file is judged here: the chart's defaults under what it writes.

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
from advisor.model.document import ConfigSet, Document, Problem, Setting, SourceFile
from advisor.model.provenance import Location
from advisor.named_tuple import NamedTuple
from advisor.secrets import is_secret_key
from advisor.sources import directives as directive_syntax
from advisor.sources import helm_release, limits
from advisor.sources.hcl_reader import Block, Value, read_hcl
from advisor.sources.spans import LineIndex, Located, raw_text

if TYPE_CHECKING:
    from typing import Any

FORMAT = "terraform"
_RESOURCES = lazy_re.compile(r"^\s*resource\s+\"(?:kafka_topic|aws_msk_configuration)\"", re.MULTILINE)
_HELM_RELEASE = lazy_re.compile(r"^\s*resource\s+\"helm_release\"", re.MULTILINE)
_KAFKA_CHART = lazy_re.compile(r"\bchart\s*=\s*\"(?:[^\"]*/)?kafka\"")
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


class Pin(NamedTuple):
    """What a Bitnami kafka helm_release says of a values file it names: the chart version it
    installs (None unless literal), where it is ("main.tf:12"), and the release itself (its .tf
    file and block), whose own values (inline, set entries) Helm merges over the file's."""

    chart_version: str | None
    where: str
    tf_path: str  # absolute
    tf_text: str
    block: Block

    def layers(self, shown: str) -> list[Any]:
        """The values the release writes itself, with spans in its .tf shown as `shown`."""
        return helm_release.release(self.block, shown, self.tf_text, origin=shown).layers


@cache
def values_named_in(folder: str) -> dict[str, Pin]:
    """Files the Bitnami kafka helm_releases of a folder's .tf files hand the chart (absolute
    paths) → their Pin: chart values whatever their name or keys, judged by that chart version
    (helm.py). A file two releases pin differently is left out."""
    named: dict[str, Pin] = {}
    disputed: set[str] = set()
    try:
        candidates = sorted(p for p in os.listdir(folder) if p.endswith(".tf"))
    except OSError:
        return {}
    for name in candidates:
        tf_path = os.path.join(folder, name)
        try:
            with open(tf_path, encoding="utf-8", errors="replace") as file:
                text = file.read(limits.current().file_bytes)
        except OSError:
            continue
        if not (_HELM_RELEASE.search(text) and _KAFKA_CHART.search(text)):
            continue
        try:
            blocks = read_hcl(text, tf_path)
        except Exception:  # noqa: BLE001 - a broken .tf file names nothing here; its own read reports it
            continue
        for block in _releases(blocks):
            found = helm_release.release(block, tf_path, text)
            pin = Pin(found.chart_version, f"{name}:{found.line}", tf_path, text, block)
            for values_file in found.files:
                if named.setdefault(values_file, pin).chart_version != pin.chart_version:
                    disputed.add(values_file)
    return {path: pin for path, pin in named.items() if path not in disputed}


def _releases(blocks: list[Block]) -> list[Block]:
    """The Bitnami kafka helm_release blocks."""
    return [b for b in blocks if b.kind == "resource" and b.labels[:1] == ["helm_release"] and
            helm_release.is_bitnami_kafka(b)]  # fmt: skip


def _release_config_sets(block: Block, path: str, text: str, source: SourceFile) -> list[ConfigSet]:
    """A release that names no values file: the chart's defaults under its inline values and
    set entries, judged in the .tf (its files' values are judged in them: helm.py)."""
    from advisor.sources import helm

    found = helm_release.release(block, path, text)
    source.notes.extend(found.unread)
    source.cluster_parts.append({"helm_release": found.name, "line": found.line, "files": found.files})
    if found.files or found.unread:  # judged in its files; or partly computed: its values are not known
        return []
    base = Located()
    base.line = found.line
    values = helm_release.merged(base, found.layers, None)
    named_chart = helm.chart_release(found.chart_version) if found.chart_version else None
    where = f"helm_release at {Path(path).name}:{found.line}"
    files = helm.Files({path: (text, source.lines)})
    config_sets = helm.chart_config_sets(values, path, files, named_chart, where, pinned=True,
                                         name=f"helm_release/{found.name}")  # fmt: skip
    return config_sets


def link(document: Document) -> None:
    """A values file a Bitnami kafka helm_release names is judged in itself (helm.py): one this
    run did not read is said, so that the release is never passed over in silence."""
    read = {os.path.abspath(p) for p in [*(s.path for s in document.files), *(e.path for e in document.errors)]}
    for source in document.files:
        for part in source.cluster_parts if source.format == FORMAT else []:
            for file in part["files"]:
                if file in read:
                    continue
                shown = os.path.relpath(file, os.path.dirname(os.path.abspath(source.path)))
                why = ("is not among the files checked (name it too, or their folder)" if os.path.isfile(file)
                       else "does not exist")  # fmt: skip
                release = f"helm_release.{part['helm_release']}"
                message = f"{release} hands the chart {shown}, which {why}: its values are not judged"
                document.notes.append(Problem(source.path, part["line"], message, "skipped", kafka=True))


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
    for block in _releases(blocks):
        config_sets += _release_config_sets(block, path, text, source)
    directive_syntax.apply_file_settings(config_sets, found)
    return source, config_sets
