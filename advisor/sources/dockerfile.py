"""Dockerfiles that build a broker image: the final stage's `ENV` variables, read as the
image they start `FROM` reads them (advisor/sources/compose.py: apache/kafka and Confluent
`KAFKA_*`, Bitnami `KAFKA_CFG_*`; KAFKA_HEAP_OPTS and the other JVM variables as facts).

A Dockerfile is a broker's when its final stage runs a broker image as it is (apache/kafka,
confluentinc/cp-kafka, bitnami/kafka, ...; not with an ENTRYPOINT or CMD running a CLI tool or
Connect) or sets a broker's own variables (KAFKA_NODE_ID, KAFKA_LISTENERS, ...), whatever its
base. Content decides, not the file's name. `ARG` defaults and earlier `ENV` values are
substituted as the builder does; a variable nothing sets stays `${NAME}` (templated: not
judged). The release comes from the base image's tag, else from a Kafka download the file
names (kafka_2.13-3.7.1.tgz).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from pathlib import Path

from advisor import TYPE_CHECKING, lazy_re
from advisor.catalog import surfaces
from advisor.model.document import ConfigSet, LoadError, SourceFile
from advisor.sources import compose, jvm_env
from advisor.sources import directives as directive_syntax
from advisor.sources.spans import LineIndex, raw_text

if TYPE_CHECKING:
    from typing import Any

FORMAT = "dockerfile"
_INSTRUCTION = lazy_re.compile(r"^\s*([A-Za-z]+)(?:\s+|$)")
_FIRST_INSTRUCTIONS = ("FROM", "ARG")  # a Dockerfile starts with one of these (parser directives aside)
_KNOWN = frozenset(
    ("FROM", "ARG", "ENV", "RUN", "CMD", "ENTRYPOINT", "COPY", "ADD", "EXPOSE", "LABEL", "USER", "WORKDIR",
     "VOLUME", "HEALTHCHECK", "SHELL", "STOPSIGNAL", "ONBUILD", "MAINTAINER")
)  # fmt: skip
_SUBSTITUTION = lazy_re.compile(
    r"\$(?:\{(?P<braced>[A-Za-z_]\w*)(?::(?P<op>[-+])(?P<arg>[^}]*))?\}|(?P<bare>[A-Za-z_]\w*))"
)
_MENTIONS_BROKER = lazy_re.compile(
    r"\bKAFKA_(?:CFG_)?(?:NODE_ID|BROKER_ID|PROCESS_ROLES|LISTENERS|ADVERTISED_LISTENERS|ZOOKEEPER_CONNECT)\b"
    r"|^\s*FROM\s+(?:--\S+\s+)*\S*(?:/|\s)(?:cp-)?kafka(?:-native)?[:@\s]",
    re.MULTILINE | re.IGNORECASE,
)
_DOWNLOAD = lazy_re.compile(r"\bkafka_2\.\d+-(\d+\.\d+(?:\.\d+)?)\.t(?:ar\.)?gz\b")


class _Instruction:
    """One instruction with its continuation lines joined; `offsets` maps its text back to the file."""

    __slots__ = ("keyword", "line", "offsets", "text")

    def __init__(self, keyword: str, text: str, line: int, offsets: list[tuple[int, int]]) -> None:
        self.keyword, self.text, self.line, self.offsets = keyword, text, line, offsets

    def original(self, at: int) -> int:
        """The file offset of character `at` of `text` (segments: (text start, file start))."""
        index = bisect_right([start for start, _ in self.offsets], at) - 1
        start, origin = self.offsets[max(index, 0)]
        return origin + at - start


def _instructions(text: str) -> list[_Instruction]:
    """Instructions in order: comment lines dropped (inside continuations too), `\\` joins lines."""
    found: list[_Instruction] = []
    parts: list[str] = []
    offsets: list[tuple[int, int]] = []
    length, first_line, position = 0, 0, 0
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        body = line.rstrip("\r\n")
        start = position
        position += len(line)
        if body.lstrip().startswith("#") or (not parts and not body.strip()):
            continue
        if not parts:
            first_line = number
        continued = body.rstrip().endswith("\\")
        piece = body.rstrip()[:-1] if continued else body
        offsets.append((length, start))
        parts.append(piece)
        length += len(piece)
        if not continued:
            joined = "".join(parts)
            match = _INSTRUCTION.match(joined)
            if match:
                found.append(_Instruction(match.group(1).upper(), joined, first_line, offsets))
            parts, offsets, length = [], [], 0
    if parts:
        joined = "".join(parts)
        if match := _INSTRUCTION.match(joined):
            found.append(_Instruction(match.group(1).upper(), joined, first_line, offsets))
    return found


def _substituted(value: str, variables: dict[str, str]) -> str:
    """`$NAME`, `${NAME}`, `${NAME:-word}`, `${NAME:+word}` as the builder expands them; an unset
    name with no default is kept as written (a template)."""

    def expand(match: Any) -> str:
        name = match["braced"] or match["bare"]
        known = variables.get(name)
        if match["op"] == "-":
            return known if known else match["arg"]
        if match["op"] == "+":
            return match["arg"] if known else ""
        return known if known is not None else match.group()

    return _SUBSTITUTION.sub(expand, value)


def _words(text: str, start: int) -> list[tuple[str, int, int]]:
    """Shell-like words of text[start:]: (the word unquoted, its start, its end) in `text`."""
    words: list[tuple[str, int, int]] = []
    at, size = start, len(text)
    while at < size:
        while at < size and text[at].isspace():
            at += 1
        if at >= size:
            break
        begin, word, quote = at, [], ""
        while at < size and (quote or not text[at].isspace()):
            char = text[at]
            if quote:
                if char == quote:
                    quote = ""
                elif char == "\\" and quote == '"' and at + 1 < size:
                    at += 1
                    word.append(text[at])
                else:
                    word.append(char)
            elif char in "\"'":
                quote = char
            elif char == "\\" and at + 1 < size:
                at += 1
                word.append(text[at])
            else:
                word.append(char)
            at += 1
        words.append(("".join(word), begin, at))
    return words


_Entry = compose.Entry


class _Stage:
    def __init__(self, image: str, line: int, inherited: _Stage | None) -> None:
        self.image: str = inherited.image if inherited else image
        self.line = line
        self.entries: list[_Entry] = list(inherited.entries) if inherited else []
        self.variables: dict[str, str] = dict(inherited.variables) if inherited else {}
        self.runs: str = inherited.runs if inherited else ""  # ENTRYPOINT / CMD text


def _env(instruction: _Instruction, stage: _Stage, index: LineIndex, path: str, text: str) -> None:
    body_at = _INSTRUCTION.match(instruction.text).end()  # type: ignore[union-attr]
    words = _words(instruction.text, body_at)
    if not words:
        return
    pairs: list[tuple[str, str, int, int, int]] = []  # name, value, name start, value start, value end
    if "=" in words[0][0]:
        for word, begin, end in words:
            name, equals, value = word.partition("=")
            written_equals = instruction.text.find("=", begin, end)
            if not equals or not name or written_equals < 0:  # as the builder refuses them
                why = "ENV names can not be blank" if equals else f"ENV {word!r} has no '=': write NAME=value"
                raise LoadError(path, instruction.line, why)
            pairs.append((name, value, begin, written_equals + 1, end))
    else:  # the legacy `ENV NAME value with spaces`
        name, begin, end = words[0]
        rest_start = len(instruction.text) - len(instruction.text[end:].lstrip())
        value = instruction.text[rest_start:].rstrip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        pairs.append((name, value, begin, rest_start, len(instruction.text.rstrip())))
    for name, value, name_start, value_start, value_end in pairs:
        expanded = _substituted(value, stage.variables)
        stage.variables[name] = expanded
        key = index.span(instruction.original(name_start), instruction.original(name_start) + len(name)).at(path)
        value_span = index.span(
            instruction.original(value_start), instruction.original(max(value_end - 1, value_start)) + 1
        )
        where = value_span.at(path) if value_end > value_start else None
        raw = raw_text(text, where)
        stage.entries = [e for e in stage.entries if e[0] != name]  # a later ENV replaces an earlier one
        stage.entries.append((name, expanded, key, where, raw))


def _stages(text: str, path: str) -> tuple[list[_Stage], dict[str, str]]:
    """The build's stages in order and the global ARG defaults."""
    index = LineIndex(text)
    global_args: dict[str, str] = {}
    stages: list[_Stage] = []
    named: dict[str, _Stage] = {}
    for instruction in _instructions(text):
        body = instruction.text[_INSTRUCTION.match(instruction.text).end() :]  # type: ignore[union-attr]
        if instruction.keyword == "FROM":
            words = [w for w, _, _ in _words(body, 0) if not w.startswith("--")]
            image = _substituted(words[0], global_args) if words else ""
            stage = _Stage(image, instruction.line, named.get(image.lower()))
            stage.variables = {**global_args, **stage.variables}
            if len(words) >= 3 and words[1].lower() == "as":
                named[words[2].lower()] = stage
            stages.append(stage)
        elif instruction.keyword == "ARG":
            for word, _, _ in _words(body, 0):
                name, has_default, default = word.partition("=")
                target = stages[-1].variables if stages else global_args
                if has_default:
                    target.setdefault(name, _substituted(default, target))
                elif stages and name in global_args:
                    target[name] = global_args[name]  # ARG NAME in a stage brings the global default in
        elif instruction.keyword == "ENV" and stages:
            _env(instruction, stages[-1], index, path, text)
        elif instruction.keyword in ("CMD", "ENTRYPOINT") and stages:
            stages[-1].runs += " " + body
    return stages, global_args


def _is_dockerfile(text: str) -> bool:
    instructions = _instructions(text[:65536])
    return (
        bool(instructions)
        and instructions[0].keyword in _FIRST_INSTRUCTIONS
        and all(i.keyword in _KNOWN for i in instructions)
    )


def _is_broker(stage: _Stage) -> bool:
    variables = [entry[0] for entry in stage.entries]
    if any(v in compose.BROKER_VARIABLES for v in variables):
        return True
    if jvm_env.starts_broker(stage.runs):
        return True  # a broker built from the Kafka download: its JVM variables are what the image sets
    if compose.TOOL_COMMAND.search(stage.runs):
        return False
    return compose.broker_image(stage.image) or compose.sets_broker_variables(variables)


def _read_as_settings(stage: _Stage) -> list[_Entry]:
    """What the image turns into broker settings: every variable for a broker image or one that
    sets a broker's own variables (its entrypoint converts them, as compose's do); otherwise
    (kafka-server-start from the download) only the JVM variables, which the start script reads."""
    if compose.broker_image(stage.image) or compose.sets_broker_variables([entry[0] for entry in stage.entries]):
        return stage.entries
    return [entry for entry in stage.entries if entry[0] in surfaces.JVM_VARIABLES]


def sniff(path: Path, text: str) -> Any:
    if not _is_dockerfile(text):
        return None
    try:
        stages, _ = _stages(text, str(path))
    except LoadError as error:  # claimed if it is a broker's by what it names: load() says where and why
        return ("error", error) if _MENTIONS_BROKER.search(text) else None
    return ("dockerfile", None) if stages and _is_broker(stages[-1]) else None


def load(path: str, text: str, payload: Any, options) -> tuple[SourceFile, list[ConfigSet]]:  # type: ignore[no-untyped-def]
    if payload and payload[0] == "error":
        raise payload[1]
    found = directive_syntax.in_hash_comments(text, path)
    source = SourceFile(path, text, FORMAT, found)
    stages, _ = _stages(text, path)
    if not stages:
        raise LoadError(path, 1, "no FROM instruction: not a Dockerfile kafka-advisor can read")
    stage = stages[-1]
    anchor = (stage.entries[0][2].line, stage.entries[0][2].column) if stage.entries else (stage.line, 1)
    config_set = compose.broker_config_set(path, Path(path).name, stage.image, _read_as_settings(stage), anchor)
    if not compose.broker_image(stage.image):  # another image's tag (openjdk:11.0) is not Kafka's release
        config_set.kafka_version = config_set.kafka_version_from = None
    if config_set.kafka_version is None:
        download = _DOWNLOAD.search(_substituted(text, stage.variables))
        if download:
            config_set.kafka_version = download.group(1)
            config_set.kafka_version_from = f"the Kafka download {download.group()}"
    directive_syntax.apply_file_settings([config_set], found)
    return source, [config_set]
