"""Client config dicts in JSON, YAML, TOML or INI/`key=value` text (kcat.conf, configparser
files: advisor/sources/ini_reader.py): librdkafka / confluent-kafka dotted keys, kafka-python
snake_case keyword arguments.

A file is one flat config, or a mapping of `producer:`/`consumer:`/`admin:` sections.
The client is dotted keys → librdkafka, snake_case → kafka-python, unless `--client`
or a `# kafka-advisor: client=...` comment says otherwise (JSON has no comments).
"""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from advisor import catalog
from advisor.model.document import ConfigSet, LoadError, Setting, SourceFile
from advisor.model.provenance import Location
from advisor.secrets import is_secret_key
from advisor.sources import directives as directive_syntax
from advisor.sources import ini_reader
from advisor.sources.normalize import canonical
from advisor.sources.spans import raw_text
from advisor.sources.structured import Located, read_json, read_toml, read_yaml

FORMAT = "client-dict"


def _read_ini(text: str, path: str) -> list[Any]:
    """The INI mapping; a line that is no comment, section or key=value is an error at its line."""
    document = ini_reader.read_ini(text, path)
    if document.unparsed:
        line = document.unparsed[0]
        raise LoadError(path, line, "not a comment, [section] or key=value line: the file is not read")
    return [document]


SUFFIXES = {".json": read_json, ".yaml": read_yaml, ".yml": read_yaml, ".toml": read_toml}
# Text formats that other software also uses (nginx.conf, setup.cfg): claimed only on content.
INI_SUFFIXES = (".ini", ".conf", ".cfg", ".cnf", ".config")
SUFFIXES |= dict.fromkeys(INI_SUFFIXES, _read_ini)
ROLES = ("producer", "consumer", "admin")
_NAME_HINTS = {"producer": ("producer",), "consumer": ("consumer",), "admin": ("admin",)}


def _scalar(value: Any) -> bool:
    """A value a client setting can have: a scalar, or a list of scalars (kafka-python's
    bootstrap_servers=['k1:9092', 'k2:9092'])."""
    if isinstance(value, list):
        return all(not isinstance(item, (Located, list)) for item in value)
    return not isinstance(value, Located)


def _flat(mapping: Any) -> bool:
    return isinstance(mapping, Located) and bool(mapping) and all(_scalar(v) for v in mapping.values())


# Where a nested search stops: configs sit a few levels under an application's own keys.
_MAX_DEPTH = 4
_BOOTSTRAP = ("bootstrap.servers", "bootstrap_servers", "metadata.broker.list")


def _role_in(name: str) -> str | None:
    lowered = name.lower()
    found = [role for role in ROLES if role in lowered]
    return found[0] if len(found) == 1 else None


def _nested(data: Located, trail: tuple[str, ...], found: list[tuple[str | None, str | None, Located]]) -> None:
    """Flat client-looking mappings anywhere below an application's own keys, each with the
    role its key names (`producer`, `kafkaConsumer`, `admin_config`) and its dotted path."""
    if len(trail) >= _MAX_DEPTH:
        return
    for key, value in data.items():
        if not isinstance(value, Located):
            continue
        path = (*trail, str(key))
        if _flat(value) and _looks_like_client_config(value, nested=True):
            found.append((_role_in(str(key)), ".".join(path), value))
        elif not _flat(value):
            _nested(value, path, found)


def _sections(data: Any) -> list[tuple[str | None, str | None, Located]] | None:
    """[(role or None, label or None, mapping)] if the data holds client configs, else None:
    one flat config, `producer:`/`consumer:`/`admin:` sections, or configs nested under an
    application's keys (`kafka: {producer: {...}}`). Documents of other formats (Kubernetes,
    compose) are theirs."""
    if not isinstance(data, Located) or not data:
        return None
    if set(data) <= set(ROLES) and all(isinstance(v, Located) for v in data.values()):
        return [(role, role, data[role]) for role in data]
    if _flat(data):
        return [(None, None, data)]
    if "apiVersion" in data or "kind" in data or "services" in data:
        return None
    found: list[tuple[str | None, str | None, Located]] = []
    _nested(data, (), found)
    return found or None


def _known(key: str) -> bool:
    return bool(catalog.owners(key)) or any(
        catalog.exists(key, r, client=c) for r in ROLES for c in ("librdkafka", "kafka-python")
    )


def _looks_like_client_config(mapping: Located, *, nested: bool = False) -> bool:
    """Most keys are some client's; or (an application's config with its own keys beside the
    client's) bootstrap servers and another client key. Nested mappings need the latter."""
    keys = list(mapping)
    known = sum(1 for key in keys if _known(key))
    has_bootstrap = any(key in _BOOTSTRAP for key in keys)
    if nested:
        return has_bootstrap and known >= 2
    return known >= max(1, len(keys) // 2) or (has_bootstrap and known >= 2)


def sniff(path: Path, text: str) -> Any:
    reader = SUFFIXES.get(path.suffix)
    if reader is None:
        return None
    if path.suffix in INI_SUFFIXES:
        lenient = ini_reader.read_ini(text, str(path))  # another program's file must not be an error
        if _sections(lenient) is None or not all(_looks_like_client_config(m) for _, _, m in _sections(lenient) or []):
            return None
        if lenient.unparsed:
            return ("error", text)  # a client config with a line that is not one: load() says where
    try:
        documents = reader(text, str(path))
    except LoadError:
        return ("error", text)  # claimed, so that load() reports where and why
    data = documents[0] if isinstance(documents, list) and len(documents) == 1 else documents
    sections = _sections(data)
    if sections is None:
        return None
    # A nested config was chosen by its own test; a top-level one must look like a client's.
    nested = [label is not None and label != role for role, label, _ in sections]
    if not all(inner or _looks_like_client_config(m) for inner, (_, _, m) in zip(nested, sections, strict=True)):
        return None
    return sections


def _client_of(sections: list[tuple[str | None, str | None, Located]]) -> str:
    """The library that knows more of the file's keys (one client per file)."""
    keys = [key for _, _, mapping in sections for key in mapping]

    def known(client: str) -> int:
        return sum(1 for key in keys if any(catalog.exists(key, role, client=client) for role in ROLES))

    return "kafka-python" if known("kafka-python") > known("librdkafka") else "librdkafka"


# Roles a dict is judged as when its keys do not tell: a config shared by the producer and the
# consumer of one application (bootstrap servers, security) is linted as both.
SHARED = ("producer", "consumer")


def _roles_of(mapping: Located, client: str, path: str) -> tuple[str, ...]:
    """The role the keys only one of producer and consumer has vote for (an admin client is
    built from either's config, so admin keys tell nothing); no vote, or a tie: the file name's
    hint, else both."""
    votes: Counter[str] = Counter()
    for key in mapping:
        holders = [r for r in SHARED if (facts := catalog.lookup(key, r, client=client)) is not None and facts.applies]
        if len(holders) == 1:
            votes[holders[0]] += 1
    ranked = votes.most_common()
    if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
        return (ranked[0][0],)
    stem = Path(path).name.lower()
    for role, hints in _NAME_HINTS.items():
        if any(h in stem for h in hints):
            return (role,)
    return SHARED


def load(path: str, text: str, sections: Any, options) -> tuple[SourceFile, list[ConfigSet]]:  # type: ignore[no-untyped-def]
    if isinstance(sections, tuple):  # claimed by name, but unreadable: report why
        SUFFIXES[Path(path).suffix](text, path)
    found = directive_syntax.in_hash_comments(text, path) if not path.endswith(".json") else []
    source = SourceFile(path, text, FORMAT, found)
    config_sets = []
    client = options.client or directive_syntax.setting(found, "client") or _client_of(sections)
    for role, place, mapping in sections:
        stated = role or options.component or directive_syntax.setting(found, "as")
        roles = (stated,) if stated else _roles_of(mapping, client, path)
        for component in roles:
            view = component if len(roles) > 1 and component != role else None  # a shared dict's two views
            label = ":".join(part for part in (place, view) if part) or None
            config_set = _config_set(path, text, mapping, component, client, label)
            if len(roles) > 1:
                config_set.facts["shared_roles"] = list(roles)
            config_sets.append(config_set)
    directive_syntax.apply_file_settings(config_sets, found)
    return source, config_sets


def _config_set(path: str, text: str, mapping: Located, component: str, client: str, label: str | None) -> ConfigSet:
    """One role's view of a mapping (a dict shared by producer and consumer gives two, each
    named by its role)."""
    first = min(mapping.positions.values(), default=(mapping.line, 1))
    name = f"{Path(path).name}:{label}" if label else Path(path).name
    config_set = ConfigSet(
        component=component, path=path, anchor=Location(path, first[0], first[1]), name=name, client=client
    )
    application = []
    for key, value in mapping.items():
        if not _client_key(key, component, client):
            application.append(key)  # the application's own setting beside the client's: not judged
            continue
        written = ",".join(map(str, value)) if isinstance(value, list) else "" if value is None else str(value)
        value_location = mapping.value_location(key, path)
        spelled = canonical(key, component, client)
        where = mapping.key_location(key, path)
        config_set.add(
            Setting(spelled, written, key, where, is_secret_key(key), value_location, raw_text(text, value_location))
        )
    if application:
        config_set.facts["application_keys"] = application
    return config_set


def _client_key(key: str, component: str, client: str) -> bool:
    """A key some client library defines, or a near spelling of one of this client's (a typo
    worth reporting); anything else beside them (topic, retry_count, log_level) is the
    application's."""
    if _known(key):
        return True
    hint = catalog.suggest(key, component, client=client, limit=1)
    if not hint:
        return False
    wanted, near = _words(key), _words(hint[0])
    # Strong evidence only: the same words in another spelling, or a typo-sized difference
    # (auto.commit.intervl.ms), not a client word inside an application's name (batch_size_hint).
    return sorted(wanted.split(".")) == sorted(near.split(".")) or SequenceMatcher(None, wanted, near).ratio() >= 0.9


def _words(key: str) -> str:
    return key.lower().replace("_", ".").replace("-", ".")
