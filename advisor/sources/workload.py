"""Kubernetes workloads that run a broker: the containers of a StatefulSet, Deployment,
ReplicaSet, DaemonSet or Pod whose image is a broker's, that set a broker's own variables, or
whose command starts kafka-server-start. Each such container is a broker config set:

- `env:` entries read as the image reads them (advisor/sources/compose.py); a `valueFrom`
  (fieldRef, secretKeyRef, ...) is a value the manifest does not hold: a template, not judged;
- `--override key=value` options of a kafka-server-start command are the broker's settings;
- `replicas:` is the broker count of the workload (a Pod is one; a DaemonSet's is unknown);
- the container's memory limit is kept as a fact beside the JVM options.

The containers of one workload are one cluster; the release comes from the image tag.
"""

from __future__ import annotations

import re

from advisor import TYPE_CHECKING, lazy_re
from advisor.catalog import surfaces
from advisor.model.document import ConfigSet, Setting
from advisor.secrets import is_secret_key
from advisor.sources import compose, jvm_env
from advisor.sources.spans import LineIndex, Located, LocatedList, raw_text

if TYPE_CHECKING:
    from typing import Any

KINDS = frozenset({"StatefulSet", "Deployment", "ReplicaSet", "DaemonSet", "Pod"})
_OVERRIDE = lazy_re.compile(r"--override\s+(?P<key>[A-Za-z0-9_.-]+)=(?P<value>[^\s\\\"']*)")

Entry = compose.Entry


def _pod_spec(document: Located) -> Located | None:
    spec = document.get("spec")
    if not isinstance(spec, Located):
        return None
    if document.get("kind") == "Pod":
        return spec
    template = spec.get("template")
    pod = template.get("spec") if isinstance(template, Located) else None
    return pod if isinstance(pod, Located) else None


def _command(container: Located) -> str:
    parts = []
    for field in ("command", "args"):
        value = container.get(field)
        parts += [str(v) for v in value] if isinstance(value, list) else [str(value)] if value else []
    return " ".join(parts)


def _env(container: Located, path: str, text: str) -> list[Entry]:
    env = container.get("env")
    if not isinstance(env, LocatedList):
        return []
    entries: list[Entry] = []
    for item in env:
        if not isinstance(item, Located) or not isinstance(item.get("name"), str):
            continue
        name = item["name"]
        key = item.value_location("name", path) or item.key_location("name", path)
        if "valueFrom" in item:
            source = item["valueFrom"]
            kind = next(iter(source), "valueFrom") if isinstance(source, Located) else "valueFrom"
            entries.append((name, f"${{{kind}}}", key, None, None))  # no value written here
            continue
        where = item.value_location("value", path)
        value = item.get("value")
        entries.append((name, "" if value is None else str(value), key, where, raw_text(text, where)))
    return entries


def _is_broker(container: Located, entries: list[Entry], command: str) -> bool:
    variables = [entry[0] for entry in entries]
    if compose.sets_broker_variables(variables):
        return True
    if jvm_env.starts_broker(command):
        return True
    if compose.TOOL_COMMAND.search(command):
        return False
    return compose.broker_image(str(container.get("image") or ""))


_WORKLOAD_KIND = lazy_re.compile(r"^\s*kind:\s*[\"']?(?:StatefulSet|Deployment|ReplicaSet|DaemonSet|Pod)\b", re.M)
_LAUNCHER = lazy_re.compile(r"/docker/run\b|/opt/bitnami/scripts/kafka/(?:entrypoint|run)\.sh")


def _image_reads_env(container: Located, image: str, entries: list[Entry]) -> bool:
    """Do the env variables become broker settings? The image's launcher converts them (a broker
    image run as it is, or a command that execs that launcher); a command of one's own that
    starts kafka-server-start reads only the JVM's."""
    command = _command(container)
    if command and not _LAUNCHER.search(command):
        return False
    return compose.broker_image(image) or compose.sets_broker_variables([e[0] for e in entries])


def _overrides(container: Located, text: str, path: str, index: LineIndex) -> list[Setting]:
    """`--override key=value` in the container's command and args, at their place in the file:
    inside one string (`sh -c "... --override a=b --override c=d"`) or as two list items."""
    settings = []
    for field in ("command", "args"):
        node = container.get(field)
        if not isinstance(node, LocatedList):
            continue
        follows_flag = False
        for item, span in zip(node, node.spans, strict=True):
            if follows_flag and isinstance(item, str) and "=" in item:
                key, _, value = item.partition("=")
                quoted = text[span.offset : span.offset + 1] in ("'", '"')
                start = span.offset + quoted
                settings.append(
                    _setting(key, value, start, start + len(key) + 1, span.end_offset - quoted, path, index)
                )
            follows_flag = item == "--override"
            for match in _OVERRIDE.finditer(text, span.offset, span.end_offset):
                settings.append(
                    _setting(match["key"], match["value"], match.start("key"), match.start("value"), match.end(), path,
                             index)
                )  # fmt: skip
    return settings


def _setting(key: str, value: str, key_at: int, value_at: int, end: int, path: str, index: LineIndex) -> Setting:
    where = index.span(value_at, end).at(path)
    return Setting(key, value, key, index.span(key_at, key_at + len(key)).at(path), is_secret_key(key), where, value)


def _memory_limit(container: Located) -> dict[str, Any] | None:
    resources = container.get("resources")
    limits = resources.get("limits") if isinstance(resources, Located) else None
    if not isinstance(limits, Located) or limits.get("memory") is None:
        return None
    return {"value": str(limits["memory"]), "line": limits.position("memory")[0]}


def _broker_count(document: Located) -> int | None:
    if document.get("kind") == "Pod":
        return 1
    spec = document.get("spec")
    replicas = spec.get("replicas") if isinstance(spec, Located) else None
    if document.get("kind") == "DaemonSet":
        return None
    if replicas is None and isinstance(spec, Located):
        return 1  # Kubernetes' default for a StatefulSet, Deployment and ReplicaSet
    written = str(replicas).strip()
    return int(written) if written.isdigit() and len(written) < 7 else None  # a template ({{ }}) says no number


def brokers(documents: list[Any]) -> list[tuple[Located, Located]]:
    """(workload document, container) of every container that runs a broker."""
    found = []
    for document in documents:
        if (
            not isinstance(document, Located)
            or not isinstance(document.get("kind"), str)
            or document["kind"] not in KINDS
        ):
            continue
        pod = _pod_spec(document)
        containers = pod.get("containers") if pod is not None else None
        if not isinstance(containers, LocatedList):
            continue
        for container in containers:
            if isinstance(container, Located) and _is_broker(container, _env(container, "", ""), _command(container)):
                found.append((document, container))
    return found


def config_sets(found: list[tuple[Located, Located]], path: str, text: str) -> list[ConfigSet]:
    index = LineIndex(text)
    sets = []
    for document, container in found:
        metadata = document.get("metadata")
        workload = str(metadata.get("name") or "") if isinstance(metadata, Located) else ""
        name = f"{document['kind']}/{workload}/{container.get('name') or 'container'}"
        entries = _env(container, path, text)
        image = str(container.get("image") or "")
        if not _image_reads_env(container, image, entries):
            entries = [e for e in entries if e[0] in surfaces.JVM_VARIABLES]  # kafka-server-start reads only these
        anchor = container.position("env") if "env" in container else (container.line, 1)
        config_set = compose.broker_config_set(path, name, image, entries, anchor)
        for setting in _overrides(container, text, path, index):
            config_set.add(setting)
        if not compose.broker_image(image):  # another image's tag is its builder's version, not Kafka's
            config_set.kafka_version = config_set.kafka_version_from = None
        config_set.cluster = f"{path}#{document['kind']}/{workload}"
        # Only a set whose settings are here judges the cluster's defaults: one of JVM options
        # alone (its server.properties mounted from elsewhere) must not judge absent keys.
        config_set.facts["broker_count"] = _broker_count(document) if config_set.settings else None
        config_set.facts["memory_limit"] = _memory_limit(container)
        config_set.facts["kubernetes"] = True
        sets.append(config_set)
    return sets


def mentions_workload(text: str) -> bool:
    return "kind:" in text and _WORKLOAD_KIND.search(text) is not None
