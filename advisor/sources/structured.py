"""YAML, JSON and TOML read into plain data that remembers where each key was written.

`Located` is a dict whose `positions` map each key to its 1-based (line, column).
Scalars stay as written (YAML `true`, `5`, `all` → "true", "5", "all"): Kafka parses
config values from strings, so "as written" is what matters. YAML goes through
libyaml (PyYAML's C composer) for speed; JSON and TOML through the standard parsers,
with key positions recovered by scanning the text in document order.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from advisor.model.document import LoadError


class Located(dict):  # type: ignore[type-arg]
    """A mapping that knows the (line, column) of each of its keys."""

    def __init__(self) -> None:
        super().__init__()
        self.positions: dict[str, tuple[int, int]] = {}
        self.line = 1

    def position(self, key: str) -> tuple[int, int]:
        return self.positions.get(key, (self.line, 1))


class LocatedList(list):  # type: ignore[type-arg]
    """A sequence that knows the (line, column) of each item."""

    def __init__(self) -> None:
        super().__init__()
        self.positions: list[tuple[int, int]] = []


# ---------------------------------------------------------------- YAML


def _yaml_value(node: Any) -> Any:
    import yaml

    if isinstance(node, yaml.MappingNode):
        mapping = Located()
        mapping.line = node.start_mark.line + 1
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":  # `<<: *anchor`
                merged = value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
                for source in merged:
                    base = _yaml_value(source)
                    for name, value in base.items():
                        if name not in mapping:
                            mapping[name] = value
                            mapping.positions[name] = base.position(name)
                continue
            key = str(key_node.value)
            mapping[key] = _yaml_value(value_node)
            mapping.positions[key] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
        return mapping
    if isinstance(node, yaml.SequenceNode):
        items = LocatedList()
        for item in node.value:
            items.append(_yaml_value(item))
            items.positions.append((item.start_mark.line + 1, item.start_mark.column + 1))
        return items
    if node.tag == "tag:yaml.org,2002:null":
        return None
    return node.value


def read_yaml(text: str, path: str) -> list[Any]:
    """Every document of a (multi-document) YAML stream."""
    import yaml

    loader_class = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return [_yaml_value(node) for node in yaml.compose_all(text, Loader=loader_class) if node is not None]
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        problem = getattr(error, "problem", None) or str(error)
        raise LoadError(path, (mark.line + 1) if mark else 1, f"invalid YAML: {problem}") from error


# ---------------------------------------------------------------- JSON

_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _json_key_positions(text: str) -> list[tuple[int, int]]:
    """Positions of object keys in document order (a string followed by ':' is a key)."""
    positions = []
    for match in _JSON_STRING.finditer(text):
        rest = text[match.end() :].lstrip()
        if rest.startswith(":"):
            line = text.count("\n", 0, match.start()) + 1
            column = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
            positions.append((line, column))
    return positions


def _attach(value: Any, positions: list[tuple[int, int]], cursor: list[int]) -> Any:
    """Rebuild parsed JSON/TOML as Located mappings, consuming key positions in pre-order."""
    if isinstance(value, dict):
        mapping = Located()
        for key, item in value.items():
            if cursor[0] < len(positions):
                mapping.positions[str(key)] = positions[cursor[0]]
                cursor[0] += 1
            mapping[str(key)] = _attach(item, positions, cursor)
        if mapping.positions:
            mapping.line = min(line for line, _ in mapping.positions.values())
        return mapping
    if isinstance(value, list):
        return [_attach(item, positions, cursor) for item in value]
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return None
    return str(value)


def read_json(text: str, path: str) -> Any:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise LoadError(path, error.lineno, f"invalid JSON: {error.msg}") from error
    return _attach(data, _json_key_positions(text), [0])


# ---------------------------------------------------------------- TOML

_TOML_KEY = re.compile(r'^\s*(?:"(?P<quoted>[^"]+)"|(?P<bare>[A-Za-z0-9_.\-]+))\s*=')
_TOML_ERROR_LINE = re.compile(r"line (\d+)")


def _toml_positions(value: Any, lines: list[str]) -> Any:
    """Rebuild TOML data as Located mappings; a key's line is found by scanning for `key =`."""
    located = _attach(value, [], [0])
    found: dict[str, list[tuple[int, int]]] = {}
    for number, line in enumerate(lines, start=1):
        match = _TOML_KEY.match(line)
        if match:
            key = match["quoted"] or match["bare"]
            found.setdefault(key, []).append((number, line.index(key) + 1 - (1 if match["quoted"] else 0)))

    def assign(mapping: Any) -> None:
        if isinstance(mapping, Located):
            for key in mapping:
                if found.get(key):
                    mapping.positions[key] = found[key].pop(0)
                assign(mapping[key])
            if mapping.positions:
                mapping.line = min(line for line, _ in mapping.positions.values())

    assign(located)
    return located


def read_toml(text: str, path: str) -> Any:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        match = _TOML_ERROR_LINE.search(str(error))
        raise LoadError(path, int(match.group(1)) if match else 1, f"invalid TOML: {error}") from error
    return _toml_positions(data, text.splitlines())
