"""docker-compose files and .env files: Kafka brokers configured through environment variables.

Each broker service is a config set — one that sets a broker's own variables (KAFKA_NODE_ID,
KAFKA_PROCESS_ROLES, KAFKA_LISTENERS, KAFKA_ZOOKEEPER_CONNECT, ...), whatever its image, or that
runs a broker image as it is (not with a command of its own: an init container is a tool);
the brokers of one compose file form one cluster, unless they name separate quorums or
ZooKeeper ensembles (a replication demo's two clusters). Variables become properties by the
image's convention (advisor.catalog.surfaces): apache/kafka and Confluent `KAFKA_*`,
Bitnami `KAFKA_CFG_*`. JVM variables (KAFKA_HEAP_OPTS, KAFKA_JVM_PERFORMANCE_OPTS,
KAFKA_OPTS) are kept as facts for the JVM rules. The Kafka version comes from the image
tag when the tag names one. As compose does, the project's `.env` interpolates `${VAR}` and each
service's `env_file:` adds variables below its `environment:` (docs/detection.md).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from advisor import TYPE_CHECKING, lazy_re
from advisor.catalog import surfaces
from advisor.model.document import ConfigSet, LoadError, Problem, Setting, SourceFile
from advisor.model.provenance import Location
from advisor.secrets import is_secret_key
from advisor.sources import beside, compose_ports, endpoints
from advisor.sources import directives as directive_syntax
from advisor.sources.spans import LineIndex, raw_text
from advisor.sources.structured import Located, LocatedList, read_yaml

if TYPE_CHECKING:
    from typing import Any

FORMAT = "compose"
_COMPOSE_NAME = lazy_re.compile(r"^(docker-)?compose([.-].*)?\.ya?ml$")
_SERVICES = lazy_re.compile(r"^services:\s*$", re.MULTILINE)
# A tag's version: `3.9.0`, `v3.9`, `3.7.0-debian-12-r0`; wurstmeister's `<scala>-<kafka>` tags
# (`2.13-2.8.1`) name the Scala build first, the Kafka release second.
_TAG_VERSION = lazy_re.compile(r":v?(?:\d+\.\d+-(?=\d+\.\d+))?(\d+\.\d+(?:\.\d+)?)")
# Confluent Platform line → the Apache Kafka release it ships (Confluent's "Supported Versions and
# Interoperability" table): 4.0/4.1 → 1.0/1.1, 5.N → 2.N, 6.0/6.1/6.2 → 2.6/2.7/2.8, 7.N → 3.N, 8.N → 4.N.
_CONFLUENT = {(4, 0): "1.0", (4, 1): "1.1", (6, 0): "2.6", (6, 1): "2.7", (6, 2): "2.8"}


_KAFKA_DEFAULT_IMAGES = ("apache/kafka", "confluentinc/")


def _image_family(image: str, variables: list[str]) -> str:
    if "bitnami/" in image or any(v.startswith("KAFKA_CFG_") for v in variables):
        return "bitnami"
    if "confluentinc/" in image:
        return "confluent"
    return "apache"


def _kafka_version(image: str) -> str | None:
    """Apache Kafka version named by an image tag; a Confluent Platform tag names its CP line,
    mapped to the Kafka release it ships (_CONFLUENT); none for `latest` or a template."""
    match = _TAG_VERSION.search(image.rsplit("/", 1)[-1])
    if not match:
        return None
    version = match.group(1)
    if "confluentinc/" not in image:
        return version
    major, minor = (int(p) for p in version.split(".")[:2])
    if (major, minor) in _CONFLUENT:
        return _CONFLUENT[(major, minor)]
    if major == 5:
        return f"2.{minor}"
    return f"{major - 4}.{minor}" if major in (7, 8) else None


# (variable, value, where the variable is written, where its value is, the value as written)
Entry = tuple[str, str, Location, "Location | None", "str | None"]


def _environment(service: Located, path: str, text: str) -> list[Entry]:
    env = service.get("environment")
    if isinstance(env, Located):
        entries: list[Entry] = []
        for name, value in env.items():
            where = env.value_location(name, path)
            entries.append((name, "" if value is None else str(value), env.key_location(name, path), where,
                            raw_text(text, where)))  # fmt: skip
        return entries
    if isinstance(env, LocatedList):
        index = LineIndex(text)
        entries = []
        for item, span in zip(env, env.spans, strict=True):
            name, _, value = str(item).partition("=")
            # `- KEY=value` or `- "KEY=value"`: the value starts after the `=` inside the item.
            quoted = text[span.offset : span.offset + 1] in ("'", '"')
            start = span.offset + quoted + len(name) + 1
            end = span.end_offset - quoted
            where = index.span(start, end).at(path) if start <= end and "=" in str(item) else None
            key = index.span(span.offset + quoted, span.offset + quoted + len(name)).at(path)
            entries.append((name, value, key, where, raw_text(text, where)))
        return entries
    if env is not None:
        raise LoadError(
            path, service.position("environment")[0], "environment must be a mapping or a list of KEY=VALUE"
        )
    return []


# Broker images by repository name (apache/kafka, apache/kafka-native, bitnami/kafka,
# confluentinc/cp-kafka, cp-server, ...); not kafka-ui, cp-kafka-connect, kafka-exporter.
_BROKER_IMAGES = {"kafka", "kafka-native", "cp-kafka", "cp-server"}


# Variables that configure a broker itself (KAFKA_X → x, Bitnami's KAFKA_CFG_X → x): a service
# that sets one runs a broker, whatever its image (`${KAFKA_IMAGE}`, a custom build).
BROKER_VARIABLES = frozenset(
    f"KAFKA_{cfg}{name}"
    for cfg in ("", "CFG_")
    for name in ("NODE_ID", "BROKER_ID", "PROCESS_ROLES", "LISTENERS", "ADVERTISED_LISTENERS", "ZOOKEEPER_CONNECT",
                 "CONTROLLER_QUORUM_VOTERS", "CONTROLLER_QUORUM_BOOTSTRAP_SERVERS", "LOG_DIRS")
)  # fmt: skip


def _variables(service: Located) -> list[str]:
    env = service.get("environment")
    if isinstance(env, Located):
        return list(env)
    if isinstance(env, LocatedList):
        return [str(item).partition("=")[0] for item in env]
    return []


def _is_kafka(name: str, service: Any) -> bool:
    """A broker service: it sets a broker's own variables, or runs a broker image as it is — the
    same image with a command or entrypoint of its own is a tool (an init container creating
    topics), and `x-` entries are compose extensions, not services."""
    if not isinstance(service, Located) or str(name).startswith("x-"):
        return False
    variables = _variables(service)
    if any(v in BROKER_VARIABLES for v in variables):
        return True
    own_command = "command" in service or "entrypoint" in service
    if any(v.startswith("KAFKA_CFG_") for v in variables) and not own_command:
        return True
    return broker_image(str(service.get("image") or "")) and not own_command


# A CLI tool, Connect or another JVM started in place of the broker (a Dockerfile's CMD, a
# Kubernetes container's command): the image is then a tool's, not a broker's.
TOOL_COMMAND = lazy_re.compile(
    r"kafka-(?:topics|configs|console-\w+|acls|consumer-groups|reassign-partitions|producer-perf-test)"
    r"|connect-(?:distributed|standalone)|kafka-mirror-maker|schema-registry|ksql|zookeeper-server-start"
)


def sets_broker_variables(variables: list[str]) -> bool:
    """A broker's own variables (KAFKA_NODE_ID, ...) or Bitnami's KAFKA_CFG_*: whatever the image, a broker."""
    return any(v in BROKER_VARIABLES or v.startswith("KAFKA_CFG_") for v in variables)


def broker_image(image: str) -> bool:
    """A broker image by its repository's name, whatever the registry or tag."""
    return image.lower().split("@")[0].rsplit("/", 1)[-1].split(":")[0] in _BROKER_IMAGES


def _shown(compose: Path, written: str) -> str:
    """An included file's path as findings name it: beside the compose file's own path."""
    return os.path.normpath(compose.parent / written)


def sniff(path: Path, text: str) -> Any:
    if path.suffix in (".env",) or path.name == ".env":
        # A broker's environment file sets a broker's own variables or its JVM's (KAFKA_HEAP_OPTS);
        # one that only holds compose variables (KAFKA_IMAGE_TAG=3.9.0, KAFKA_PORT=9092) configures
        # no broker.
        names = re.findall(r"^\s*(?:export\s+)?(KAFKA_\w+)=", text, re.MULTILINE)
        broker = any(n in BROKER_VARIABLES or n.startswith("KAFKA_CFG_") or n in surfaces.JVM_VARIABLES for n in names)
        return ("env", None) if broker else None
    if path.suffix not in (".yml", ".yaml"):
        return None
    if not _COMPOSE_NAME.match(path.name) and not ("services:" in text and _SERVICES.search(text)):
        return None
    try:
        documents = read_yaml(text, str(path))
    except LoadError:
        return ("error", None) if _COMPOSE_NAME.match(path.name) else None
    data = documents[0] if documents else None
    if not isinstance(data, Located) or not isinstance(data.get("services"), Located):
        return None
    if not any(_is_kafka(name, s) for name, s in data["services"].items()):
        return None
    return ("compose", data)


def _env_entries(path: str, text: str) -> list[Entry]:
    """KEY=value lines of an environment file (`export ` allowed, quotes taken off), with spans."""
    entries: list[Entry] = []
    index = LineIndex(text)
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#") and "=" in stripped:
            name, _, value = stripped.removeprefix("export ").partition("=")
            name = name.strip()
            key_at = line.index(name) if name else 0
            value_at = line.index("=", key_at) + 1
            written = line[value_at:].rstrip()
            base = index.starts[number - 1]
            key = index.span(base + key_at, base + key_at + len(name)).at(path)
            where = index.span(base + value_at, base + value_at + len(written)).at(path)
            entries.append((name, value.strip().strip("'\""), key, where, written))
    return entries


# Compose interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:+alt}, ${VAR+alt},
# ${VAR:?error}, ${VAR?error}, $VAR, and $$ for a literal dollar.
_INTERPOLATION = lazy_re.compile(
    r"\$(?:\{(?P<braced>[A-Za-z_]\w*)(?:(?P<op>:?[-+?])(?P<arg>[^}]*))?\}|(?P<bare>[A-Za-z_]\w*)|(?P<dollar>\$))"
)


def interpolate(value: str, variables: dict[str, str]) -> str:
    """`value` as compose substitutes it from the project's `.env`. A variable that file does
    not set and that has no default stays written as it is (the shell that runs compose may set
    it; the value is then a template no rule judges)."""
    if "$" not in value:
        return value

    def substitute(match: re.Match[str]) -> str:
        if match["dollar"]:
            return "$"
        name = match["braced"] or match["bare"]
        op, argument = match["op"], match["arg"] or ""
        present = name in variables
        current = variables.get(name, "")
        if op in (":-", "-"):
            use_default = not present or (op == ":-" and current == "")
            return argument if use_default else current
        if op in (":+", "+"):
            chosen = present and (op == "+" or current != "")
            return argument if chosen else ""
        return current if present else match.group(0)

    return _INTERPOLATION.sub(substitute, value)


def _env_files(service: Located) -> list[tuple[str, bool, int]]:
    """(path as written, required, line) of each `env_file:` entry."""
    written = service.get("env_file")
    line = service.position("env_file")[0] if "env_file" in service else 0
    items = written if isinstance(written, LocatedList) else [written] if written is not None else []
    found = []
    for item in items:
        if isinstance(item, Located):
            if item.get("path") is not None:
                found.append((str(item["path"]), str(item.get("required", True)).lower() != "false", line))
        elif item is not None:
            found.append((str(item), True, line))
    return found


def broker_config_set(path: str, name: str, image: str, entries: list[Entry], anchor: tuple[int, int]) -> ConfigSet:
    family = _image_family(image, [entry[0] for entry in entries])
    config_set = ConfigSet(
        component="broker",
        path=path,
        anchor=Location(path, *anchor),
        name=name,
        kafka_version=_kafka_version(image),
        kafka_version_from=f"image {image}" if _kafka_version(image) else None,
        cluster=path,
    )
    jvm: dict[str, dict[str, Any]] = {}
    for variable, value, where, value_location, raw in entries:
        if variable in surfaces.JVM_VARIABLES:
            jvm[variable] = {"value": value, "line": where.line}
            continue
        key = surfaces.env_to_property(family, variable)
        if key:
            config_set.add(Setting(key, value, variable, where, is_secret_key(key), value_location, raw))
    config_set.facts["image"] = image
    config_set.facts["jvm"] = jvm
    # apache/kafka given any variable, and the Confluent images, build server.properties from the
    # variables alone, so an absent key has Kafka's own default. Other images start from a shipped
    # server.properties (Kafka's sample sets internal topics to RF 1), which we cannot see.
    # (the JVM variables do not count: apache/kafka's launcher ignores them when choosing.)
    config_set.facts["kafka_defaults"] = bool(config_set.settings) and image.startswith(_KAFKA_DEFAULT_IMAGES)
    return config_set


def _ensemble(config_set: ConfigSet) -> set[str]:
    """The controllers or ZooKeeper servers a node names (with a ZooKeeper chroot: two chroots on
    one ensemble are two clusters); empty when it names none."""
    named = endpoints.quorum(config_set)
    if named is None:
        return set()
    text = named[0].partition("=")[2]
    ensemble, _, chroot = text.partition("/")
    return {f"{part.rpartition('@')[2]}/{chroot}" for part in ensemble.split(",") if part}


def _clusters(config_sets: list[ConfigSet]) -> list[list[ConfigSet]]:
    """The clusters one compose file runs: nodes naming overlapping quorums or ensembles are one
    (a MirrorMaker demo runs two, each with its own ZooKeeper or controllers, often the same
    broker ids). Nodes naming none belong to the first. The first keeps the file's cluster key."""
    groups: list[tuple[set[str], list[ConfigSet]]] = []
    unnamed: list[ConfigSet] = []
    for config_set in config_sets:
        ensemble = _ensemble(config_set)
        if not ensemble:
            unnamed.append(config_set)
            continue
        overlapping = [group for group in groups if group[0] & ensemble]
        merged: tuple[set[str], list[ConfigSet]] = (ensemble, [config_set])
        for group in overlapping:
            groups.remove(group)
            merged = (merged[0] | group[0], group[1] + merged[1])
        groups.append(merged)
    position = {id(config_set): index for index, config_set in enumerate(config_sets)}
    clusters = sorted((sorted(members, key=lambda m: position[id(m)]) for _, members in groups),
                      key=lambda members: position[id(members[0])]) or [[]]  # fmt: skip
    clusters[0] += unnamed
    for members in clusters[1:]:
        for config_set in members:
            config_set.cluster = f"{config_set.path}#{members[0].name}"
    return clusters


def project_variables(path: str, source: SourceFile) -> dict[str, str]:
    """The project's `.env` beside a compose file, as compose reads it for `${VAR}` (and kept as
    part of the file: findings may point into it)."""
    compose = Path(path)
    project_env = beside.readable(compose, ".env")
    env_text = beside.text_of(project_env) if project_env is not None else None
    if project_env is None or env_text is None:
        return {}
    source.includes[_shown(compose, ".env")] = env_text
    return {entry[0]: entry[1] for entry in _env_entries(str(project_env), env_text)}


def service_entries(
    path: str, text: str, name: str, service: Located, variables: dict[str, str], source: SourceFile
) -> list[Entry]:
    """A service's variables as compose gives them to its container: its `env_file:`s, then its
    `environment:` over them, interpolated; an env_file that cannot be read is said in the notes."""
    compose = Path(path)
    entries: list[Entry] = []
    for written, required, line in _env_files(service):
        env_path = beside.readable(compose, written)
        service_env = beside.text_of(env_path) if env_path is not None else None
        if service_env is None:
            if required:
                source.notes.append(
                    Problem(path, line, f"env_file {written} of service {name} was not read (missing, too"
                            " large, unreadable, or outside the project): its variables are not judged",
                            "skipped")
                )  # fmt: skip
            continue
        shown = _shown(compose, written)
        source.includes[shown] = service_env
        entries += _env_entries(shown, service_env)
    return entries + [
        (variable, interpolate(value, variables), *rest) for variable, value, *rest in _environment(service, path, text)
    ]


def load(path: str, text: str, payload: Any, options) -> tuple[SourceFile, list[ConfigSet]]:  # type: ignore[no-untyped-def]
    kind, data = payload
    found = directive_syntax.in_hash_comments(text, path)
    source = SourceFile(path, text, FORMAT, found)
    if kind == "error":
        read_yaml(text, path)  # raises the LoadError with its line
    if kind == "env":
        entries = _env_entries(path, text)
        first = (entries[0][2].line, entries[0][2].column) if entries else (1, 1)
        config_sets = [broker_config_set(path, Path(path).name, "", entries, first)]
    else:
        config_sets = []
        services = data["services"]
        variables = project_variables(path, source)
        for name, service in services.items():
            if not _is_kafka(name, service):
                continue
            anchor = service.position("environment") if "environment" in service else services.position(name)
            entries = service_entries(path, text, name, service, variables, source)
            image = interpolate(str(service.get("image") or ""), variables)
            config_set = broker_config_set(path, name, image, entries, anchor)
            config_set.facts["published"] = compose_ports.published(service)
            config_sets.append(config_set)
        # A compose file lists every service of its clusters: the brokers among them are all of them.
        for cluster in _clusters(config_sets):
            brokers = [cs for cs in cluster if cs.runs_broker_role()]
            for config_set in cluster:
                config_set.facts["broker_count"] = len(brokers) or None
    directive_syntax.apply_file_settings(config_sets, found)
    return source, config_sets
