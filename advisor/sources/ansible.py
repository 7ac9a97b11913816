"""YAML inventories of Confluent's cp-ansible: the `kafka_broker` group's hosts, each a broker
config set of its `kafka_broker_custom_properties`.

Ansible's variable precedence decides which dict a host gets — its own host var, else the
`kafka_broker` group's, else `all`'s — and replaces dicts rather than merging them (the default
`hash_behaviour`), so a host's dict is judged alone. The group's host count is the broker count.
cp-ansible writes its own defaults into server.properties (they are not Kafka's), so a broker is
judged on the properties the inventory writes. Groups may sit at the top or under
`all.children`.
"""

from __future__ import annotations

from pathlib import Path

from advisor import TYPE_CHECKING
from advisor.model.document import ConfigSet, Setting, SourceFile
from advisor.model.provenance import Location
from advisor.secrets import is_secret_key
from advisor.sources import directives as directive_syntax
from advisor.sources.spans import Located, raw_text
from advisor.sources.structured import read_yaml

if TYPE_CHECKING:
    from typing import Any

FORMAT = "cp-ansible"
_GROUP = "kafka_broker"
_PROPERTIES = "kafka_broker_custom_properties"


def _groups(data: Any) -> dict[str, Located]:
    """Group name → its mapping, at the top and under all.children (one level, as cp-ansible's samples)."""
    if not isinstance(data, Located):
        return {}
    groups = {str(k): v for k, v in data.items() if isinstance(v, Located)}
    everything = groups.get("all")
    children = everything.get("children") if everything is not None else None
    if isinstance(children, Located):
        groups |= {str(k): v for k, v in children.items() if isinstance(v, Located)}
    return groups


def _broker_group(data: Any) -> Located | None:
    group = _groups(data).get(_GROUP)
    return group if group is not None and isinstance(group.get("hosts"), Located) else None


def sniff(path: Path, text: str) -> Any:
    if path.suffix not in (".yml", ".yaml") or f"{_GROUP}:" not in text:
        return None
    try:
        documents = read_yaml(text, str(path))
    except Exception:  # noqa: BLE001 - not this reader's file
        return None
    return True if documents and _broker_group(documents[0]) is not None else None


def _vars(mapping: Located | None) -> Located | None:
    found = mapping.get("vars") if mapping is not None else None
    return found if isinstance(found, Located) else None


def load(path: str, text: str, _payload: Any, options) -> tuple[SourceFile, list[ConfigSet]]:  # type: ignore[no-untyped-def]
    found = directive_syntax.in_hash_comments(text, path)
    source = SourceFile(path, text, FORMAT, found)
    data = read_yaml(text, path)[0]
    group = _broker_group(data)
    assert group is not None  # sniff said so
    everything = _groups(data).get("all")
    hosts: Located = group["hosts"]
    config_sets = []
    for host, host_vars in hosts.items():
        candidates = [host_vars if isinstance(host_vars, Located) else None, _vars(group), _vars(everything)]
        chosen = next((c for c in candidates if c is not None and isinstance(c.get(_PROPERTIES), Located)), None)
        properties: Located | None = chosen[_PROPERTIES] if chosen is not None else None
        line, column = hosts.position(host)
        config_set = ConfigSet(
            component="broker",
            path=path,
            anchor=Location(path, line, column),
            name=f"{_GROUP}/{host}",
            cluster=path,
            facts={"platform": "cp-ansible", "defaults_unknown": True, "broker_count": len(hosts)},
        )
        for key, value in (properties or {}).items():
            if isinstance(value, (Located, list)):
                continue
            where = properties.value_location(key, path)  # type: ignore[union-attr]
            written = "" if value is None else str(value)
            key_at = properties.key_location(key, path)  # type: ignore[union-attr]
            config_set.add(Setting(str(key), written, str(key), key_at, is_secret_key(str(key)), where,
                                   raw_text(text, where)))  # fmt: skip
        config_sets.append(config_set)
    directive_syntax.apply_file_settings(config_sets, found)
    return source, config_sets
