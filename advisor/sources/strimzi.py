"""Strimzi custom resources (multi-document YAML): Kafka, KafkaNodePool, KafkaTopic, KafkaUser.

A `Kafka` resource's spec.kafka.config is one broker config set standing for every broker
of that cluster; the broker count comes from the cluster's node pools with the broker
role (or spec.kafka.replicas without node pools), the Kafka version from spec.kafka.version.
Each `KafkaTopic` is a topic config set with its partitions and replicas as facts. Keys
Strimzi manages itself are recorded as facts for the rule that reports them. Each
`KafkaUser` is an admin config set whose facts name its principal (`principals`) and the
quotas it sets (`quotas`, from spec.quotas: producerByteRate, consumerByteRate,
requestPercentage, controllerMutationRate — Strimzi's KafkaUserQuotas); a Kafka resource's
spec.kafka.quotas (the cluster-wide quotas plugin) is its `quotas`. Resources in one directory that name the same
cluster (metadata.name of the Kafka, the strimzi.io/cluster label of the others) are one
cluster, whichever file holds them; `link` sums the broker pools of a cluster across files.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from advisor import lazy_re
from advisor.analysis.units import to_count
from advisor.catalog import surfaces
from advisor.model.document import ConfigSet, Document, LoadError, Setting, SourceFile
from advisor.model.provenance import Location
from advisor.secrets import is_secret_key
from advisor.sources import directives as directive_syntax
from advisor.sources.repeated import repeated
from advisor.sources.spans import raw_text
from advisor.sources.structured import Located, LocatedList, read_yaml

FORMAT = "strimzi"
_API = lazy_re.compile(r"^apiVersion:\s*kafka\.strimzi\.io/", re.MULTILINE)
_XMX = lazy_re.compile(r"^\d+[kKmMgG]?$")
_USER_QUOTAS = ("producerByteRate", "consumerByteRate", "requestPercentage", "controllerMutationRate")


def sniff(path: Path, text: str) -> Any:
    if path.suffix not in (".yaml", ".yml") or "kafka.strimzi.io/" not in text or not _API.search(text):
        return None
    return True


def _get(mapping: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(mapping, Located):
            return None
        mapping = mapping.get(key)
    return mapping


def _text(mapping: Any, *keys: str) -> str | None:
    """A scalar field as text; None when absent or when the input put a map or list there."""
    value = _get(mapping, *keys)
    return value if isinstance(value, str) else None


def _cluster_of(resource: Located) -> str | None:
    return _text(resource, "metadata", "labels", "strimzi.io/cluster")


def _is_broker_pool(pool: Located) -> bool:
    roles = _get(pool, "spec", "roles")
    return isinstance(roles, list) and "broker" in roles


def link(document: Document) -> None:
    """A cluster with node pools has the brokers of its broker pools, in whichever file of its
    directory they are: that sum replaces the count its Kafka resource's file gave (its JVM
    options stay those of its own file, whose lines its findings point at)."""
    kafkas = {cs.cluster for cs in document.config_sets if cs.component == "broker" and cs.name.startswith("Kafka/")}
    by_name: dict[str, set[str | None]] = {}  # namespace/name → the Kafka resources' keys: no scan of all per topic
    for kafka in kafkas:
        by_name.setdefault((kafka or "").partition("#")[2], set()).add(kafka)

    def owner(key: str) -> str:
        return _owning_cluster(key, by_name.get(key.partition("#")[2], set()) | (kafkas & {key}))

    for config_set in document.config_sets:  # topics and users kept in a subfolder (topics/, users/)
        if config_set.cluster and config_set.name.startswith(("KafkaTopic/", "KafkaUser/")):
            config_set.cluster = owner(config_set.cluster)
    brokers: dict[str, int] = {}
    for source in document.files:
        for part in source.cluster_parts if source.format == FORMAT else []:
            owning = owner(part["cluster"])
            brokers[owning] = brokers.get(owning, 0) + part["broker_replicas"]
    for config_set in document.config_sets:
        if config_set.component == "broker" and config_set.cluster in brokers:
            config_set.facts["broker_count"] = brokers[config_set.cluster] or None


_METADATA_VERSION = lazy_re.compile(r"^(\d+\.\d+)-IV\d+$")


def _version_of(kafka: Located) -> tuple[str | None, str | None]:
    """spec.kafka.version, else the release spec.kafka.metadataVersion belongs to (3.8-IV0 → 3.8):
    the operator sets the metadata version of the release it runs, never a newer one."""
    if kafka.get("version"):
        return str(kafka["version"]), "spec.kafka.version"
    metadata = _METADATA_VERSION.match(str(kafka.get("metadataVersion") or ""))
    return (metadata.group(1), "spec.kafka.metadataVersion") if metadata else (None, None)


def _owning_cluster(key: str, kafkas: set[str | None]) -> str:
    """A resource's cluster key, or — when no Kafka resource has that key — the key of the Kafka
    resource of the same namespace and name in the nearest folder above its own (GitOps
    repositories keep `topics/` and `users/` below the cluster's folder)."""
    if key in kafkas:
        return key
    folder, _, rest = key.partition("#")
    # Folders above, nearest first: the first that holds such a Kafka resource is the nearest
    # (a lookup per level, not a scan of every same-named cluster in a large repository).
    for above in Path(folder).parents:
        if f"{above}#{rest}" in kafkas:
            return f"{above}#{rest}"
    return next((k for k in (f".#{rest}", f"#{rest}") if k in kafkas), key)


def _cluster_key(path: str, cluster: str | None, resource: Located) -> str:
    """Resources of one cluster are often kept one per file: those in the same directory and
    namespace that name the same cluster belong together; another directory (another
    environment) or namespace does not."""
    namespace = _get(resource, "metadata", "namespace")
    return f"{Path(path).parent}#{namespace}/{cluster}" if namespace else f"{Path(path).parent}#{cluster}"


def _bootstrap_endpoints(name: str, kafka: Located, resource: Located) -> list[str]:
    """The bootstrap service the operator creates for each listener (`<cluster>-kafka-bootstrap`),
    as clients in the cluster name it: short, or with its namespace."""
    listeners = kafka.get("listeners") if isinstance(kafka.get("listeners"), list) else []
    ports = [str(item["port"]) for item in listeners if isinstance(item, Located) and str(item.get("port")).isdigit()]
    namespace = _get(resource, "metadata", "namespace")
    hosts = [f"{name}-kafka-bootstrap"] + ([f"{name}-kafka-bootstrap.{namespace}"] if namespace else [])
    return [f"{host}:{port}" for host in hosts for port in ports]


# Listener types that reach beyond the Kubernetes cluster (internal and cluster-ip do not).
_EXTERNAL_TYPES = {"nodeport", "loadbalancer", "route", "ingress"}


def _listeners(kafka: Located, path: str) -> list[dict[str, Any]]:
    """spec.kafka.listeners as the security rules read them, each at its own line."""
    listeners = kafka.get("listeners")
    if not isinstance(listeners, list):
        return []
    spans = getattr(listeners, "spans", [])
    found = []
    for number, item in enumerate(listeners):
        if not isinstance(item, Located):
            continue
        authentication = item.get("authentication")
        kind = authentication.get("type") if isinstance(authentication, Located) else None
        line, column = (spans[number].line, spans[number].column) if number < len(spans) else (item.line, 1)
        found.append(
            {
                "name": str(item.get("name") or ""),
                "type": str(item.get("type") or "").lower(),
                "external": str(item.get("type") or "").lower() in _EXTERNAL_TYPES,
                "tls": str(item.get("tls")).lower() == "true",
                "authentication": str(kind) if kind else None,
                "line": line,
                "column": column,
            }
        )
    return found


def _jvm(options: Any) -> dict[str, dict[str, Any]]:
    """Strimzi's jvmOptions as the JVM entries the JVM rules read, each at its own line."""
    if not isinstance(options, Located):
        return {}
    entries = {}
    for name in ("-Xms", "-Xmx"):
        if isinstance(options.get(name), str) and _XMX.match(options[name]):
            entries[f"jvmOptions {name}"] = {"value": f"{name}{options[name]}", "line": options.position(name)[0]}
    xx = options.get("-XX")
    if isinstance(xx, Located):
        flags = [
            f"-XX:+{name}" if value == "true" else f"-XX:-{name}" if value == "false" else f"-XX:{name}={value}"
            for name, value in xx.items()
        ]
        entries["jvmOptions -XX"] = {"value": " ".join(flags), "line": options.position("-XX")[0]}
    return entries


def _drop_forbidden(config_set: ConfigSet) -> list[str]:
    """The keys of spec.kafka.config that the operator manages: it leaves them out of the
    brokers' configuration (KafkaClusterSpec's forbidden prefixes), so they are no settings of
    the brokers; KB109 names each where it is written (facts strimzi_forbidden_at)."""
    forbidden = [key for key in config_set.settings if surfaces.strimzi_forbidden(key)]
    config_set.facts["strimzi_forbidden_at"] = {key: config_set.settings.pop(key).location for key in forbidden}
    return forbidden


def _settings(config_set: ConfigSet, config: Any, path: str, text: str) -> None:
    if not isinstance(config, Located):
        return
    for key, span in config.duplicates:  # the reader kept the last; what the cluster gets is the tools'
        repeated(config_set, key, key, span.line, config.position(key)[0], later_wins=False)
    for key, value in config.items():
        written = ",".join(map(str, value)) if isinstance(value, LocatedList) else "" if value is None else str(value)
        value_location = config.value_location(key, path)
        config_set.add(
            Setting(
                key,
                written,
                key,
                config.key_location(key, path),
                is_secret_key(key),
                value_location,
                raw_text(text, value_location),
            )
        )


def _super_users(config_set: ConfigSet, kafka: Located, path: str) -> None:
    """spec.kafka.authorization.superUsers, which the operator writes as super.users (each name a
    User: principal), at the line of each entry."""
    authorization = kafka.get("authorization")
    users = authorization.get("superUsers") if isinstance(authorization, Located) else None
    if not isinstance(users, LocatedList) or not users:
        return
    principals = [name if str(name).startswith("User:") else f"User:{name}" for name in map(str, users)]
    line, column = users.positions[0]
    for name, (entry_line, entry_column) in zip(users, users.positions, strict=True):
        if str(name) in ("ANONYMOUS", "User:ANONYMOUS"):
            line, column = entry_line, entry_column  # the entry a finding is about
    where = Location(path, line, column)
    config_set.add(Setting("super.users", ";".join(principals), "authorization.superUsers", where, False, None, None))


def load(path: str, text: str, _payload: Any, options) -> tuple[SourceFile, list[ConfigSet]]:  # type: ignore[no-untyped-def]
    documents = [d for d in read_yaml(text, path) if isinstance(d, Located)]
    found = directive_syntax.in_hash_comments(text, path)
    source = SourceFile(path, text, FORMAT, found)
    pools: dict[str, list[Located]] = {}
    for resource in documents:
        if resource.get("kind") == "KafkaNodePool":
            pools.setdefault(_cluster_of(resource) or "", []).append(resource)
            replicas = (to_count(_get(resource, "spec", "replicas")) or 0) if _is_broker_pool(resource) else 0
            cluster = _cluster_key(path, _cluster_of(resource), resource)
            source.cluster_parts.append({"cluster": cluster, "broker_replicas": replicas})
    config_sets: list[ConfigSet] = []
    for resource in documents:
        kind, name = resource.get("kind"), _text(resource, "metadata", "name") or ""
        if kind == "Kafka":
            kafka = _get(resource, "spec", "kafka")
            if not isinstance(kafka, Located):
                raise LoadError(path, resource.line, "a Kafka resource needs spec.kafka")
            broker_pools = [p for p in pools.get(name, []) if _is_broker_pool(p)]
            anchor = kafka.position("config") if "config" in kafka else resource.get("spec").position("kafka")
            config_set = ConfigSet(
                component="broker",
                path=path,
                anchor=Location(path, *anchor),
                name=f"Kafka/{name}",
                kafka_version=_version_of(kafka)[0],
                kafka_version_from=_version_of(kafka)[1],
                cluster=_cluster_key(path, name, resource),
            )
            _settings(config_set, kafka.get("config"), path, text)
            jvm = _jvm(kafka.get("jvmOptions"))
            for pool in broker_pools:
                jvm = jvm or _jvm(_get(pool, "spec", "jvmOptions"))
            config_set.facts.update(
                {
                    "broker_count": to_count(kafka.get("replicas")) or None,  # node pools: see `link`
                    "rack_aware": isinstance(kafka.get("rack"), Located),
                    "jvm": jvm,
                    "strimzi_forbidden": _drop_forbidden(config_set),
                    "quotas": sorted(kafka["quotas"]) if isinstance(kafka.get("quotas"), Located) else [],
                    "endpoints": _bootstrap_endpoints(name, kafka, resource),
                    "listeners": _listeners(kafka, path),
                }
            )
            _super_users(config_set, kafka, path)  # the operator's own setting: not a forbidden key
            config_sets.append(config_set)
        elif kind == "KafkaUser":
            quotas = _get(resource, "spec", "quotas")
            config_sets.append(
                ConfigSet(
                    component="admin",
                    path=path,
                    anchor=Location(path, resource.line),
                    name=f"KafkaUser/{name}",
                    cluster=_cluster_key(path, _cluster_of(resource), resource),
                    facts={
                        "principals": [f"User:{name}"],
                        "quotas": sorted(k for k in quotas if k in _USER_QUOTAS) if isinstance(quotas, Located) else [],
                    },
                )
            )
        elif kind == "KafkaTopic":
            spec = _get(resource, "spec")
            if not isinstance(spec, Located):
                continue
            anchor = spec.position("config") if "config" in spec else resource.position("spec")
            config_set = ConfigSet(
                component="topic",
                path=path,
                anchor=Location(path, *anchor),
                name=f"KafkaTopic/{name}",
                cluster=_cluster_key(path, _cluster_of(resource), resource),
                facts={
                    "partitions": spec.get("partitions"),
                    "replicas": spec.get("replicas"),
                    "operator": "strimzi",
                    "topic_name": spec.get("topicName") if isinstance(spec.get("topicName"), str) else name,
                },
            )
            _settings(config_set, spec.get("config"), path, text)
            config_sets.append(config_set)
    directive_syntax.apply_file_settings(config_sets, found)
    return source, config_sets
