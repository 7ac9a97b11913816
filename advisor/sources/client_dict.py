"""Client config dicts in JSON, YAML or TOML: librdkafka / confluent-kafka dotted keys,
kafka-python snake_case keyword arguments.

A file is one flat config, or a mapping of `producer:`/`consumer:`/`admin:` sections.
The client is dotted keys → librdkafka, snake_case → kafka-python, unless `--client`
or a `# kafka-advisor: client=...` comment says otherwise (JSON has no comments).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from advisor import catalog
from advisor.model.document import ConfigSet, LoadError, Location, Setting, SourceFile
from advisor.secrets import is_secret_key
from advisor.sources import directives as directive_syntax
from advisor.sources.normalize import canonical
from advisor.sources.spans import raw_text
from advisor.sources.structured import Located, read_json, read_toml, read_yaml

FORMAT = "client-dict"
SUFFIXES = {".json": read_json, ".yaml": read_yaml, ".yml": read_yaml, ".toml": read_toml}
ROLES = ("producer", "consumer", "admin")
_NAME_HINTS = {"producer": ("producer",), "consumer": ("consumer",), "admin": ("admin",)}


def _sections(data: Any) -> list[tuple[str | None, Located]] | None:
    """[(role or None, mapping)] if the data looks like a client config, else None."""
    if not isinstance(data, Located) or not data:
        return None
    if set(data) <= set(ROLES) and all(isinstance(v, Located) for v in data.values()):
        return [(role, data[role]) for role in data]
    if any(isinstance(v, (Located, list)) for v in data.values()):
        return None  # nested documents are other formats (compose, Kubernetes, Spring, Helm)
    return [(None, data)]


def _looks_like_client_config(mapping: Located) -> bool:
    keys = list(mapping)
    known = sum(
        1
        for key in keys
        if catalog.owners(key)
        or any(catalog.exists(key, r, client=c) for r in ROLES for c in ("librdkafka", "kafka-python"))
    )
    return known >= max(1, len(keys) // 2)


def sniff(path: Path, text: str) -> Any:
    reader = SUFFIXES.get(path.suffix)
    if reader is None:
        return None
    try:
        documents = reader(text, str(path))
    except LoadError:
        return ("error", text)  # claimed, so that load() reports where and why
    data = documents[0] if isinstance(documents, list) and len(documents) == 1 else documents
    sections = _sections(data)
    if sections is None or not all(_looks_like_client_config(m) for _, m in sections):
        return None
    return sections


def _client_of(sections: list[tuple[str | None, Located]]) -> str:
    """The library that knows more of the file's keys (one client per file)."""
    keys = [key for _, mapping in sections for key in mapping]

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
    for role, mapping in sections:
        stated = role or options.component or directive_syntax.setting(found, "as")
        roles = (stated,) if stated else _roles_of(mapping, client, path)
        for component in roles:
            label = role or (component if len(roles) > 1 else None)  # a shared dict's two views are named
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
    for key, value in mapping.items():
        written = "" if value is None else str(value)
        value_location = mapping.value_location(key, path)
        spelled = canonical(key, component, client)
        where = mapping.key_location(key, path)
        config_set.add(
            Setting(spelled, written, key, where, is_secret_key(key), value_location, raw_text(text, value_location))
        )
    return config_set
