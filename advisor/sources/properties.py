"""Java `.properties` files: server.properties, producer/consumer/admin/client configs.

The component comes from `--as`, a `# kafka-advisor: as=...` directive, the file
name (server, broker, producer, consumer, admin), or else from which component
defines the keys the file sets (the catalog's owners).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from advisor.model.document import ConfigSet, LoadError, Location, Setting, SourceFile
from advisor.secrets import is_secret_key
from advisor.sources import directives as directive_syntax
from advisor.sources import properties_syntax
from advisor.sources.normalize import canonical

FORMAT = "properties"
# Spring Boot's application*.properties belong to the Spring loader.
_SPRING_NAME = re.compile(r"^(application|bootstrap)([-.].*)?\.properties$")
_NAME_HINTS = (
    ("broker", ("server", "broker", "kraft", "controller")),
    ("producer", ("producer",)),
    ("consumer", ("consumer",)),
    ("admin", ("admin",)),
)


def sniff(path: Path, text: str) -> bool | None:
    return True if path.suffix == ".properties" and not _SPRING_NAME.match(path.name) else None


def _component_from_name(path: str) -> str | None:
    stem = Path(path).name.lower()
    for component, hints in _NAME_HINTS:
        if any(hint in stem for hint in hints):
            return component
    return None


def _component_from_keys(keys: list[str], path: str, line: int) -> str:
    from advisor import catalog

    votes: Counter[str] = Counter()
    for key in keys:
        owners = catalog.owners(key)
        if owners in (["broker"], ["broker", "topic"]):
            votes["broker"] += 1
        elif len(owners) == 1 and owners[0] in ("producer", "consumer", "admin"):
            votes[owners[0]] += 1
    ranked = votes.most_common()
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        raise LoadError(
            path,
            line,
            "cannot tell whether this is a broker, producer, consumer or admin config "
            "(name the file e.g. producer.properties, add `# kafka-advisor: as=producer`, or pass --as)",
        )
    return ranked[0][0]


def load(path: str, text: str, _payload: object, options) -> tuple[SourceFile, list[ConfigSet]]:  # type: ignore[no-untyped-def]
    entries, comments = properties_syntax.parse(text, path)
    found = []
    for line, comment in comments:
        found.extend(directive_syntax.parse_comment(line, comment, path))
    source = SourceFile(path, text, FORMAT, found)
    # Findings about absent keys point at the first setting, so `# expect:` can sit above it.
    anchor_line = entries[0].line if entries else 1
    component = (
        options.component
        or directive_syntax.setting(found, "as")
        or _component_from_name(path)
        or _component_from_keys([e.key for e in entries], path, anchor_line)
    )
    client = "java" if component in ("broker", "topic") else options.client or directive_syntax.setting(found, "client")
    config_set = ConfigSet(
        component=component,
        path=path,
        anchor=Location(path, anchor_line),
        name=Path(path).name,
        client=client or "java",
    )
    directive_syntax.apply_file_settings([config_set], found)
    for entry in entries:  # librdkafka aliases in a librdkafka .properties file read as the Java names
        key = canonical(entry.key, config_set.component, config_set.client)
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
    return source, [config_set]
