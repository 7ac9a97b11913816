"""Camunda 8 configuration (the Camunda pack, docs/camunda.md): the Zeebe broker's settings and
an application's Camunda client settings, in every shape people keep them —

* Spring configuration: `application.yaml` / `.properties` trees under `zeebe.broker.*`,
  `camunda.processing.*`, `camunda.data.*`, `camunda.cluster.*` (the broker), `camunda.client.*`
  and `zeebe.client.*` (an application's client); dotted keys or nested, any relaxed spelling;
* environment variables (ZEEBE_BROKER_…, CAMUNDA_PROCESSING_…, CAMUNDA_CLIENT_…, the SDKs'
  CAMUNDA_SDK_…) in docker-compose services, `.env` files and Kubernetes containers' `env:`;
* the camunda-platform Helm chart's values: `zeebe:` (8.0–8.7) or `orchestration:` (8.8 on) with
  their `env:` list, `configuration:` (an application.yaml held as a string) and `image.tag`.

Content decides, whatever the file's name. A file that also holds Kafka configuration is read
by its Kafka reader too (`read_also`), so neither product's settings go unread. Versions come
from image tags (camunda/zeebe:8.5.3, camunda/camunda:8.9.1), a chart's `image.tag`, or a
`# kafka-advisor: camunda-version=8.X` line.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from advisor import TYPE_CHECKING, lazy_re
from advisor.catalog import camunda as catalog
from advisor.model.document import ConfigSet, LoadError, Problem, Setting, SourceFile
from advisor.model.provenance import Location
from advisor.model.vocabulary import CamundaComponent
from advisor.secrets import is_secret_key
from advisor.sources import build_files, compose, properties_syntax
from advisor.sources import directives as directive_syntax
from advisor.sources.compose import Entry, _env_entries
from advisor.sources.spans import LineIndex, Span, raw_text
from advisor.sources.structured import Located, LocatedList, read_yaml

if TYPE_CHECKING:
    from typing import Any

FORMAT = "camunda"
BROKER, CLIENT, ALERTS = CamundaComponent.ZEEBE_BROKER, CamundaComponent.CAMUNDA_CLIENT, CamundaComponent.CAMUNDA_ALERTS
GATEWAY = CamundaComponent.ZEEBE_GATEWAY
# Cheap first look: a Camunda 8 variable, image or key tree somewhere in the text.
_MARKERS = lazy_re.compile(
    r"\b(?:ZEEBE_BROKER|CAMUNDA_(?:PROCESSING|DATA|CLUSTER|CLIENT|SDK)|ZEEBE_CLIENT)_[A-Z]"
    r"|camunda/(?:zeebe|camunda)\b"
    r"|\b(?:zeebe\.(?:broker|client)|camunda\.(?:processing|data|cluster|client))\."
    r"|\bzeebe_[a-z_]+"  # the broker's metric names, in alerting rules
    r"|^(?:zeebe|camunda|orchestration|zeebeGateway|core|camunda-platform):",
    re.MULTILINE,
)
_IMAGE = lazy_re.compile(r"(?:^|/)camunda/(?P<name>zeebe|camunda)(?::(?P<tag>[^\s@]+))?")
# Camunda's own web components: their Zeebe client settings are the component's (its own client
# code and release), not an application's on the Spring starter or an SDK — read, said, not judged.
_OWN_COMPONENT = lazy_re.compile(
    r"(?:^|/)camunda/(?:operate|tasklist|optimize|identity|console|hub|web-modeler)[\w-]*(?:[:@]|$)"
    r"|registry\.camunda\.cloud/(?:web-modeler-ee|console)/"  # the enterprise images
)
_CONNECTORS = lazy_re.compile(r"(?:^|/)camunda/connectors(?:-bundle)?(?::(?P<tag>[^\s@]+))?")
_VERSION_TAG = lazy_re.compile(r"^v?(8\.\d+(?:\.\d+)?)(?:$|[-.+])")
# Spring prefixes (uniform form) → the component they configure.
_BROKER_PREFIXES = ("zeebe.broker.", "camunda.processing.", "camunda.data.", "camunda.cluster.")
_CLIENT_PREFIXES = ("camunda.client.", "zeebe.client.")
_GATEWAY_PREFIXES = ("zeebe.gateway.",)
_SDK_PREFIX = "CAMUNDA_SDK_"  # the SDKs' own variables (not Spring's): kept as written
_HELM_COMPONENTS = ("zeebe", "orchestration", "core", "zeebeGateway")  # zeebeGateway: the chart's gateway (to 8.7)


def component_of(key: str) -> str | None:
    """The component a Spring key (any spelling) configures, or None: not Camunda 8's."""
    lowered = catalog.uniform(key)
    if lowered.startswith(tuple(catalog.uniform(p) for p in _BROKER_PREFIXES)):
        return BROKER
    if lowered.startswith(tuple(catalog.uniform(p) for p in _CLIENT_PREFIXES)):
        return CLIENT
    if lowered.startswith(tuple(catalog.uniform(p) for p in _GATEWAY_PREFIXES)):
        return GATEWAY
    return None


def spelled(key: str) -> str:
    """A Spring key as the catalogs spell it (the broker's, else the client starter's), else as written."""
    client = catalog.spring_property(key)
    return catalog.spelling(key) or (client[0] if client else key)


def variable_key(name: str) -> tuple[str, str] | None:
    """(component, key) an environment variable sets, or None: not a Camunda 8 variable. Spring
    variables become the catalog's spelling where it knows the key, else the dotted form."""
    if name.startswith(_SDK_PREFIX) or catalog.sdk_variable(name) is not None:
        return CLIENT, name  # the SDKs' own variable (CAMUNDA_CLIENT_SECRET is the SDK's OAuth secret)
    dotted = catalog.from_env(name)
    component = component_of(dotted) if name.isupper() or "_" in name else None
    if component is None:
        return None
    return component, spelled(dotted)


def version_of_image(image: str) -> str | None:
    """The Camunda release an image's tag names: the broker's (camunda/zeebe, camunda/camunda) or
    Connectors' (camunda/connectors-bundle, released with each Camunda minor and built on that
    release's Spring starter)."""
    match = _IMAGE.search(image) or _CONNECTORS.search(image)
    if match is None or not match.group("tag"):
        return None
    version = _VERSION_TAG.match(match.group("tag"))
    return version.group(1) if version else None


# --- sniffing --------------------------------------------------------------------------------


def sniff(path: Path, text: str) -> Any:
    lowered = text.lower()  # the cheap test first: most files a walk offers mention neither
    if ("camunda" not in lowered and "zeebe" not in lowered) or not _MARKERS.search(text):
        return None
    try:
        sets, read = _read(str(path), text)
    except LoadError:
        return None  # not ours to report: a Kafka reader may own it, or the walk says it was not read
    # Camunda settings read but none judged (Camunda's own components, a standalone gateway) still
    # make the file ours: its notes say what was read and why it is not judged.
    return (sets, read) if sets or read.notes else None


def _read(path: str, text: str) -> tuple[list[ConfigSet], SourceFile]:
    """The file's config sets, and a record of what else it read (a compose file's `.env` and
    `env_file:`s, what could not be read): `load` carries it into the file's own record."""
    suffix = Path(path).suffix
    read = SourceFile(path, text, FORMAT)
    if suffix == ".properties":
        return _properties(path, text, read), read
    if suffix in (".yaml", ".yml"):
        return _yaml(path, text, read), read
    if suffix == ".env" or Path(path).name == ".env" or Path(path).name.endswith(".env"):
        return _variables_file(path, text, read), read
    return [], read


# --- the shapes ------------------------------------------------------------------------------


class _Sets:
    """The config sets one file yields, one per (component, owner)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.sets: dict[tuple[str, str], ConfigSet] = {}
        self.components: list[tuple[str, str, int]] = []  # (owner, image, line): Camunda's own components
        self.spring_owners: set[str] = set()  # sets read from a Spring file (its build names the starter)

    def done(self, read: SourceFile) -> list[ConfigSet]:
        """The sets, and Camunda's own components said in the file's notes (read, never silently passed)."""
        for owner, image, line in self.components:
            message = (f"{owner} ({image}) is Camunda's own component: its Zeebe client settings are read by "
                       "its own code, not judged as an application's client")  # fmt: skip
            read.notes.append(Problem(self.path, line, message, "not-judged"))
        for (_, owner), config_set in self.sets.items():
            if owner in self.spring_owners:  # a Spring tree or properties file: dotted keys nest (fix/nested_yaml.py)
                config_set.facts["spring_file"] = True
        return list(self.sets.values())

    def add(self, component: str, owner: str, anchor: Location, setting: Setting, version: tuple[str, str] | None,
            ) -> None:  # fmt: skip
        config_set = self.sets.get((component, owner))
        if config_set is None:
            config_set = ConfigSet(component, self.path, anchor, name=owner)
            self.sets[(component, owner)] = config_set
        if version is not None and config_set.kafka_version is None:
            config_set.kafka_version, config_set.kafka_version_from = version
        config_set.add(setting)

    def workload(self, owner: str, anchor: Location, version: tuple[str, str] | None) -> None:
        """A broker with nothing written still runs (with every default): judged as such."""
        if (BROKER, owner) not in self.sets:
            config_set = ConfigSet(BROKER, self.path, anchor, name=owner)
            if version is not None:
                config_set.kafka_version, config_set.kafka_version_from = version
            self.sets[(BROKER, owner)] = config_set


def _setting(key: str, value: str, spelling: str, location: Location, value_location: Location | None,
             raw: str | None) -> Setting:  # fmt: skip
    return Setting(key, value, spelling, location, is_secret_key(key) or is_secret_key(spelling), value_location, raw)


def _entries_into(sets: _Sets, owner: str, anchor: Location, entries: list[Entry],
                  version: tuple[str, str] | None, image: str = "") -> None:  # fmt: skip
    own = _OWN_COMPONENT.search(image) is not None
    client_lines = []
    for name, value, key_at, value_at, raw in entries:
        found = variable_key(name)
        if found is None:
            continue  # not a Camunda 8 variable
        if own and found[0] == CLIENT:
            client_lines.append(key_at.line)
        else:
            component, key = found
            sets.add(component, owner, anchor, _setting(key, value, name, key_at, value_at, raw), version)
    if client_lines:
        sets.components.append((owner, image, min(client_lines)))


def _properties(path: str, text: str, read: SourceFile) -> list[ConfigSet]:
    entries, _ = properties_syntax.parse(text, path)
    sets = _Sets(path)
    owner = Path(path).name
    sets.spring_owners.add(owner)
    for entry in entries:
        component = component_of(entry.key)
        if component is None:
            continue
        key = spelled(entry.key)
        where = entry.key_span.at(path) if entry.key_span else Location(path, entry.line, entry.column)
        value_at = entry.value_span.at(path) if entry.value_span else None
        setting = _setting(key, entry.value, entry.key, where, value_at, entry.raw_value)
        sets.add(component, owner, Location(path, entry.line), setting, None)
    return sets.done(read)


def _variables_file(path: str, text: str, read: SourceFile) -> list[ConfigSet]:
    sets = _Sets(path)
    _entries_into(sets, Path(path).name, Location(path, 1), _env_entries(path, text), None)
    return sets.done(read)


def _yaml(path: str, text: str, source: SourceFile) -> list[ConfigSet]:
    sets = _Sets(path)
    for document in read_yaml(text, path):
        if not isinstance(document, Located):
            continue
        if isinstance(document.get("services"), Located):
            _compose(sets, document["services"], path, text, source)
        elif (groups := _rule_groups(document)) is not None:
            _alerting_rules(sets, groups, path, text)
        elif "kind" in document and "apiVersion" in document:
            _manifest(sets, document, path, text)
        elif _helm_values(document):
            _helm(sets, document, path, text)
        elif isinstance(umbrella := document.get("camunda-platform"), Located) and _helm_values(umbrella):
            _helm(sets, umbrella, path, text)  # an umbrella chart's values: the dependency's under its name
        else:
            sets.spring_owners.add(Path(path).name)
            _spring_tree(sets, document, path, text, Path(path).name, 0)
    return sets.done(source)


def _rule_groups(document: Located) -> LocatedList | None:
    """A Prometheus rules file's `groups:` (alone, or a PrometheusRule's `spec.groups`), when one
    of its rules reads a Zeebe metric."""
    groups = document.get("groups")
    if groups is None and document.get("kind") == "PrometheusRule" and isinstance(document.get("spec"), Located):
        groups = document["spec"].get("groups")
    if not isinstance(groups, LocatedList):
        return None
    for group in groups:
        rules = group.get("rules") if isinstance(group, Located) else None
        for rule in rules if isinstance(rules, LocatedList) else ():
            if isinstance(rule, Located) and "zeebe_" in str(rule.get("expr", "")):
                return groups
    return None


def _alerting_rules(sets: _Sets, groups: LocatedList, path: str, text: str) -> None:
    """Each alerting rule over a Zeebe metric: a setting named by the alert, its value the expression."""
    index = LineIndex(text)
    for group in groups:
        rules = group.get("rules") if isinstance(group, Located) else None
        for rule in rules if isinstance(rules, LocatedList) else ():
            if not isinstance(rule, Located) or not isinstance(rule.get("alert"), str):
                continue  # a recording rule records; it pages nobody
            expr = str(rule.get("expr", ""))
            if "zeebe_" not in expr:
                continue
            where = rule.value_location("alert", path) or rule.key_location("alert", path)
            value_at = rule.value_location("expr", path)
            if value_at is not None and value_at.offset is not None and value_at.end_offset is not None:
                # a block scalar (`>-`) ends where the next line starts: the span stops at its text's end
                end = len(text[: value_at.end_offset].rstrip())
                value_at = index.span(value_at.offset, max(end, value_at.offset)).at(path)
            setting = Setting(f"alert.{rule['alert']}", " ".join(expr.split()), rule["alert"], where, False,
                              value_at, raw_text(text, value_at))  # fmt: skip
            sets.add(ALERTS, Path(path).name, Location(path, groups.line), setting, None)


def _image_version(image: Any, where: str) -> tuple[str, str] | None:
    if not isinstance(image, str):
        return None
    version = version_of_image(image)
    return (version, f"image {image} ({where})") if version else None


def _compose(sets: _Sets, services: Located, path: str, text: str, source: SourceFile) -> None:
    """Each service's variables as compose gives them to its container (`.env` interpolation and
    `env_file:`s, as the Kafka compose reader reads them); a broker image without variables is a
    broker with every default. A standalone gateway (ZEEBE_STANDALONE_GATEWAY) is no broker."""
    variables = compose.project_variables(path, source)
    for name, service in services.items():
        if not isinstance(service, Located):
            continue
        anchor = services.key_location(name, path)
        image = compose.interpolate(str(service.get("image") or ""), variables)
        version = _image_version(image, f"service {name}")
        try:
            entries = compose.service_entries(path, text, str(name), service, variables, source)
        except LoadError:
            entries = []
        _entries_into(sets, str(name), anchor, entries, version, image)
        if _IMAGE.search(image) and not _standalone_gateway(entries):
            sets.workload(str(name), anchor, version)


def _standalone_gateway(entries: list[Entry]) -> bool:
    """A camunda/zeebe container started as the standalone gateway: no broker runs in it."""
    return any(e[0] == "ZEEBE_STANDALONE_GATEWAY" and e[1].strip().lower() == "true" for e in entries)


def _manifest(sets: _Sets, document: Located, path: str, text: str) -> None:
    """Every container of a Pod template (StatefulSet, Deployment, Pod, …): its image and env."""
    for containers in _containers_lists(document):
        for container in containers:
            if not isinstance(container, Located):
                continue
            name = str(container.get("name", "container"))
            anchor = Location(path, container.line)
            version = _image_version(container.get("image"), f"container {name}")
            image = str(container.get("image") or "")
            entries = _env_list(container.get("env"), path, text)
            _entries_into(sets, name, anchor, entries, version, image)
            if "camunda/zeebe" in image and not _standalone_gateway(entries):
                sets.workload(name, anchor, version)


def _containers_lists(node: Any, depth: int = 0) -> list[LocatedList]:
    found: list[LocatedList] = []
    if depth > 12:
        return found
    if isinstance(node, Located):
        for key, value in node.items():
            if key in ("containers", "initContainers") and isinstance(value, LocatedList):
                found.append(value)
            else:
                found += _containers_lists(value, depth + 1)
    elif isinstance(node, LocatedList):
        for item in node:
            found += _containers_lists(item, depth + 1)
    return found


def _env_list(env: Any, path: str, text: str) -> list[Entry]:
    """A Kubernetes `env:` list — `- name: X` / `value: Y` — with spans (valueFrom: not a value here)."""
    entries: list[Entry] = []
    if not isinstance(env, LocatedList):
        return entries
    for item in env:
        if not isinstance(item, Located) or not isinstance(item.get("name"), str) or "value" not in item:
            continue
        value = item.get("value")
        where = item.value_location("value", path)
        entries.append((item["name"], "" if value is None else str(value), item.value_location("name", path) or
                        item.key_location("name", path), where, raw_text(text, where)))  # fmt: skip
    return entries


def _helm_values(document: Located) -> bool:
    """The camunda-platform chart's values: a `zeebe:`, `orchestration:` or `core:` section of the
    chart's own shape — not a Spring `zeebe.broker` tree, and not another chart's `core:`."""
    return any(_camunda_section(name, document.get(name)) for name in _HELM_COMPONENTS)


def _camunda_section(name: str, section: Any) -> bool:
    if not isinstance(section, Located) or {"broker", "client", "gateway"} & set(section):
        return False
    if name == "zeebe" and {"clusterSize", "partitionCount", "replicationFactor"} & set(section):
        return True
    image = section.get("image")
    repository = str(image.get("repository", "")) if isinstance(image, Located) else str(image or "")
    env = section.get("env")
    names = [str(item.get("name", "")) for item in env if isinstance(item, Located)] if isinstance(
        env, LocatedList) else []  # fmt: skip
    configuration = str(section.get("configuration") or "")
    return ("camunda/" in repository or any(variable_key(n) for n in names)
            or "zeebe" in configuration or "camunda:" in configuration)  # fmt: skip


def _helm(sets: _Sets, document: Located, path: str, text: str) -> None:
    global_image = document.get("global", {}).get("image", {}) if isinstance(document.get("global"), Located) else {}
    for name in _HELM_COMPONENTS:
        section = document.get(name)
        if not isinstance(section, Located) or not _camunda_section(name, section):
            continue
        anchor = document.key_location(name, path)
        version = _helm_version(section, global_image, name, path)
        _entries_into(sets, name, anchor, _env_list(section.get("env"), path, text), version)
        configuration = section.get("configuration")
        if isinstance(configuration, str) and configuration.strip():
            _embedded(sets, section, path, text, name, version)
        if section.get("enabled") not in ("false", False) and name != "zeebeGateway":
            sets.workload(name, anchor, version)


def _helm_version(section: Located, global_image: Any, name: str, path: str) -> tuple[str, str] | None:
    """The release an image tag names, else the one a Chart.yaml beside the values pins the
    camunda-platform chart to (catalog/data/camunda_chart.json: chart version → Camunda minor)."""
    for image, where in ((section.get("image"), f"{name}.image.tag"), (global_image, "global.image.tag")):
        if isinstance(image, Located) and isinstance(image.get("tag"), str):
            version = _VERSION_TAG.match(image["tag"].strip())
            if version:
                return version.group(1), f"{where}: {image['tag']}"
    return _chart_version(path)


def _chart_version(path: str) -> tuple[str, str] | None:
    from advisor.catalog import store
    from advisor.sources import beside, helm

    found = beside.readable(Path(path), "Chart.yaml")
    if found is None:
        return None
    try:
        (chart,) = read_yaml(beside.text_of(found) or "", str(found))[:1] or [None]
    except LoadError:
        return None
    if not isinstance(chart, Located):
        return None
    constraints = [str(chart["version"])] if chart.get("name") == "camunda-platform" and chart.get("version") else []
    for dependency in chart.get("dependencies") or []:
        if (
            isinstance(dependency, Located)
            and dependency.get("name") == "camunda-platform"
            and dependency.get("version")
        ):
            constraints.append(str(dependency["version"]))
    table: dict[str, str] = store.read("camunda_chart.json")["versions"]
    for constraint in constraints:
        resolved = helm.chart_release(constraint, table)
        if resolved is not None:
            return resolved[1], f"camunda-platform chart {resolved[0]} (Chart.yaml: {constraint})"
    return None


def _embedded(sets: _Sets, section: Located, path: str, text: str, owner: str, version: tuple[str, str] | None) -> None:
    """`configuration: |` — an application.yaml held in a string: read as one, its lines mapped
    back to the values file (a literal block's lines are the file's lines, indented)."""
    where = section.value_location("configuration", path)
    if where is None:
        return
    block = text[where.offset : where.end_offset] if where.offset is not None else ""
    if not block.lstrip().startswith("|"):
        return  # a quoted or folded string: its lines are not the file's; read, located at the key
    first_line = where.line + 1
    lines = block.split("\n")[1:]
    indent = min((len(line) - len(line.lstrip(" ")) for line in lines if line.strip()), default=0)
    inner = "\n".join(line[indent:] for line in lines)
    try:
        documents = read_yaml(inner, path)
    except LoadError as error:
        raise LoadError(path, first_line - 1 + (error.line or 1), f"{owner}.configuration: {error.message}") from None
    outer = LineIndex(text)
    for document in documents:
        if isinstance(document, Located):
            _spring_tree(sets, document, path, inner, owner, first_line - 1, indent, version, outer=outer)


def _spring_tree(
    sets: _Sets, node: Located, path: str, text: str, owner: str, line_shift: int, indent: int = 0,
    version: tuple[str, str] | None = None, prefix: str = "", depth: int = 0, root_line: int = 0,
    outer: LineIndex | None = None,
) -> None:  # fmt: skip
    """A Spring tree's leaves whose dotted key (nested keys joined, dotted keys as written) is
    Camunda 8's: each a setting, located in the file (`line_shift`/`indent`: an embedded tree)."""
    if depth > 40:
        return
    root_line = root_line or node.line  # where the tree starts: the set's anchor
    for key, value in node.items():
        dotted = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, Located):
            _spring_tree(sets, value, path, text, owner, line_shift, indent, version, dotted, depth + 1, root_line,
                         outer)  # fmt: skip
            continue
        if isinstance(value, LocatedList):
            value = ",".join(str(item) for item in value if not isinstance(item, (Located, LocatedList)))
        component = component_of(dotted)
        if component is None:
            continue
        span, value_span = node.key_span(key), node.value_span(key)
        at = _placed(span, path, outer, line_shift, indent) if span else Location(path, node.line + line_shift)
        value_at = _placed(value_span, path, outer, line_shift, indent) if value_span else None
        raw = raw_text(outer.text if outer is not None else text, value_at) if value_at else None
        setting = _setting(spelled(dotted), "" if value is None else str(value), dotted, at, value_at, raw)
        sets.add(component, owner, Location(path, root_line + line_shift), setting, version)


def _placed(span: Span, path: str, outer: LineIndex | None, line_shift: int, indent: int) -> Location:
    """A span of the file read, or (an embedded tree) of its string's text, placed in the file: the
    string's lines are the file's from `line_shift` on, each indented by `indent`."""
    if outer is None:
        return span.at(path)
    line, end_line = span.line + line_shift, span.end_line + line_shift
    column, end_column = span.column + indent, span.end_column + (indent if span.end_column > 1 else 0)
    starts = outer.starts
    if end_line > len(starts):
        return Location(path, line, column)
    offset, end = starts[line - 1] + column - 1, starts[end_line - 1] + end_column - 1
    return Location(path, line, column, end_line, end_column, offset, end)


# --- loading ---------------------------------------------------------------------------------


def load(path: str, text: str, payload: Any, options: Any) -> tuple[SourceFile, list[ConfigSet]]:
    sets, read = payload
    config_sets: list[ConfigSet] = list(sets)
    found = directive_syntax.in_hash_comments(text, path)
    directive_syntax.apply_file_settings(config_sets, found)
    source = SourceFile(path, text, FORMAT, found, includes=dict(read.includes), notes=list(read.notes))
    _starter_release(path, config_sets, source)
    also = read_also(path, text, options)
    if also is not None:  # what the Kafka reader's file record says beyond its sets comes along
        kafka = also[0]
        source.notes.extend(kafka.notes)
        source.includes.update(kafka.includes)
        source.consulted.update(kafka.consulted)
        source.cluster_parts.extend(kafka.cluster_parts)
        config_sets += also[1]
    return source, config_sets


def _starter_release(path: str, config_sets: list[ConfigSet], source: SourceFile) -> None:
    """A Spring application's client sets take the release of the Camunda starter its build file
    names (pom.xml, build.gradle(.kts) above it), where nothing in the file stated one."""
    waiting = [cs for cs in config_sets if cs.component == CLIENT and cs.facts.get("spring_file")
               and cs.kafka_version is None]  # fmt: skip
    if not waiting:
        return
    starter, read = build_files.starter_of(path)
    source.consulted.update(read)  # the run's secret scan reads what was read
    if starter is None or starter.version is None:
        return
    for config_set in waiting:
        config_set.kafka_version, config_set.kafka_version_from = starter.version, starter.said


def read_also(path: str, text: str, options: Any) -> tuple[SourceFile, list[ConfigSet]] | None:
    """The file's Kafka configuration, read by the Kafka reader that would have claimed it: a
    compose file with a broker beside a Zeebe broker, a Spring application with both clients."""
    from advisor.sources import readers

    for reader in readers.READERS:
        if reader.module == "camunda" or (Path(path).suffix not in reader.claims and not reader.by_content):
            continue
        loader = importlib.import_module(f"advisor.sources.{reader.module}")
        payload = loader.sniff(Path(path), text)
        if payload is not None:
            source, config_sets = loader.load(path, text, payload, options)
            return source, [kept for cs in config_sets if (kept := _without_camunda(cs)) is not None]
    return None


def _without_camunda(config_set: ConfigSet) -> ConfigSet | None:
    """A Kafka reader's set without the Camunda settings it took for its own (a `.properties` file
    is read whole by the properties reader); None when nothing of Kafka's is left."""
    ours = [key for key, s in config_set.settings.items() if component_of(s.spelling) or variable_key(s.spelling)]
    if not ours:
        return config_set
    for key in ours:
        del config_set.settings[key]
    return config_set if config_set.settings else None
