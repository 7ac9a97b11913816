"""Spring Boot `application*.yml|yaml|properties`: the spring.kafka.* surface.

Typed properties (spring.kafka.producer.batch-size, ...) become the Kafka keys Boot's own
KafkaProperties sets for them (advisor/catalog/data/spring_boot.json); the `properties`
maps (spring.kafka.properties.*, spring.kafka.producer.properties.*, ...) pass through
unchanged. Names use Spring's relaxed binding (batchSize, batch_size, batch-size).
spring.kafka.* names that no Boot release defines are kept as facts: Boot ignores them
silently, so a rule reports them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from advisor import catalog, lazy_re
from advisor.analysis.units import to_bytes, to_ms
from advisor.catalog import surfaces
from advisor.model.document import ConfigSet, Directive, LoadError, Setting, SourceFile
from advisor.model.provenance import Location
from advisor.secrets import is_secret_key
from advisor.sources import beside, properties_syntax
from advisor.sources import directives as directive_syntax
from advisor.sources.spans import raw_text
from advisor.sources.structured import Located, LocatedList, read_yaml

FORMAT = "spring"
_NAME = lazy_re.compile(r"^(application|bootstrap)([-.][\w.-]*)?\.(ya?ml|properties)$")
ROLES = ("producer", "consumer", "admin")
_PASSTHROUGH = lazy_re.compile(r"^spring\.kafka\.(?:(producer|consumer|admin|streams)\.)?properties\.(.+)$")


# A spring.kafka tree, whatever the file's name: `spring.kafka.x=` in properties, or in YAML a
# top-level `spring:` with a `kafka:` below it (or flat `spring.kafka.x:` keys).
_PROPERTIES_TREE = lazy_re.compile(r"^[ \t]*spring\.(?:cloud\.stream\.)?kafka\.", re.MULTILINE)
_YAML_FLAT = lazy_re.compile(r"^spring\.(?:cloud\.stream\.)?kafka\.", re.MULTILINE)
# Spring Cloud Stream's Kafka binder passes these maps to the clients it builds: the binder's
# `configuration` to every client, `producer-properties` / `consumer-properties` to one role, and
# each binding's `consumer.configuration` / `producer.configuration` to that binding's client.
_BINDER = lazy_re.compile(
    r"^spring\.cloud\.stream\.kafka\.(?:binder\.(?:(?P<shared>configuration)|(?P<role>producer|consumer)-properties)"
    r"|bindings\.(?P<name>[^.]+)\.(?P<binding>producer|consumer)\.configuration)\.(?P<key>.+)$"
)
_BINDER_BROKERS = "spring.cloud.stream.kafka.binder.brokers"
# A binding's consumer group (spring.cloud.stream.bindings.NAME.group): the binder makes it the
# group.id of that binding's consumer.
_BINDING_GROUP = lazy_re.compile(r"^spring\.cloud\.stream\.bindings\.(?P<name>[^.]+)\.group$")
_BINDER_PREFIX = "spring.cloud.stream.kafka."
_YAML_TOP = lazy_re.compile(r"^spring:[ \t]*(?:#.*)?$")
_YAML_KAFKA = lazy_re.compile(r"^[ \t]+kafka:")


def _yaml_tree(text: str) -> bool:
    """One pass over the lines (no regex that could backtrack on a hostile file): a top-level
    `spring:` whose indented block holds a `kafka:` key, or flat `spring.kafka.` keys."""
    if "spring." in text and _YAML_FLAT.search(text):
        return True
    if "spring:" not in text:  # no top-level spring block to look into
        return False
    inside = False
    for line in text.splitlines():
        if _YAML_TOP.match(line):
            inside = True
        elif inside and line[:1] not in (" ", "\t", "#", ""):
            inside = False  # the next top-level key ends spring's block
        elif inside and _YAML_KAFKA.match(line):
            return True
    return False


def sniff(path: Path, text: str) -> Any:
    if path.suffix not in (".properties", ".yml", ".yaml"):
        return None
    if _NAME.match(path.name) and "spring" in text and "kafka" in text:
        return True
    if path.suffix == ".properties":
        return True if _PROPERTIES_TREE.search(text) else None
    return True if _yaml_tree(text) else None


# (property name, value, where the name is written, where the value is, the value as written)
Entry = tuple[str, str, Location, "Location | None", "str | None"]


def _flatten(value: Any, prefix: str, out: list[Entry], where: tuple[Location, Location | None], text: str) -> None:
    path = where[0].path
    if isinstance(value, Located):
        for key, item in value.items():
            # Spring's bracket notation keeps dots inside a map key: properties[linger.ms]
            name = key[1:-1] if key.startswith("[") and key.endswith("]") else key
            child = (value.key_location(key, path), value.value_location(key, path))
            _flatten(item, f"{prefix}.{name}" if prefix else name, out, child, text)
    elif isinstance(value, LocatedList):
        joined = ",".join("" if v is None else str(v) for v in value)
        out.append((prefix, joined, where[0], where[1], raw_text(text, where[1])))
    else:
        out.append((prefix, "" if value is None else str(value), where[0], where[1], raw_text(text, where[1])))


_PROFILE_KEYS = ("spring.config.activate.on-profile", "spring.profiles")


def _documents(path: str, text: str) -> tuple[list[tuple[str | None, list[Entry]]], list[Directive]]:
    """The file's documents, each with the profile it activates on (None: every profile) and its
    spring.kafka entries: YAML documents split by `---`, a .properties file by `#---` lines (Spring
    Boot 2.4+ multi-document files)."""
    found: list[Directive] = []
    documents: list[tuple[str | None, list[Entry]]] = []
    if path.endswith(".properties"):
        parsed, comments = properties_syntax.parse(text, path)
        for line, comment in comments:
            found.extend(directive_syntax.parse_comment(line, comment, path))
        breaks = [line for line, comment in comments if comment.rstrip() in ("#---", "!---")]
        groups: list[list[Entry]] = [[] for _ in range(len(breaks) + 1)]
        for entry in parsed:
            key = re.sub(r"\[([^\]]+)\]", r".\1", entry.key)  # properties[linger.ms] -> properties.linger.ms
            where = entry.key_span.at(path) if entry.key_span else Location(path, entry.line, entry.column)
            value_where = entry.value_span.at(path) if entry.value_span else None
            groups[sum(1 for b in breaks if b < entry.line)].append(
                (key, entry.value, where, value_where, entry.raw_value)
            )
    else:
        found = directive_syntax.in_hash_comments(text, path)
        groups = []
        for document in read_yaml(text, path):
            entries: list[Entry] = []
            _flatten(document, "", entries, (Location(path, 1), None), text)
            groups.append(entries)
    for entries in groups:
        profile = next((e[1] for e in entries if e[0] in _PROFILE_KEYS and e[1]), None)
        kept = [e for e in entries if e[0].startswith(("spring.kafka.", _BINDER_PREFIX)) or _BINDING_GROUP.match(e[0])]
        documents.append((profile, kept))
    return documents, found


_SPRING_BOOLEANS = {"true": "true", "on": "true", "yes": "true", "1": "true"}
_SPRING_BOOLEANS |= {"false": "false", "off": "false", "no": "false", "0": "false"}


def _lenient(text: str) -> str:
    """Spring binds enum constants leniently: case and separators do not count."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _typed_value(record: dict[str, Any], value: str, key: str, role: str) -> str:
    """The value Kafka receives once Spring has converted it: Duration → ms, DataSize → bytes,
    Boolean words (yes/on/1) → true/false, enum constants (read-committed) → the Kafka choice."""
    kind = record.get("type") or ""
    if kind == "java.time.Duration":
        number = to_ms(value)
        return value if number is None else str(int(number))
    if kind == "org.springframework.util.unit.DataSize":
        number = to_bytes(value)
        return value if number is None else str(int(number))
    if kind == "java.lang.Boolean":
        return _SPRING_BOOLEANS.get(value.strip().lower(), value)
    if kind.endswith(("IsolationLevel", "AutoOffsetReset")):
        facts = catalog.lookup(key, role) if role in ROLES else None
        matches = [c for c in (facts.choices or ()) if _lenient(c) == _lenient(value)] if facts else []
        return matches[0] if matches else value
    return value


def _suggest(name: str) -> str | None:
    """A Kafka key written as a typed property → its pass-through spelling; else the closest
    sibling property (same parent), compared on the last segment only."""
    from advisor import catalog

    parent, _, last = name.rpartition(".")
    role = parent.rpartition(".")[2]
    base = last.replace("-", ".").replace("_", ".").lower()
    for kafka_key in (base, f"{base}.ms", f"{base}.bytes"):  # Boot drops units: session-timeout
        if role in ROLES and catalog.exists(kafka_key, role):
            return f"{parent}.properties.{kafka_key}"
    known = surfaces._spring()["boot"][surfaces.spring_boot_releases()[-1]]["properties"]
    siblings = {k.rpartition(".")[2]: k for k in known if k.rpartition(".")[0] == parent}
    import difflib  # only for a name Boot does not bind

    close = difflib.get_close_matches(last.lower(), list(siblings), n=1, cutoff=0.8)
    return siblings[close[0]] if close else None


# `application-prod.yml`: Spring reads it on top of `application.yml` / `.properties` of the same
# folder when the `prod` profile is active — the file name is the only evidence Spring uses.
_PROFILE_FILE = lazy_re.compile(r"^(?P<stem>application|bootstrap)-(?P<profile>[\w.-]+)\.(?:ya?ml|properties)$")


def _profile_file_base(path: str) -> tuple[str | None, list[Entry]]:
    """(the profile a profile-specific file is for, the profile-less entries of its base files)."""
    match = _PROFILE_FILE.match(Path(path).name)
    if match is None:
        return None, []
    entries: list[Entry] = []
    for suffix in (".yml", ".yaml", ".properties"):  # Spring: .properties over .yml for one key
        found = beside.readable(Path(path), f"{match['stem']}{suffix}")
        if found is None:
            continue
        base_text = beside.text_of(found)
        if base_text is None:
            continue  # unreadable: the base file's own run (if it is linted) says so
        try:
            documents, _ = _documents(str(Path(path).parent / found.name), base_text)
        except LoadError:
            continue  # the base file's own run reports it
        entries += [entry for profile, found_entries in documents if profile is None for entry in found_entries]
    return match["profile"], entries


def load(path: str, text: str, _payload: Any, options) -> tuple[SourceFile, list[ConfigSet]]:  # type: ignore[no-untyped-def]
    documents, found = _documents(path, text)
    source = SourceFile(path, text, FORMAT, found)
    base = [entry for profile, entries in documents if profile is None for entry in entries]
    file_profile, inherited = _profile_file_base(path)
    if file_profile is not None:  # judged as Spring runs it: application.yml, then this file
        config_sets = _config_sets(path, [*inherited, *base], f"[{file_profile}]") if base else []
        directive_syntax.apply_file_settings(config_sets, found)
        return source, config_sets
    config_sets = _config_sets(path, base, "") if base else []
    # A profile document is judged as Spring runs it: the profile-less documents, then its own.
    for profile, entries in documents:
        if profile is not None and entries:
            config_sets += _config_sets(path, [*base, *entries], f"[{profile}]")
    directive_syntax.apply_file_settings(config_sets, found)
    return source, config_sets  # none: a Spring application without Kafka settings


def _passed_through(name: str) -> tuple[str | None, str, str | None] | None:
    """(the role or None for every client, the Kafka key, the binding it is for or None) of a
    property Spring hands on as is: spring.kafka[.role].properties.*, or a Spring Cloud Stream
    binder or binding map."""
    passthrough = _PASSTHROUGH.match(name)
    if passthrough:
        return passthrough.group(1), passthrough.group(2), None
    binder = _BINDER.match(name)
    return (binder["role"] or binder["binding"], binder["key"], binder["name"]) if binder else None


def _config_sets(path: str, entries: list[Entry], suffix: str) -> list[ConfigSet]:
    """The producer, consumer and admin config sets the entries configure (named with the
    profile they run under, if any)."""
    per_role: dict[str, list[Setting]] = {role: [] for role in ROLES}
    per_binding: dict[tuple[str, str], list[Setting]] = {}  # (binding, role): its own client's settings
    shared: list[Setting] = []
    unknown: list[dict[str, Any]] = []
    facts: dict[str, Any] = {}
    for name, value, location, value_location, raw in entries:
        line = location.line
        if name == _BINDER_BROKERS:  # the binder's broker list (a host without a port gets 9092)
            value = ",".join(h if ":" in h else f"{h}:9092" for h in (p.strip() for p in value.split(",")) if h)
            shared.append(Setting("bootstrap.servers", value, name, location, False, value_location, raw))
            continue
        group = _BINDING_GROUP.match(name)
        if group is not None:
            setting = Setting("group.id", value, name, location, False, value_location, raw)
            per_binding.setdefault((group["name"], "consumer"), []).append(setting)
            continue
        passed = _passed_through(name)
        if passed is not None:  # a Kafka key handed to the client as written
            role, key, binding = passed
            setting = Setting(key, value, name, location, is_secret_key(key), value_location, raw)
            if binding is not None and role in per_role:
                per_binding.setdefault((binding, role), []).append(setting)
            elif role is None:
                shared.append(setting)
            elif role in per_role:
                per_role[role].append(setting)
            continue
        if name.startswith(_BINDER_PREFIX):
            continue  # the binder's own options (auto-create-topics, ...): not client settings
        record = next(
            (
                r
                for release in reversed(surfaces.spring_boot_releases())
                if (r := surfaces.spring_property(name, release))
            ),
            None,
        )
        if record is None:
            unknown.append({"name": name, "line": line, "suggestion": _suggest(name)})
            continue
        if record["name"].endswith("transaction-id-prefix"):
            facts["transaction_id_prefix"] = {"line": line}
        for role, keys in record.get("sets", {}).items():
            for key in keys:
                if key == "*" or (role not in ROLES and role != "streams"):
                    continue
                kafka_value = _typed_value(record, value, key, role)
                setting = Setting(key, kafka_value, name, location, is_secret_key(name), value_location, raw)
                if set(record["sets"]) >= {"producer", "consumer", "admin"}:
                    shared.append(setting)  # common settings (bootstrap-servers, client-id, ssl.*)
                    break
                if role in per_role:
                    per_role[role].append(setting)
    bound = {role for _, role in per_binding}
    roles = [r for r in ROLES if per_role[r] and r not in bound] or ([] if bound else ["producer", "consumer"])
    # Each Spring Cloud Stream binding with a configuration of its own is a client of its own:
    # the binder's maps, then the binding's (which wins), over the shared spring.kafka settings.
    clients = [(role, f"spring.kafka.{role}{suffix}", [*shared, *per_role[role]]) for role in roles]
    for (binding, role), own in per_binding.items():
        name = f"spring.cloud.stream.kafka.bindings.{binding}.{role}{suffix}"
        clients.append((role, name, [*shared, *per_role[role], *own]))
    config_sets = []
    for role, name, settings in clients:
        first = min((s.location.line for s in settings), default=1)
        config_set = ConfigSet(
            component=role,
            path=path,
            anchor=Location(path, first),
            name=name,
            client="java",
            facts={**facts, "spring_unknown": unknown, "spring": True},
        )
        for setting in settings:
            config_set.add(setting)
        config_sets.append(config_set)
    return config_sets
