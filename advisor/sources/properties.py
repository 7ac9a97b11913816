"""Java `.properties` files: server.properties, producer/consumer/admin/client configs.

The component comes from `--as`, a `# kafka-advisor: as=...` directive, the file
name (server, broker, producer, consumer, admin), or else from which component
defines the keys the file sets (the catalog's owners).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from advisor import TYPE_CHECKING, lazy_re
from advisor.model.document import ConfigSet, LoadError, Problem, Setting, SourceFile
from advisor.model.provenance import Location
from advisor.secrets import is_secret_key
from advisor.sources import directives as directive_syntax
from advisor.sources import properties_syntax
from advisor.sources.normalize import canonical
from advisor.sources.repeated import repeated

if TYPE_CHECKING:
    from typing import Any

FORMAT = "properties"
# Spring Boot's application*.properties belong to the Spring loader.
_SPRING_NAME = lazy_re.compile(r"^(application|bootstrap)([-.].*)?\.properties$")
_NAME_HINTS = (
    ("broker", ("server", "broker", "kraft", "controller")),
    ("producer", ("producer",)),
    ("consumer", ("consumer",)),
    ("admin", ("admin",)),
)


FOREIGN_KEYS = 8  # keys, none of them Kafka's, past which a file's name no longer makes it Kafka's


def sniff(path: Path, text: str) -> Any:
    """A .properties file (not Spring Boot's) that is Kafka configuration: it sets a key Kafka
    defines, or its name or a `# kafka-advisor:` line says what it configures — a
    log4j.properties met in a folder is not ours. The parse is the loader's payload.
    A malformed file is claimed, so that loading it says where."""
    if path.suffix != ".properties" or _SPRING_NAME.match(path.name):
        return None
    try:
        parsed = properties_syntax.parse(text, str(path))
    except LoadError:
        return True
    entries, comments = parsed
    if any(e.key.startswith("spring.kafka.") for e in entries):
        return None  # Spring Boot's, whatever the name: the Spring loader reads it
    if any("kafka-advisor:" in comment for _, comment in comments):
        return parsed
    if any(kafka_key(e.key) for e in entries) or neighbour(entries) is not None:
        return parsed
    # A name that says server/producer/... claims a file of a few keys Kafka does not know (a
    # typo'd config is still ours to report), never one of many: a game server's or another
    # program's server.properties sets dozens of keys and not one of Kafka's.
    return parsed if component_from_name(str(path)) and len(entries) < FOREIGN_KEYS else None


def kafka_key(key: str) -> bool:
    """A key some Kafka release defines or once defined (a file of removed keys is still ours), or
    a librdkafka property (librdkafka clients are configured in .properties files too)."""
    from advisor import catalog

    if catalog.owners(key):
        return True
    newest = catalog.releases()[-1]
    if any(catalog.history(key, c) or catalog.legacy_removal(key, c, newest) for c in catalog.COMPONENTS):
        return True
    return any(catalog.exists(key, role, client="librdkafka") for role in catalog.CLIENT_COMPONENTS)


# Configurations of Kafka's neighbours, by keys only they have: recognised, so that their files
# are not judged as brokers or clients (a ksql-server.properties has `listeners` and a
# `server` in its name), and said so rather than silently passed over.
_NEIGHBOURS = (
    ("a Kafka Connect worker", lambda k: k in _CONNECT_WORKER_KEYS),
    ("a Kafka Connect connector", lambda k: k == "connector.class"),
    ("a Kafka Streams application", lambda k: k in ("application.id", "processing.guarantee", "num.stream.threads")),
    ("a Schema Registry", lambda k: k.startswith("kafkastore.") or k in ("schema.compatibility.level",)),
    ("a ksqlDB server", lambda k: k.startswith("ksql.")),
    ("a MirrorMaker 2", lambda k: "->" in k),
    ("a Cruise Control", lambda k: k in ("capacity.config.file", "sample.store.topic", "metric.sampler.class")),
)
_CONNECT_WORKER_KEYS = frozenset(
    {
        "key.converter",
        "value.converter",
        "offset.storage.topic",
        "offset.storage.file.filename",
        "config.storage.topic",
        "status.storage.topic",
    }
)


def neighbour(entries: list[Any]) -> tuple[str, int] | None:
    """(what the file configures, the line that tells) for a neighbour's configuration."""
    for what, owns in _NEIGHBOURS:
        for entry in entries:
            if owns(entry.key):
                return what, entry.line
    return None


def component_from_name(path: str) -> str | None:
    stem = Path(path).name.lower()
    for component, hints in _NAME_HINTS:
        if any(hint in stem for hint in hints):
            return component
    return None


# What a client config is judged as when its keys do not tell (bootstrap servers and security
# alone, a client.properties shared by an application's producer and consumer): both.
SHARED = ("producer", "consumer")


def components_from_keys(keys: list[str], path: str, line: int) -> tuple[str, ...]:
    from advisor import catalog

    votes: Counter[str] = Counter()
    client_keys_only = True
    for key in keys:
        owners = catalog.owners(key)
        if owners and not set(owners) <= {"producer", "consumer", "admin"}:
            client_keys_only = False
        if owners in (["broker"], ["broker", "topic"]):
            votes["broker"] += 1
        elif len(owners) == 1 and owners[0] in ("producer", "consumer", "admin"):
            votes[owners[0]] += 1
    ranked = votes.most_common()
    if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
        return (ranked[0][0],)
    # bootstrap.servers is a client's (a broker has none): with no broker key it makes the file a
    # client config even where the other keys (security, compression) are a broker's too.
    if not votes["broker"] and (client_keys_only or "bootstrap.servers" in keys):
        client_votes = [c for c, _ in ranked if c in SHARED]
        return (client_votes[0],) if len(client_votes) == 1 else SHARED
    raise LoadError(
        path,
        line,
        "cannot tell whether this is a broker, producer, consumer or admin config "
        "(name the file e.g. producer.properties, add `# kafka-advisor: as=producer`, or pass --as)",
    )


def load(path: str, text: str, payload: object, options) -> tuple[SourceFile, list[ConfigSet]]:  # type: ignore[no-untyped-def]
    entries, comments = payload if isinstance(payload, tuple) else properties_syntax.parse(text, path)
    found = []
    for line, comment in comments:
        found.extend(directive_syntax.parse_comment(line, comment, path))
    source = SourceFile(path, text, FORMAT, found)
    # Findings about absent keys point at the first setting, so `# expect:` can sit above it.
    anchor_line = entries[0].line if entries else 1
    explicit = options.component or directive_syntax.setting(found, "as")
    other = None if explicit else neighbour(entries)
    if other is not None:
        what, line = other
        message = (
            f"{what} configuration: recognised and not judged (kafka-advisor judges brokers, topics and"
            " clients); --as COMPONENT or a '# kafka-advisor: as=' line overrides"
        )
        source.notes.append(Problem(path, line, message, "note"))  # recognised and said: not a skipped file
        return source, []
    stated = explicit or component_from_name(path)
    components = (stated,) if stated else components_from_keys([e.key for e in entries], path, anchor_line)
    config_sets = [
        _config_set(path, entries, component, anchor_line, options, found, shared=len(components) > 1)
        for component in components
    ]
    directive_syntax.apply_file_settings(config_sets, found)
    return source, config_sets


def _config_set(path, entries, component, anchor_line, options, found, *, shared):  # type: ignore[no-untyped-def]
    """The file as one component sees it; a client config shared by producer and consumer gives
    two, named by their role."""
    client = "java" if component in ("broker", "topic") else options.client or directive_syntax.setting(found, "client")
    config_set = ConfigSet(
        component=component,
        path=path,
        anchor=Location(path, anchor_line),
        name=f"{Path(path).name}:{component}" if shared else Path(path).name,
        client=client or "java",
        facts={"shared_roles": list(SHARED)} if shared else {},
    )
    for entry in entries:  # librdkafka aliases in a librdkafka .properties file read as the Java names
        key = canonical(entry.key, config_set.component, config_set.client)
        earlier = config_set.settings.get(key)
        # The same spelling twice: java.util.Properties keeps the later (tests/lint/test_properties_syntax.py).
        # Two spellings of one key (a client's alias, another client's name) are other rules' business.
        if earlier is not None and earlier.spelling == entry.key:
            repeated(config_set, key, entry.key, earlier.location.line, entry.line, later_wins=True)
        config_set.add(
            Setting(
                key,
                entry.value,
                entry.key,
                entry.key_span.at(path) if entry.key_span else Location(path, entry.line, entry.column),
                is_secret_key(entry.key),
                entry.value_span.at(path) if entry.value_span else None,
                entry.raw_value,
            )
        )
    return config_set
