"""The writer of every format but `.properties`: YAML (Spring, compose, Strimzi, Helm, client dicts),
JSON and TOML client dicts, `.env` files, Spring's application.properties. It proposes candidate
edits; fix/readback.py keeps the first one that reading the file back proves right, so a guess
here can cost a patch but never give a wrong one.

set a written key     the value's span is replaced, in the style it was written (quoted stays
                      quoted; a value inside a `KEY=value` string stays bare)
set an absent key     a sibling entry of the same config set is the template: its line repeated
                      after it with the new key in the same form (Kafka's name, a Spring
                      `properties` map entry, an image's environment variable, kafka-python's
                      keyword) and the new value — each sibling in turn, the last written first
remove a written key  the lines from its key to its value go
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import PurePath

from advisor import lazy_re
from advisor.catalog import surfaces
from advisor.fix.properties_writer import escape_value
from advisor.model.changes import Change, Edit
from advisor.model.document import ConfigSet, Setting, SourceFile

Candidates = Iterator[list[Edit]]

_INTEGER = lazy_re.compile(r"-?(0|[1-9][0-9]*)")
_WORD = lazy_re.compile(r"[A-Za-z][A-Za-z0-9._-]*")
_BARE = lazy_re.compile(r"[A-Za-z0-9._:/@,+-]*")  # safe inside a KEY=value string
# Plain YAML words some parser reads as something else (YAML 1.1 booleans, null).
_YAML_SPECIAL = {"true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"}
_COMMENT = lazy_re.compile(r"\s+#.*$")
_LINE_BREAK = lazy_re.compile(r"\r\n|\n|\r")
_MAX_TEMPLATES = 6  # siblings tried for an absent key


def syntax(source: SourceFile) -> str:
    """The text syntax of a file: yaml, json, toml, properties or env."""
    suffix = PurePath(source.path).suffix.lower()
    if suffix == ".json":
        return "json"
    if suffix == ".toml":
        return "toml"
    if source.format == "properties" or suffix == ".properties":
        return "properties"
    if source.format == "env" or (source.format == "compose" and suffix not in (".yml", ".yaml")):
        return "env"
    return "yaml"


def _quoted(value: str, quote: str) -> str:
    if quote == "'":
        return "'" + value.replace("'", "''") + "'"
    return json.dumps(value)


def render(value: str, raw: str | None, kind: str, typed: bool, inside: bool, compose: bool) -> str | None:
    """`value` as this syntax writes it, in the style of `raw` (the value it replaces or the
    sibling it copies). `typed`: the reader takes numbers and booleans as such (kafka-python);
    `inside`: the value sits in a `KEY=value` string, so it is written bare or not at all."""
    if inside or kind == "env":
        return value if _BARE.fullmatch(value) else None
    if kind == "properties":
        return escape_value(value)
    number = bool(_INTEGER.fullmatch(value))
    boolean = value in ("true", "false")
    quote = raw[0] if raw and raw[0] in "\"'" else None
    if kind in ("json", "toml"):
        if (number or boolean) and (typed or quote is None):
            return value
        return json.dumps(value)
    if quote and not (typed and (number or boolean)):
        return _quoted(value, quote)
    if number or (boolean and not compose):
        return value
    if _WORD.fullmatch(value) and value.lower() not in _YAML_SPECIAL:
        return value
    return json.dumps(value)


def _line_start(text: str, offset: int) -> int:
    return max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1


def _line_end(text: str, offset: int) -> int:
    """The offset just past the line break of the line holding `offset` (the end of the text)."""
    match = _LINE_BREAK.search(text, offset)
    return match.end() if match else len(text)


def _breaks(text: str, value_end: int, end: int) -> tuple[str, str]:
    """(the line break to end a line added after the one ending at `end`, the one to put before
    it): a text that ends on that line without a break gets the break before the added line and
    none after, so it still ends without one."""
    rest = text[value_end:end]
    newline = rest[len(rest.rstrip("\r\n")) :] or ("\r\n" if "\r\n" in text else "\n")
    if end == len(text) and not text.endswith(("\n", "\r")):
        return "", newline
    return newline, ""


def _spans(setting: Setting, path: str) -> tuple[int, int, int, int] | None:
    """(key start, key end, value start, value end) of a setting written in `path`."""
    key, value = setting.location, setting.value_location
    if value is None or key.path != path or value.path != path:
        return None
    if None in (key.offset, key.end_offset, value.offset, value.end_offset):
        return None
    return key.offset, key.end_offset, value.offset, value.end_offset  # type: ignore[return-value]


def _typed(config_set: ConfigSet) -> bool:
    return config_set.client == "kafka-python"


def set_written(change: Change, config_set: ConfigSet, source: SourceFile) -> Candidates:
    setting = config_set.settings.get(change.key)
    spans = _spans(setting, source.path) if setting is not None else None
    if spans is None:
        return
    _, _, start, end = spans
    inside = source.text[max(start - 1, 0) : start] == "=" and syntax(source) == "yaml"
    rendered = render(change.value or "", setting.raw, syntax(source), _typed(config_set), inside,  # type: ignore[union-attr]
                      source.format == "compose")  # fmt: skip
    if rendered is not None:
        yield [Edit(source.path, start, end, rendered)]


def remove_written(change: Change, config_set: ConfigSet, source: SourceFile) -> Candidates:
    setting = config_set.settings.get(change.key)
    spans = _spans(setting, source.path) if setting is not None else None
    if spans is None or syntax(source) == "json":
        return  # a JSON entry's comma belongs to its neighbour: no removal there
    key_start, _, _, value_end = spans
    start = _line_start(source.text, key_start)
    if source.text[start:key_start].strip(" \t-\"'"):
        return  # something else shares the line
    yield [Edit(source.path, start, _line_end(source.text, value_end), "")]


def _forms(config_set: ConfigSet) -> list[Callable[[str], str | None]]:
    """How a key can be written in this set's files: Kafka's (or librdkafka's) name, kafka-python's
    keyword, an image's environment variable. Which one a sibling uses is found in its own text."""
    forms: list[Callable[[str], str | None]] = [lambda key: key]
    if config_set.client == "kafka-python":
        from advisor.recommend import spelling

        role = config_set.component
        forms.insert(0, lambda key: spelling.spell(key, "", "kafka-python", role).key)
    if config_set.component in ("broker", "topic"):
        for image in ("bitnami", "confluent", "apache"):
            forms.append(lambda key, image=image: surfaces.property_to_env(image, key))  # type: ignore[misc]
    if config_set.component in ("zeebe-broker", "camunda-client"):  # Spring's relaxed binding of a variable
        from advisor.catalog import camunda

        forms.append(camunda.variable)
    return forms


def _renamed(sibling: Setting, key_text: str, key: str, config_set: ConfigSet) -> str | None:
    """The sibling's key text with its name in its form replaced by `key` in the same form."""
    for form in _forms(config_set):
        old, new = form(sibling.key), form(key)
        if old and new and old in key_text:
            at = key_text.rfind(old)
            return key_text[:at] + new + key_text[at + len(old) :]
    return None


def insert_absent(change: Change, config_set: ConfigSet, source: SourceFile) -> Candidates:
    text, kind = source.text, syntax(source)
    siblings = []
    for sibling in config_set.settings.values():
        spans = _spans(sibling, source.path)
        if spans is None or sibling.secret:
            continue
        key_start, key_end, value_start, value_end = spans
        if _line_start(text, key_start) != _line_start(text, value_end) or "\n" in text[key_start:value_end]:
            continue  # only a one-line entry is a template
        siblings.append((value_end, sibling, spans))
    tried = set()
    for _, sibling, (key_start, key_end, value_start, value_end) in sorted(siblings, key=lambda s: -s[0]):
        key_text = _renamed(sibling, text[key_start:key_end], change.key, config_set)
        if key_text is None:
            continue
        start = _line_start(text, key_start)
        lead, between = text[start:key_start], text[key_end:value_start]
        inside = between.endswith("=") and kind == "yaml"
        # JSON and TOML say a type by quoting, so a new entry takes its value's type, not its sibling's.
        style = None if kind in ("json", "toml") else sibling.raw
        rendered = render(change.value or "", style, kind, _typed(config_set), inside, source.format == "compose")
        if rendered is None or (lead, between, value_end) in tried:
            continue
        tried.add((lead, between, value_end))
        if kind == "json":  # after the sibling's value, before its comma if any: valid either way
            entry = f"{key_text}{between}{rendered}"
            newline = "\r\n" if "\r\n" in text else "\n"
            spacing = " " if lead.strip() else f"{newline}{lead}"  # an object on one line stays on one line
            yield [Edit(source.path, value_end, value_end, f",{spacing}{entry}")]
        else:
            end = _line_end(text, value_end)
            rest = text[value_end:end].rstrip("\r\n")
            tail = "" if kind == "properties" else _COMMENT.sub("", rest)
            newline, before = _breaks(text, value_end, end)
            yield [Edit(source.path, end, end, f"{before}{lead}{key_text}{between}{rendered}{tail}{newline}")]
        if len(tried) >= _MAX_TEMPLATES:
            return


def spring_properties_entry(change: Change, config_set: ConfigSet, source: SourceFile) -> Candidates:
    """A Spring client set with typed properties only: the key goes into Boot's pass-through map
    `spring.kafka.<role>.properties` — a new flat line beside a flat typed one, or a new nested
    `properties:` map after a nested typed one."""
    text, kind = source.text, syntax(source)
    prefix = f"spring.kafka.{config_set.component}."
    typed = [(s, spans) for s in config_set.settings.values() if s.spelling.startswith(prefix)
             and not s.spelling.startswith(prefix + "properties") and not s.secret
             and (spans := _spans(s, source.path)) is not None]  # fmt: skip
    value = render(change.value or "", None, kind, False, False, False)
    if value is None:
        return
    for sibling, (key_start, key_end, value_start, value_end) in sorted(typed, key=lambda t: -t[1][3]):
        key_text, start = text[key_start:key_end], _line_start(text, key_start)
        lead, between = text[start:key_start], text[key_end:value_start]
        if lead.strip():
            continue
        end = _line_end(text, value_end)
        newline, before = _breaks(text, value_end, end)
        if key_text == sibling.spelling:  # flat: spring.kafka.producer.acks
            line = f"{lead}{prefix}properties.{change.key}{between}{value}{newline}"
            yield [Edit(source.path, end, end, f"{before}{line}")]
        elif kind == "yaml" and sibling.spelling == prefix + key_text:  # nested under spring.kafka.<role>
            entry = f"{lead}  {change.key}: {value}{newline}"
            yield [Edit(source.path, end, end, f"{before}{lead}properties:{newline}{entry}")]
            # The map an earlier change of this plan began at this very place (joined inserts): one more entry.
            yield [Edit(source.path, end, end, entry)]


def candidates(change: Change, config_set: ConfigSet, source: SourceFile) -> Candidates:
    """Every way this writer would make the change, the likeliest first."""
    if change.action == "remove":
        yield from remove_written(change, config_set, source)
    elif change.key in config_set.settings:
        yield from set_written(change, config_set, source)
    else:
        yield from insert_absent(change, config_set, source)
        if source.format == "spring" and config_set.component in ("producer", "consumer"):
            yield from spring_properties_entry(change, config_set, source)
        if source.format == "camunda" and config_set.facts.get("spring_file") and syntax(source) == "yaml":
            from advisor.fix import nested_yaml

            value = render(change.value or "", None, "yaml", False, False, False)
            if value is not None:
                yield from nested_yaml.nested_entry(change, config_set, source, value)
