"""Helm values for the Bitnami Kafka chart, also nested as a subchart (`kafka:`), for each chart
generation (bitnami/charts history of bitnami/kafka/values.yaml and its templates):

- charts up to 23: top-level camelCase values (`defaultReplicationFactor`, `logFlushIntervalMessages`,
  `auth.clientProtocol`, `replicaCount`, ...) that the chart turns into KAFKA_CFG_* variables, its
  own defaults included where a value is not given (offsets and transaction topics RF 1, a flush
  every 10000 messages or 1 s, PLAINTEXT listeners, ZooKeeper unless `kraft.enabled`);
- charts 24 and later: `controller`/`broker` sections and `listeners.<client|interbroker|controller|
  external>.protocol`, SASL_PLAINTEXT unless said otherwise, with PLAIN among `sasl.enabledMechanisms`;
- charts 32 and later: `overrideConfiguration` (and `config`) as maps of server.properties keys.
Chart defaults become settings placed at the values' first line, spelled "<value> (chart default)".

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

import os
import re
from functools import cache
from pathlib import Path
from typing import Any

from advisor import lazy_re
from advisor.analysis.values import is_template
from advisor.catalog import charts, surfaces
from advisor.model.chart_values import SEPARATOR
from advisor.model.document import ConfigSet, Setting, SourceFile, split_lines
from advisor.model.provenance import Location
from advisor.secrets import is_secret_key
from advisor.sources import beside, chart_paths, properties_syntax
from advisor.sources import directives as directive_syntax
from advisor.sources.spans import LineIndex, raw_text
from advisor.sources.structured import Located, LocatedList, read_yaml

FORMAT = "helm"
_NAME = lazy_re.compile(r"^values[\w.-]*\.ya?ml$")
_LAST_LEGACY_MAJOR = 23  # charts up to 23: top-level camelCase values; 24 on: controller/broker sections
_CHART_KEYS = {"controller", "broker", "extraConfig", "heapOpts", "listeners", "kraft"}
_TAG_VERSION = lazy_re.compile(r"^(\d+\.\d+(?:\.\d+)?)")


# Keys of the Bitnami Kafka chart's values that other charts and apps rarely have: two of them
# (or a kafka image with one) make a YAML file chart values whatever its name; a values*.yaml
# needs only one of the chart's keys.
_DISTINCT = {"controller", "broker", "kraft", "extraConfig", "heapOpts", "overrideConfiguration", "provisioning",
             "externalAccess", "zookeeper", "sasl", "defaultReplicationFactor", "offsetsTopicReplicationFactor",
             "logFlushIntervalMessages", "autoCreateTopicsEnable", "deleteTopicEnable", "logRetentionHours",
             "allowPlaintextListener", "interBrokerListenerName"}  # fmt: skip

# Charts up to 23: each top-level value → the property the chart sets from it, and the chart's
# default where it differs from Kafka's (None: the chart passes only what is given).
LEGACY = {
    "defaultReplicationFactor": ("default.replication.factor", "1"),
    "offsetsTopicReplicationFactor": ("offsets.topic.replication.factor", "1"),
    "transactionStateLogReplicationFactor": ("transaction.state.log.replication.factor", "1"),
    "transactionStateLogMinIsr": ("transaction.state.log.min.isr", "1"),
    "logFlushIntervalMessages": ("log.flush.interval.messages", "10000"),
    "logFlushIntervalMs": ("log.flush.interval.ms", "1000"),
    "deleteTopicEnable": ("delete.topic.enable", "false"),
    "autoCreateTopicsEnable": ("auto.create.topics.enable", "true"),
    "numPartitions": ("num.partitions", "1"),
    "logRetentionHours": ("log.retention.hours", "168"),
    "logRetentionBytes": ("log.retention.bytes", None),
    "logSegmentBytes": ("log.segment.bytes", None),
    "maxMessageBytes": ("message.max.bytes", None),
    "numIoThreads": ("num.io.threads", None),
    "numNetworkThreads": ("num.network.threads", None),
    "numRecoveryThreadsPerDataDir": ("num.recovery.threads.per.data.dir", None),
    "socketReceiveBufferBytes": ("socket.receive.buffer.bytes", None),
    "socketSendBufferBytes": ("socket.send.buffer.bytes", None),
    "socketRequestMaxBytes": ("socket.request.max.bytes", None),
    "authorizerClassName": ("authorizer.class.name", None),
    "superUsers": ("super.users", None),
    "minInsyncReplicas": ("min.insync.replicas", None),
}
# auth.*Protocol words of charts up to 23 → security protocols.
_LEGACY_PROTOCOLS = {"plaintext": "PLAINTEXT", "tls": "SSL", "mtls": "SSL", "sasl": "SASL_PLAINTEXT",
                     "sasl_tls": "SASL_SSL"}  # fmt: skip
# Charts 24+: listeners.<role> → (name, port) by default; every protocol defaults to SASL_PLAINTEXT.
_LISTENERS = {"client": ("CLIENT", 9092), "interbroker": ("INTERNAL", 9094), "controller": ("CONTROLLER", 9093),
              "external": ("EXTERNAL", 9095)}  # fmt: skip
_DEFAULT_MECHANISMS = "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512"


def _shape(values: Located, named: bool, mentions_kafka: bool = True) -> bool:
    keys = set(values)
    image = values.get("image")
    kafka_image = isinstance(image, Located) and "kafka" in str(image.get("repository") or "")
    if named:
        # One key of the chart's is every Bitnami chart's (extraConfig) or ingress-nginx's
        # (controller): alone it counts only in a file that names Kafka somewhere.
        shared = len(_CHART_KEYS & keys)
        return shared >= 2 or (shared == 1 and (kafka_image or mentions_kafka))
    return len(_DISTINCT & keys) >= (1 if kafka_image else 2)


def _chart_values(data: Any, named: bool = True, mentions_kafka: bool = True) -> Located | None:
    if not isinstance(data, Located):
        return None
    nested = data.get("kafka")
    if isinstance(nested, Located) and _shape(nested, named):
        return nested  # the chart used as a subchart named kafka
    return data if _shape(data, named, mentions_kafka) else None


def sniff(path: Path, text: str) -> Any:
    named = bool(_NAME.match(path.name))  # values*.yaml: the name is a hint, the shape still decides
    if path.suffix not in (".yaml", ".yml"):
        return None
    shaped = named or any(f"{key}:" in text for key in _DISTINCT)
    released = not shaped and _named_by_release(path)
    if not (shaped or released):
        return None
    try:
        documents = read_yaml(text, str(path))
    except Exception:  # noqa: BLE001 - a broken values file is reported by load()
        return None
    values = _chart_values(documents[0], named, _names_kafka(text)) if documents else None
    if values is None and documents and isinstance(documents[0], Located) and (released or _named_by_release(path)):
        return documents[0]  # a Terraform helm_release hands this file to the chart
    return values


# Broker properties only Kafka has: a values file that sets them (under extraConfig,
# overrideConfiguration, config) is Kafka's even where it never writes the word.
_KAFKA_PROPERTIES = lazy_re.compile(
    r"\b(?:min\.insync\.replicas|default\.replication\.factor|offsets\.topic\.replication\.factor"
    r"|auto\.create\.topics\.enable|num\.partitions|log\.retention\.(?:hours|ms|bytes)|log\.dirs)\b"
)


def _names_kafka(text: str) -> bool:
    return "kafka" in text.lower() or _KAFKA_PROPERTIES.search(text) is not None


def _release_pin(path: Path) -> Any:
    """The Bitnami kafka helm_release (terraform.Pin: its chart version, "file.tf:line", the
    values it writes itself) in a .tf file of this folder or the two above that hands this file
    to the chart."""
    from advisor.sources import terraform

    absolute = os.path.abspath(path)  # no symlinks followed: the .tf names the file by its path
    folder = absolute
    for _ in range(3):
        folder = os.path.dirname(folder)
        pin = terraform.values_named_in(folder).get(absolute)
        if pin is not None:
            return pin
    return None


def _named_by_release(path: Path) -> bool:
    return _release_pin(path) is not None


@cache
def _chart_releases() -> dict[str, str]:
    """Bitnami Kafka chart version → the Kafka release it ships (tools/gen_bitnami_chart_versions.py)."""
    from advisor.catalog import store

    return store.read("bitnami_kafka_chart.json")["versions"]


def _numbers(version: str) -> list[int]:
    return [int(part) for part in re.findall(r"\d+", version)]


def chart_release(constraint: str, releases: dict[str, str] | None = None) -> tuple[str, str] | None:
    """(chart version, Kafka release) for a chart version or a constraint on one (`26.8.5`,
    `26.x.x`, `~26.8.0`, `^26`): the newest chart version it admits, as Helm would pick. Another
    chart's table of versions (`releases`: chart version → release) is read the same way."""
    releases = _chart_releases() if releases is None else releases
    operator = constraint.strip()[:1] if constraint.strip()[:1] in "^~" else ""
    wanted = constraint.strip().lstrip("^~=v ")
    if not operator and wanted in releases:
        return wanted, releases[wanted]
    fixed = []
    for part in re.split(r"[.]", wanted):
        if not part.isdigit():
            break
        fixed.append(int(part))
    if operator == "^":
        fixed = fixed[:1]
    elif operator == "~":
        fixed = fixed[:2]
    numbered = _chart_numbers() if releases is _chart_releases() else tuple((v, _numbers(v)) for v in releases)
    matching = [(numbers, v) for v, numbers in numbered if fixed and numbers[: len(fixed)] == fixed]
    if not matching:
        return None
    newest = max(matching, key=lambda pair: pair[0])[1]  # the first of equal numbers, as before
    return newest, releases[newest]


@cache
def _chart_numbers() -> tuple[tuple[str, list[int]], ...]:
    """Every chart version with its numbers, worked out once."""
    return tuple((version, _numbers(version)) for version in _chart_releases())


def _release_from_chart(path: str) -> tuple[str, str] | None:
    """The Kafka release named by the chart: a Chart.yaml beside the values that is the Bitnami
    kafka chart itself, or that depends on it (an umbrella chart)."""
    found = beside.readable(Path(path), "Chart.yaml")
    if found is None:
        return None
    try:
        (chart,) = read_yaml(beside.text_of(found) or "", str(found))[:1] or [None]
    except Exception:  # noqa: BLE001 - a Chart.yaml we cannot read names no version
        return None
    if not isinstance(chart, Located):
        return None
    candidates = []
    if chart.get("name") == "kafka" and chart.get("version"):
        candidates.append(str(chart["version"]))
    for dependency in chart.get("dependencies") or []:
        named = isinstance(dependency, Located) and dependency.get("name") == "kafka" and dependency.get("version")
        if named and "bitnami" in str(dependency.get("repository") or "bitnami"):
            candidates.append(str(dependency["version"]))
    for constraint in candidates:
        release = chart_release(constraint)
        if release is not None:
            return release
    return None


def _int(value: Any, default: int) -> int:
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return default


def _count(section: Located, key: str, default: int) -> int | None:
    """A replica count as the chart reads it; None when a template (`{{ }}`, Terraform's `${var.x}`)
    decides it: a count nobody can read here, not the chart's default."""
    written = section.get(key)
    if isinstance(written, str) and is_template(written):
        return None
    return _int(written, default)


def _place(path: str, index: LineIndex, line: int, column: int, end_column: int) -> Location:
    """A span on one line of the YAML file, with its offsets."""
    start = index.starts[line - 1] if line <= len(index.starts) else None
    offsets = (start + column - 1, start + end_column - 1) if start is not None else (None, None)
    return Location(path, line, column, line, end_column, *offsets)


def properties_text(
    config_set: ConfigSet, section: Located, key: str, path: str, lines: list[str], index: LineIndex
) -> None:
    """`config`/`extraConfig` text: each entry keeps its line and columns in the file it is
    written in (`lines` and `index` are that file's: a helm_release's .tf for a value it sets)."""
    text = section.get(key)
    if not isinstance(text, str) or not text.strip():
        return
    path = section.file_of(key, path)
    value_span = section.value_span(key)
    exact = True
    if value_span is None:  # no span known: from the key's line on
        offset, shift = section.position(key)[0] - ("\n" not in text), 0
    elif "\n" not in text:  # a one-line scalar: after its opening quote, if any
        offset = value_span.line - 1
        quote = lines[offset][value_span.column - 1 : value_span.column] if offset < len(lines) else ""
        shift = value_span.column - 1 + (quote in ("'", '"'))
    elif _block_scalar(lines, value_span):  # YAML's | or >: from the next line, less the block's indentation
        offset = value_span.line
        content = next((lines[n] for n in range(offset, len(lines)) if lines[n].strip()), "")
        shift = len(content) - len(content.lstrip())
    elif value_span.column == 1 and value_span.end_line > value_span.line:  # an HCL heredoc's body: its own lines
        offset, shift = value_span.line - 1, 0
    else:  # line breaks written as escapes ("a=1\\nb=2"): every entry at the value's start
        offset, shift, exact = value_span.line - 1, value_span.column - 1, False
    entries, _ = properties_syntax.parse(text, path)
    for entry in entries:
        secret = is_secret_key(entry.key)
        if not exact:
            at_value = Location(path, offset + 1, shift + 1)
            config_set.add(Setting(entry.key, entry.value, entry.key, at_value, secret, None, entry.raw_value))
            continue
        line = offset + entry.line
        key_span, span = entry.key_span, entry.value_span
        where = _place(path, index, line, shift + entry.column, shift + key_span.end_column) if key_span else None
        value_where = None
        if span is not None and span.line == span.end_line:  # a continued value: no exact span in YAML
            value_where = _place(path, index, line, shift + span.column, shift + span.end_column)
        config_set.add(Setting(entry.key, entry.value, entry.key, where or Location(path, line), secret, value_where,
                               entry.raw_value))  # fmt: skip


def _block_scalar(lines: list[str], span: Any) -> bool:
    line = lines[span.line - 1] if span.line <= len(lines) else ""
    return line[span.column - 1 : span.column] in ("|", ">")


def _raw(texts: dict[str, str], where: Location | None) -> str | None:
    """The text a value span covers, in the file it is in (the values file, or the .tf whose
    helm_release sets values over it)."""
    return raw_text(texts.get(where.path, ""), where) if where is not None else None


def _env(config_set: ConfigSet, section: Located, path: str, texts: dict[str, str]) -> None:
    variables = section.get("extraEnvVars")
    if not isinstance(variables, LocatedList):
        return
    listed_in = variables.origin or section.file_of("extraEnvVars", path)
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
                        Location(listed_in, line, column),
                        is_secret_key(key),
                        where,
                        _raw(texts, where),
                    )
                )


def _section(values: Located, key: str) -> Located:
    found = values.get(key)
    return found if isinstance(found, Located) else Located()


def _is_legacy(values: Located) -> bool:
    """Charts up to 23: camelCase values at the top, no controller/broker sections."""
    modern = any(k in values for k in ("controller", "broker", "extraConfig", "overrideConfiguration"))
    return not modern and bool(set(LEGACY) & set(values) or "auth" in values or "replicaCount" in values)


class _Chart:
    """Adds settings the chart writes: from a value where one is given, else its default."""

    def __init__(self, config_set: ConfigSet, values: Located, path: str, texts: dict[str, str]) -> None:
        self.config_set, self.values, self.path, self.texts = config_set, values, path, texts
        self.default_at = Location(path, values.line)

    def add(self, key: str, value: str, section: Located | None, name: str | None, label: str) -> None:
        if section is not None and name is not None and name in section:
            where = section.value_location(name, self.path)
            setting = Setting(key, value, label, section.key_location(name, self.path), is_secret_key(key), where,
                              _raw(self.texts, where))  # fmt: skip
        else:
            setting = Setting(key, value, f"{label} (chart default)", self.default_at, is_secret_key(key), None, None)
        self.config_set.add(setting)


def _legacy(chart: _Chart) -> int | None:
    """Charts up to 23; returns the broker count (replicaCount, default 1)."""
    values = chart.values
    for name, (key, default) in LEGACY.items():
        given = values.get(name)
        if given is not None and not isinstance(given, (Located, list)):
            chart.add(key, str(given).replace("_", ""), values, name, name)
        elif default is not None:
            chart.add(key, default, None, None, name)
    auth = _section(values, "auth")
    client = _LEGACY_PROTOCOLS.get(str(auth.get("clientProtocol") or "plaintext").lower(), "PLAINTEXT")
    inter = _LEGACY_PROTOCOLS.get(str(auth.get("interBrokerProtocol") or "plaintext").lower(), "PLAINTEXT")
    written = values.get("listeners")
    if not (isinstance(written, list) and written):
        chart.add("listeners", "INTERNAL://:9093,CLIENT://:9092", auth, "clientProtocol", "auth.clientProtocol")
        protocols = f"INTERNAL:{inter},CLIENT:{client}"
        chart.add("listener.security.protocol.map", protocols, auth, "clientProtocol", "auth.clientProtocol")
    if str(_section(values, "kraft").get("enabled", "false")).lower() != "true":
        chart.add("zookeeper.connect", "<release>-zookeeper:2181", None, None, "zookeeper.enabled")
    return _count(values, "replicaCount", 1)


def _modern_listeners(chart: _Chart) -> None:
    """Charts 24+: the listeners, protocol map and SASL mechanisms the chart writes."""
    values = chart.values
    listeners = _section(values, "listeners")
    if listeners.get("overrideListeners"):
        return
    external = str(_section(values, "externalAccess").get("enabled", "false")).lower() == "true"
    bound, protocols, names = [], [], {}
    where: tuple[Located | None, str | None, str] = (None, None, "listeners.client.protocol")
    for role, (name, port) in _LISTENERS.items():
        if role == "external" and not external:
            continue
        section = _section(listeners, role)
        names[role] = str(section.get("name") or name)
        protocol = str(section.get("protocol") or "SASL_PLAINTEXT").upper()
        bound.append(f"{names[role]}://:{_int(section.get('containerPort'), port)}")
        protocols.append(f"{names[role]}:{protocol}")
        if role == "client" and "protocol" in section:
            where = (section, "protocol", "listeners.client.protocol")
    chart.add("listeners", ",".join(bound), *where)
    chart.add("listener.security.protocol.map", ",".join(protocols), *where)
    chart.add("controller.listener.names", names["controller"], None, None, "listeners.controller.name")
    chart.add("inter.broker.listener.name", names["interbroker"], None, None, "listeners.interbroker.name")
    if any(p.endswith(("SASL_PLAINTEXT", "SASL_SSL")) for p in protocols):
        sasl = _section(values, "sasl")
        mechanisms = str(sasl.get("enabledMechanisms") or _DEFAULT_MECHANISMS).upper()
        chart.add("sasl.enabled.mechanisms", mechanisms, sasl, "enabledMechanisms", "sasl.enabledMechanisms")


def _config_map(config_set: ConfigSet, section: Located, key: str, path: str, texts: dict[str, str]) -> None:
    """Charts 32+: `overrideConfiguration` / `config` as a map of server.properties keys."""
    mapping = section.get(key)
    if not isinstance(mapping, Located):
        return
    for name, value in mapping.items():
        if isinstance(value, (Located, list)):
            continue
        where = mapping.value_location(name, path)
        written = "" if value is None else str(value)
        config_set.add(Setting(name, written, name, mapping.key_location(name, path), is_secret_key(name), where,
                               _raw(texts, where)))  # fmt: skip


# Chart values that hold passwords (charts up to 23 under auth.*, 24+ under sasl.* and tls.*):
# written in the values file, they are secrets in a repository. Existing-secret references and
# templates are not.
_CHART_SECRETS = (
    ("sasl", "client", "passwords"), ("sasl", "interbroker", "password"), ("sasl", "controller", "password"),
    ("tls", "keystorePassword"), ("tls", "truststorePassword"), ("tls", "password"),
    ("auth", "sasl", "jaas", "clientPasswords"), ("auth", "sasl", "jaas", "interBrokerPassword"),
    ("auth", "tls", "password"),
)  # fmt: skip


def _chart_secrets(values: Located, file: str) -> list[dict[str, Any]]:
    """The chart's password values written in clear (by name and place, never the value)."""
    found = []
    for path in _CHART_SECRETS:
        section: Any = values
        for part in path[:-1]:
            section = section.get(part) if isinstance(section, Located) else None
        if not isinstance(section, Located) or path[-1] not in section:
            continue
        value = section[path[-1]]
        written = [str(v) for v in value] if isinstance(value, list) else [str(value or "")]
        if any(w.strip() and "{{" not in w and not w.strip().startswith("$") for w in written):
            found.append({"name": ".".join(path), "line": section.position(path[-1])[0],
                          "path": section.file_of(path[-1], file)})  # fmt: skip
    return found


def _provisioned_topics(values: Located, path: str, texts: dict[str, str], cluster: str) -> list[ConfigSet]:
    """provisioning.topics: topics the chart's provisioning job creates with kafka-topics, each
    with its partitions and replication factor (the section's defaults: 1 and 1)."""
    provisioning = _section(values, "provisioning")
    topics = provisioning.get("topics")
    if not isinstance(topics, LocatedList):
        return []
    found = []
    for topic, (line, column) in zip(topics, topics.positions, strict=True):
        if not isinstance(topic, Located) or not topic.get("name"):
            continue
        replicas = topic.get("replicationFactor", provisioning.get("replicationFactor", "1"))
        partitions = topic.get("partitions", provisioning.get("numPartitions", "1"))
        at = topic.position("replicationFactor") if "replicationFactor" in topic else (line, column)
        config_set = ConfigSet(
            component="topic",
            path=path,
            anchor=Location(path, *at),
            name=f"provisioning.topics/{topic['name']}",
            cluster=cluster,
            facts={"partitions": str(partitions), "replicas": str(replicas)},
        )
        _config_map(config_set, topic, "config", path, texts)
        found.append(config_set)
    return found


def load(path: str, text: str, values: Located, options) -> tuple[SourceFile, list[ConfigSet]]:  # type: ignore[no-untyped-def]
    found = directive_syntax.in_hash_comments(text, path)
    source = SourceFile(path, text, FORMAT, found)
    root = read_yaml(text, path)[0]  # the sniff's parse, before a Chart.yaml beside is read
    inner = root.get("kafka") if isinstance(root, Located) else None
    nested = isinstance(inner, Located) and inner.line == values.line  # under an umbrella's kafka:
    named_chart, chart_from = _release_from_chart(path), "Chart.yaml"
    pin = _release_pin(Path(path)) if named_chart is None else None
    files = Files({path: (text, source.lines)})
    if pin is not None:
        if pin.chart_version is not None:
            named_chart, chart_from = chart_release(pin.chart_version), f"helm_release at {pin.where}"
        # The .tf as this file's path is written (relative stays relative), for the places in it.
        up = os.path.relpath(os.path.dirname(pin.tf_path), os.path.dirname(os.path.abspath(path)))
        tf_shown = os.path.normpath(os.path.join(os.path.dirname(path), up, os.path.basename(pin.tf_path)))
        layers = pin.layers(tf_shown)
        if layers:  # its set entries and inline values, over this file's
            from advisor.sources import helm_release

            values = helm_release.merged(values, layers, tf_shown)
            files.add(tf_shown, pin.tf_text)
            source.consulted[tf_shown] = pin.tf_text
    config_sets = chart_config_sets(values, path, files, named_chart, chart_from, nested=nested, pinned=pin is not None)
    directive_syntax.apply_file_settings(config_sets, found)
    return source, config_sets


class Files:
    """The texts a chart's values are written in, with their lines and line indexes: the values
    file, and the .tf whose helm_release sets values over it (or the .tf alone)."""

    def __init__(self, texts: dict[str, tuple[str, list[str]]]) -> None:
        self.texts = {path: text for path, (text, _) in texts.items()}
        self._lines = {path: lines for path, (_, lines) in texts.items()}
        self._indexes: dict[str, LineIndex] = {}

    def add(self, path: str, text: str) -> None:
        self.texts[path] = text
        self._lines[path] = split_lines(text)

    def lines(self, path: str) -> list[str]:
        return self._lines.get(path, [])

    def index(self, path: str) -> LineIndex:
        if path not in self._indexes:
            self._indexes[path] = LineIndex(self.texts.get(path, ""))
        return self._indexes[path]


def chart_config_sets(
    values: Located,
    path: str,
    files: Files,
    named_chart: tuple[str, str] | None,
    chart_from: str,
    *,
    nested: bool = False,
    pinned: bool = False,
    name: str | None = None,
) -> list[ConfigSet]:
    """The broker config set the chart makes of these values (and the topics it provisions).
    `named_chart`: (chart version, Kafka release) named in `chart_from`; `pinned`: a helm_release
    hands these values to Bitnami's chart (they are its values whatever their keys)."""
    texts = files.texts
    controller, broker = _section(values, "controller"), _section(values, "broker")
    combined = str(controller.get("controllerOnly", "false")).lower() != "true"
    counts = (_count(controller, "replicaCount", 3) if combined else 0, _count(broker, "replicaCount", 0))
    brokers = None if None in counts else sum(counts)  # type: ignore[arg-type]
    image = values.get("image")
    tag = str(image.get("tag") or "") if isinstance(image, Located) else ""
    version = _TAG_VERSION.match(tag)
    from_chart = None if version else named_chart
    # Findings about absent keys point where broker configuration is written.
    anchors = [s.position(k)[0] for s in (values, controller, broker) for k in ("extraConfig", "config")
               if k in s and s.file_of(k, path) == path]  # fmt: skip
    config_set = ConfigSet(
        component="broker",
        path=path,
        anchor=Location(path, min(anchors) if anchors else values.line),
        name=name or f"helm:{Path(path).name}",
        kafka_version=version.group(1) if version else from_chart[1] if from_chart else None,
        kafka_version_from=f"image.tag {tag}"
        if version
        else f"Bitnami kafka chart {from_chart[0]} in {chart_from}"
        if from_chart
        else None,
        cluster=path if name is None else f"{path}#{name}",
    )
    # The chart generation: the version named where there is one (its defaults are the ones
    # that run), else what the values look like.
    major = _numbers(named_chart[0])[:1] if named_chart else []
    legacy = major[0] <= _LAST_LEGACY_MAJOR if major else _is_legacy(values)
    chart = _Chart(config_set, values, path, texts)
    if legacy:
        brokers = _legacy(chart)
    else:
        _modern_listeners(chart)
    jvm: dict[str, dict[str, Any]] = {}

    def dropped(label: str, key: str) -> bool:  # a section the named chart version never reads (KB145 says so)
        return bool(major) and not charts.reads("bitnami-kafka", f"{label.replace('.', SEPARATOR)}{key}", major[0])

    for section, label in ((values, ""), (controller, "controller."), (broker, "broker.")):
        for key in ("config", "extraConfig"):
            if not dropped(label, key):
                written_in = section.file_of(key, path)
                properties_text(config_set, section, key, path, files.lines(written_in), files.index(written_in))
                _config_map(config_set, section, key, path, texts)
        if not dropped(label, "overrideConfiguration"):
            _config_map(config_set, section, "overrideConfiguration", path, texts)
        _env(config_set, section, path, texts)
        if isinstance(section.get("heapOpts"), str):
            entry = {"value": section["heapOpts"], "line": section.position("heapOpts")[0]}
            if (written_in := section.file_of("heapOpts", path)) != path:
                entry["path"] = written_in
            jvm[f"{label}heapOpts"] = entry
    config_set.facts.update({"broker_count": brokers or None, "jvm": jvm, "chart": "legacy" if legacy else "kraft"})
    config_set.facts["chart_secrets"] = _chart_secrets(values, path)
    chart_version = named_chart[0] if named_chart else None
    # Only the chart's own values are judged by its keys: a Chart.yaml naming it, its image, or
    # three of its distinctive keys (another chart's values can share one or two).
    repository = str(image.get("repository") or "") if isinstance(image, Located) else ""
    identified = named_chart is not None or pinned or "bitnami" in repository or len(_DISTINCT & set(values)) >= 3
    config_set.facts["chart_values"] = {"chart": "bitnami-kafka", "version": chart_version, "nested": nested,
                                        "identified": identified, **chart_paths.written(values, path)}  # fmt: skip
    return [config_set, *_provisioned_topics(values, path, texts, config_set.cluster or path)]
