"""YAML, JSON and TOML read into plain data that remembers where each key and value was
written (`Located`, sources/spans.py: key and value spans with lines, columns, offsets).

YAML scalars stay as written (`true`, `5`, `all` → "true", "5", "all"): Kafka parses config
values from strings, so "as written" is what matters. YAML goes through libyaml (PyYAML's C
composer) for speed, its marks giving the spans; JSON through sources/json_reader.py and
TOML through sources/toml_reader.py, which find every span in one pass.
"""

from __future__ import annotations

from functools import cache

from advisor import TYPE_CHECKING, lazy_re
from advisor.model.document import LoadError
from advisor.sources import limits
from advisor.sources.spans import Located, LocatedList, Span, node_span

if TYPE_CHECKING:
    from typing import Any

__all__ = ["Located", "LocatedList", "Span", "read_json", "read_toml", "read_yaml"]


def read_json(text: str, path: str) -> Any:
    from advisor.sources import json_reader  # imported when a JSON file is read

    return json_reader.read_json(text, path)


def read_toml(text: str, path: str) -> Any:
    from advisor.sources import toml_reader  # imported when a TOML file is read

    try:
        return toml_reader.read_toml(text, path)
    except RecursionError as error:  # tomllib parses nested arrays and tables recursively
        raise LoadError(path, 1, "TOML nested too deeply to read: refused") from error


# ---------------------------------------------------------------- YAML


# Aliases let a few hundred bytes stand for billions of nodes ("billion laughs"), and a node may
# contain itself. A document is refused before it is expanded: more nodes than limits.yaml_nodes
# once every alias is expanded, or deeper than limits.depth, is no configuration anyone writes by
# hand (advisor/sources/limits.py; the project config may move them).


def _kids(node: Any) -> list[Any]:
    kind = node.id  # PyYAML's node kinds: "scalar", "sequence", "mapping" (cheaper than isinstance)
    if kind == "mapping":
        return [part for pair in node.value for part in pair]
    if kind == "sequence":
        return node.value  # type: ignore[no-any-return]
    return []


def _check_tree(root: Any, path: str) -> None:
    """`_check_shape` for a document without aliases, where no node is shared: its size is its
    node count, counted in one pass (most files)."""
    bounds = limits.current()
    count = 0
    stack: list[tuple[Any, int]] = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > bounds.yaml_nodes:
            message = f"YAML of more than {bounds.yaml_nodes:,} nodes (limits.yaml-nodes): refused unread"
            raise LoadError(path, node.start_mark.line + 1, message)
        if depth > bounds.depth:
            raise LoadError(path, node.start_mark.line + 1, f"YAML nested deeper than {bounds.depth} levels")
        kind = node.id
        if kind == "mapping":
            for key, value in node.value:
                stack.append((key, depth + 1))
                stack.append((value, depth + 1))
        elif kind == "sequence":
            stack.extend((child, depth + 1) for child in node.value)


def _check_shape(root: Any, path: str) -> None:
    """Refuse alias bombs, recursive aliases and deep nesting in time and memory linear in the
    composed (unexpanded) document: each container's expanded size is computed once, on the way
    back up; scalars are counted where their container is entered (most nodes, never shared
    in a way that matters: a scalar alias adds one node)."""
    bounds = limits.current()
    if root.id == "scalar":
        return
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    # frames: [node, its container children not yet counted, expanded size so far, depth]
    frames: list[list[Any]] = []

    def enter(node: Any, depth: int) -> None:
        kids = _kids(node)
        if kids and depth + 1 > bounds.depth:
            raise LoadError(path, kids[-1].start_mark.line + 1, f"YAML nested deeper than {bounds.depth} levels")
        containers = [kid for kid in kids if kid.id != "scalar"]
        containers.reverse()  # popped from the end: in document order
        on_path.add(id(node))
        frames.append([node, containers, 1 + len(kids) - len(containers), depth])

    enter(root, 0)
    while frames:
        frame = frames[-1]
        pending = frame[1]
        if pending:
            child = pending.pop()
            known = sizes.get(id(child))
            if known is not None:
                frame[2] += known
            elif id(child) in on_path:
                raise LoadError(path, child.start_mark.line + 1, "a YAML alias refers to a node that contains it")
            else:
                enter(child, frame[3] + 1)
            continue
        frames.pop()
        node, size = frame[0], frame[2]
        if size > bounds.yaml_nodes:
            raise LoadError(path, node.start_mark.line + 1, f"YAML aliases expand to more than "
                            f"{bounds.yaml_nodes:,} nodes (an alias bomb?): refused unread")  # fmt: skip
        on_path.discard(id(node))
        sizes[id(node)] = size
        if frames:
            frames[-1][2] += size


def _yaml_value(node: Any, done: dict[int, Any]) -> Any:
    """The node as Located / LocatedList / scalars; a node an alias shares is converted once.
    (Node kinds told by `node.id`, scalars converted in place: the hot loop of every YAML read.)"""
    kind = node.id
    if kind == "scalar":
        return _scalar(node)
    converted = done.get(id(node))
    if converted is not None:
        return converted
    if kind == "mapping":
        mapping = Located()
        mapping.line = node.start_mark.line + 1
        nodes = mapping._nodes = {}  # spans made from these only where asked for (spans.Located)
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE:  # `<<: *anchor`
                merged = value_node.value if value_node.id == "sequence" else [value_node]
                for source in merged:
                    base = _yaml_value(source, done)
                    if not isinstance(base, Located):
                        continue
                    base_nodes = base._nodes or {}  # this parse made it: no span asked for yet
                    for name, value in base.items():
                        if name not in mapping:
                            mapping[name] = value
                            nodes[name] = base_nodes[name]
                continue
            key = key_node.value
            if key.__class__ is not str:
                key = str(key)
            if key in mapping:
                mapping.duplicates.append((key, node_span(nodes[key][0])))
            if value_node.id == "scalar":
                mapping[key] = _scalar(value_node)
            else:
                mapping[key] = _yaml_value(value_node, done)
            nodes[key] = (key_node, value_node)
        done[id(node)] = mapping
        return mapping
    items = LocatedList()
    items.line = node.start_mark.line + 1
    for item in node.value:
        items.append(_scalar(item) if item.id == "scalar" else _yaml_value(item, done))
        items.spans.append(node_span(item))
    done[id(node)] = items
    return items


def _scalar(node: Any) -> str | None:
    if node.tag == _NULL:
        return None
    value = node.value
    return value if isinstance(value, str) else str(value)


_NULL, _MERGE = "tag:yaml.org,2002:null", "tag:yaml.org,2002:merge"
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})  # YAML 1.1's null, as PyYAML's resolver reads it


@cache
def _composer() -> Any:
    """libyaml's composer resolving only the tags read here — null and merge — where PyYAML's
    resolver matches every plain scalar against patterns for ints, floats, booleans and
    timestamps whose tags nothing reads (scalars stay as written). Without libyaml, PyYAML's
    own SafeLoader. PyYAML is imported with its patterns compiled on first use (lazy_re)."""
    yaml = lazy_re.import_package("yaml")
    if not yaml.__with_libyaml__:
        return yaml.SafeLoader
    from yaml.cyaml import CParser
    from yaml.resolver import BaseResolver

    class Composer(CParser, BaseResolver):  # type: ignore[misc]
        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            BaseResolver.__init__(self)

        # PyYAML's path resolvers (add_path_resolver) are never registered: the composer's call
        # for every node need not look for them.
        def descend_resolver(self, current_node: Any, current_index: Any) -> None:
            return None

        def ascend_resolver(self) -> None:
            return None

        def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
            if kind is yaml.ScalarNode:
                if implicit[0] and value in _NULLS:
                    return _NULL
                if implicit[0] and value == "<<":
                    return _MERGE
                return self.DEFAULT_SCALAR_TAG
            return self.DEFAULT_SEQUENCE_TAG if kind is yaml.SequenceNode else self.DEFAULT_MAPPING_TAG

    return Composer


# The last text read and its documents: a file is read by the sniffers that look at it in turn
# (compose, Helm, Spring…) and by the loader that claims it, one after the other — the same
# reading, never changed by any of them (readers only read), so it is done once.
_last: list[Any] = [None, None, None]  # [text, limits, documents]


def read_yaml(text: str, path: str) -> list[Any]:
    """Every document of a (multi-document) YAML stream."""
    bounds = limits.current()
    if _last[0] is text and _last[1] is bounds:
        return list(_last[2])
    documents = _read_yaml(text, path)
    _last[:] = [text, bounds, documents]
    return list(documents)


def _read_yaml(text: str, path: str) -> list[Any]:
    loader_class = _composer()
    import yaml  # imported by _composer

    try:
        documents = []
        aliased = "*" in text  # an alias is written `*name`: without a star no node is shared
        for node in yaml.compose_all(text, Loader=loader_class):
            if node is not None:
                (_check_shape if aliased else _check_tree)(node, path)
                documents.append(_yaml_value(node, {}))
        return documents
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        problem = getattr(error, "problem", None) or str(error)
        raise LoadError(path, (mark.line + 1) if mark else 1, f"invalid YAML: {problem}") from error
