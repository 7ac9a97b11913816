"""A Terraform `helm_release` of Bitnami's kafka chart as the values it installs the chart with,
merged as the Helm provider merges them (terraform-provider-helm's getValues): each item of its
`values` list in turn — a file it names (`file()`, `templatefile()`), a YAML heredoc, a
`yamlencode({...})` object — maps merged key by key and anything else replaced, then its `set`,
`set_sensitive` and `set_list` entries (`name` a Helm --set path: `a.b`, `a[0].b`, `a\\.b`).
Spans point into the .tf file; a release merged over a values file keeps both files' spans
(spans.Located.origin and .origins).

What Terraform computes — `var.values`, `yamlencode(local.x)`, a `dynamic "set"` block, a file
path built from variables — is not in the file: each such part is said, never passed over.
"""

from __future__ import annotations

import os

from advisor import TYPE_CHECKING, lazy_re
from advisor.model.document import LoadError, Problem
from advisor.named_tuple import NamedTuple
from advisor.sources.hcl_reader import Block, Value, read_value_at
from advisor.sources.spans import Located, LocatedList, Span

if TYPE_CHECKING:
    from typing import Any

# file("${path.module}/values.yaml"), templatefile("values/kafka.yaml", {...}): the file, from the module's folder
_VALUES_FILE = lazy_re.compile(
    r"\b(?:file|templatefile)\(\s*\"(?:\$\{path\.(?:module|root|cwd)\}/)?(?P<file>[^\"$]+)\""
)
_FILE_CALL = lazy_re.compile(r"\b(?:file|templatefile)\(")
_ENCODED = lazy_re.compile(r"^(?:yamlencode|jsonencode)\(\s*")
_SETS = ("set", "set_sensitive", "set_list")  # the order the provider applies them in
MAX_INDEX = 1000  # a --set list index beyond this is no value anyone writes (Helm's own bound is 65536)


class Release(NamedTuple):
    name: str  # the resource's label: helm_release.NAME
    line: int
    chart_version: str | None  # a literal version; None when computed or absent
    version_written: str  # as written ("26.8.5", "var.kafka_chart"), "" when absent
    files: list[str]  # the values files it names, absolute paths, in order
    layers: list[Located]  # its inline values, then its set entries: each merged over the ones before
    unread: list[Problem]  # the parts Terraform computes, said where they are written


def is_bitnami_kafka(block: Block) -> bool:
    chart = _literal(block.attributes.get("chart")) or ""
    repository = _literal(block.attributes.get("repository")) or ""
    return chart.endswith(("bitnamicharts/kafka", "bitnami/kafka")) or (chart == "kafka" and "bitnami" in repository)


def _literal(value: Value | None) -> str | None:
    """A literal as text; an expression as a template (`${...}`: not judged); None when absent."""
    if value is None or isinstance(value.value, (list, dict)):
        return None
    if value.expression:
        return "${" + str(value.value) + "}"
    if isinstance(value.value, bool):
        return "true" if value.value else "false"
    return str(value.value)


def release(block: Block, path: str, text: str, origin: str | None = None) -> Release:
    """The release a `helm_release` block declares. `origin`: the .tf file's path when its values
    are to be merged over another file's (spans say which file they are in)."""
    name = block.labels[1] if len(block.labels) > 1 else "release"
    version = block.attributes.get("version")
    literal = version is not None and not version.expression and isinstance(version.value, str)
    files: list[str] = []
    layers: list[Located] = []
    unread: list[Problem] = []
    folder = os.path.dirname(os.path.abspath(path))
    values = block.attributes.get("values")
    items = [] if values is None else values.value if isinstance(values.value, list) else [values]
    for item in items:
        what = _values_item(item, path, text, origin)
        if isinstance(what, str):
            files.append(os.path.normpath(os.path.join(folder, what)))
        elif isinstance(what, Located):
            layers.append(what)
        else:
            unread.append(_unread(path, item.span.line, name, what[0]))
    sets = _set_layer(block, name, path, text, origin, unread)
    if sets is not None:
        layers.append(sets)
    return Release(name, block.span.line, str(version.value) if literal else None,  # type: ignore[union-attr]
                   "" if version is None else str(version.value), files, layers, unread)  # fmt: skip


def _unread(path: str, line: int, name: str, why: str) -> Problem:
    message = f"helm_release.{name}: {why}, so the chart values it gives are not judged"
    return Problem(path, line, message, "skipped", kafka=True)


def _values_item(item: Value, path: str, text: str, origin: str | None) -> str | Located | tuple[str]:
    """A `values` item: the file it names (relative to the .tf), its inline values, or (why it is not read,)."""
    written = str(item.value) if not isinstance(item.value, (list, dict)) else ""
    if not item.expression and isinstance(item.value, str) and not text.startswith('"', item.span.offset):
        return _heredoc_values(item, path, text, origin)  # <<EOF ... EOF
    if _FILE_CALL.search(written):
        named = _VALUES_FILE.search(written)
        return str(named["file"]) if named else ("the path of a values file it names is computed by Terraform",)
    encoded = _ENCODED.match(written) if item.expression else None
    if encoded and written[encoded.end() :].startswith("{"):
        try:
            parsed = read_value_at(text, path, item.span.offset + encoded.end())
        except LoadError:
            return ("a yamlencode() object it is given could not be read",)
        values = _from_hcl(parsed, origin, text)
        return values if isinstance(values, Located) else ("a yamlencode() call it holds gives no mapping",)
    if item.expression:
        return (f"its values {_short(written)} are computed by Terraform",)
    return ("a values string that is neither a file nor a heredoc is not read",)


def _short(written: str) -> str:
    flat = " ".join(written.split())
    return flat if len(flat) <= 60 else f"{flat[:57]}..."


def _heredoc_values(item: Value, path: str, text: str, origin: str | None) -> Located | tuple[str]:
    """A YAML heredoc, read in place: the text before it blanked (its line breaks kept), so that
    every span is the .tf file's own line, column and offset."""
    from advisor.sources.structured import read_yaml

    start, end = item.span.offset, item.span.end_offset
    if "%{" in text[start:end]:  # `${...}` is a value Terraform fills in (a template); `%{ if }` changes the text
        return ("its values heredoc holds Terraform template directives (%{ }), computed by Terraform",)
    blanked = "".join("\n" if char == "\n" else " " for char in text[:start]) + text[start:end]
    try:
        documents = read_yaml(blanked, path)
    except LoadError as error:
        return (f"its values heredoc is not YAML ({error.message.removeprefix('invalid YAML: ')})",)
    if not documents or not isinstance(documents[0], Located):
        return ("its values heredoc holds no mapping",)
    if origin is not None:
        _mark(documents[0], origin)
    return documents[0]


def _mark(node: Any, origin: str) -> None:
    """Every mapping and list of a tree read from the .tf file, marked as written there."""
    pending = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, Located):
            current.origin = origin
            pending.extend(v for v in current.values() if isinstance(v, (Located, LocatedList)))
        elif isinstance(current, LocatedList):
            current.origin = origin
            pending.extend(v for v in current if isinstance(v, (Located, LocatedList)))


def _new_list(line: int, origin: str | None) -> LocatedList:
    items = LocatedList()
    items.line = line
    if origin is not None:
        items.origin = origin
    return items


def _from_hcl(value: Value, origin: str | None, text: str) -> Any:
    """An HCL value as chart values: objects as mappings, lists as lists, the rest as text."""
    if isinstance(value.value, dict):
        mapping = Located.spanned(value.span.line, origin)
        for key, item in value.value.items():
            mapping.put(key, _from_hcl(item, origin, text), item.key_span or item.span, item.span)
        return mapping
    if isinstance(value.value, list):
        items = _new_list(value.span.line, origin)
        for item in value.value:
            items.append(_from_hcl(item, origin, text))
            items.spans.append(item.span)
        return items
    return _literal(value)


def _set_entries(block: Block, unread: list[Problem], path: str, name: str) -> list[tuple[str, Value, Value | None]]:
    """(kind, name, value) of every set entry, in the order the provider applies them: blocks
    (provider 2) and list attributes (`set = [{...}]`, provider 3) alike."""
    entries: list[tuple[str, Value, Value | None]] = []
    for kind in _SETS:
        for inner in block.blocks:
            if inner.kind == "dynamic" and inner.labels[:1] == [kind]:
                why = f'a dynamic "{kind}" block is computed by Terraform'
                unread.append(_unread(path, inner.span.line, name, why))
            elif inner.kind == kind and "name" in inner.attributes:
                entries.append((kind, inner.attributes["name"], inner.attributes.get("value")))
        written = block.attributes.get(kind)
        if written is None:
            continue
        if written.expression or not isinstance(written.value, list):
            unread.append(_unread(path, written.span.line, name, f"its {kind} entries are computed by Terraform"))
            continue
        for item in written.value:
            if isinstance(item.value, dict) and "name" in item.value:
                entries.append((kind, item.value["name"], item.value.get("value")))
    return entries


def _set_layer(
    block: Block, name: str, path: str, text: str, origin: str | None, unread: list[Problem]
) -> Located | None:
    entries = _set_entries(block, unread, path, name)
    if not entries:
        return None
    root = Located.spanned(entries[0][1].span.line, origin)
    for kind, written, value in entries:
        segments = _set_path(str(written.value)) if not written.expression else None
        if segments is None:
            written_as = _short(str(written.value))
            why = (f"{kind} name {written_as} is computed by Terraform" if written.expression
                   else f"{kind} name {written_as} is no Helm value path it can follow")  # fmt: skip
            unread.append(_unread(path, written.span.line, name, why))
            continue
        shown: Any = _set_value(value, kind, origin, text) if value is not None else None
        if not _assign(root, segments, shown, written.span, (value or written).span, origin):
            unread.append(_unread(path, written.span.line, name, f"{kind} {written.value} crosses a value set before"))
    return root


def _set_value(value: Value, kind: str, origin: str | None, text: str) -> Any:
    if kind == "set_list" or isinstance(value.value, list):
        return _from_hcl(value, origin, text)
    shown = _literal(value)
    if shown is not None and "\\" in shown and not value.expression:
        shown = _unescaped(shown)  # Helm's --set reads a backslash as escaping the next character
    return shown


def _unescaped(value: str) -> str:
    out, escaped = [], False
    for char in value:
        if escaped or char != "\\":
            out.append(char)
            escaped = False
        else:
            escaped = True
    return "".join(out)


def _set_path(name: str) -> list[str | int] | None:
    """Helm's --set path: keys split at dots (`\\.` keeps one), `[N]` list indexes; None when it is
    not one (an empty key, a bad index)."""
    segments: list[str | int] = []
    current: list[str] = []
    at, size = 0, len(name)
    while at < size:
        char = name[at]
        if char == "\\" and at + 1 < size:
            current.append(name[at + 1])
            at += 2
            continue
        if char == ".":
            if current:
                segments.append("".join(current))
                current = []
            elif not segments or not isinstance(segments[-1], int):
                return None
            at += 1
            continue
        if char == "[":
            end = name.find("]", at)
            index = name[at + 1 : end] if end > at else ""
            if not index.isdigit() or int(index) > MAX_INDEX:
                return None
            if current:
                segments.append("".join(current))
                current = []
            elif not segments:
                return None
            segments.append(int(index))
            at = end + 1
            continue
        current.append(char)
        at += 1
    if current:
        segments.append("".join(current))
    return segments if segments and isinstance(segments[0], str) else None


def _assign(root: Located, segments: list[str | int], value: Any, key_span: Span, value_span: Span,
            origin: str | None) -> bool:  # fmt: skip
    """`value` put at `segments`, making the maps and lists on the way; False when the path
    crosses a value of another kind set before (a list where a map is, a text where either is)."""
    node: Any = root
    line = key_span.line
    for at, segment in enumerate(segments):
        last = at == len(segments) - 1
        following = segments[at + 1] if not last else None
        child = (value if last else _new_list(line, origin) if isinstance(following, int)
                 else Located.spanned(line, origin))  # fmt: skip
        if isinstance(segment, str):
            if not isinstance(node, Located):
                return False
            existing = node.get(segment)
            if not last and isinstance(existing, type(child)):
                child = existing
            span = value_span if last else key_span
            node.put(segment, child, key_span, span)
        else:
            if not isinstance(node, LocatedList):
                return False
            while len(node) <= segment:
                node.append(None)
                node.spans.append(key_span)
            existing = node[segment]
            if not last and isinstance(existing, type(child)):
                child = existing
            node[segment] = child
            node.spans[segment] = value_span if last else key_span
        node = child
    return True


def merged(base: Located, layers: list[Located], origin: str | None) -> Located:
    """The layers over `base`, as Helm merges values: maps key by key, anything else replaced.
    Nothing is changed in place (`base` may be a file's parse, shared by its readers): the maps
    a layer writes into are copies. `origin`: the file the layers are in, when not `base`'s."""
    result = base
    for layer in layers:
        result = _merge(result, layer, origin)
    return result


def _merge(base: Located, layer: Located, origin: str | None) -> Located:
    result = base.copied()
    for key, value in layer.items():
        old = result.get(key)
        if isinstance(value, Located) and isinstance(old, Located):
            result[key] = _merge(old, value, origin)
            continue
        result.put(key, value, layer.key_span(key), layer.value_span(key), layer.origin or origin)
    return result
