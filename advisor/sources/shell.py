"""Shell scripts that call kafka-topics, kafka-configs, kafka-reassign-partitions or kafka-acls
(with or without `.sh`, any path prefix).

Each invocation becomes a config set: topic configs given with `--config` (kafka-topics) or
`--add-config` (kafka-configs on topics or brokers) are its settings, so the topic and broker
rules check them; every invocation carries its tool, flags and line as `facts.command` for
the operations rules (throttles, removed flags, replication factors). Principals that
kafka-acls --add lets in are `facts.principals`; client quotas set with kafka-configs are
`facts.quotas`, by name only: the same flag carries SCRAM credentials, which are never kept.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from advisor import lazy_re
from advisor.model.document import ConfigSet, LoadError, Setting, SourceFile
from advisor.model.provenance import Location
from advisor.secrets import is_secret_key
from advisor.sources import directives as directive_syntax
from advisor.sources import jvm_env, shell_words

FORMAT = "shell"
_TOOL = lazy_re.compile(r"(?:^|/)kafka-(topics|configs|reassign-partitions|acls)(?:\.sh)?$")
_MENTION = lazy_re.compile(r"kafka-(topics|configs|reassign-partitions|acls)")
_SEPARATORS = {"&&", "||", ";", "|", "&", ";;"}
_REPEATABLE = {"--config", "--add-config", "--delete-config"}  # values may hold secrets: not kept in facts
_LISTED = {"--allow-principal", "--deny-principal", "--operation"}  # repeatable and kept
# Client quota names kafka-configs takes for users and clients: exactly Kafka's
# QuotaConfig.userAndClientQuotaConfigs(); the tool refuses others (tests/integration/test_cli_tools.py).
QUOTA_KEYS = ("producer_byte_rate", "consumer_byte_rate", "request_percentage", "controller_mutation_rate")


def sniff(path: Path, text: str) -> Any:
    shell = path.suffix in (".sh", ".bash") or (text.startswith("#!") and re.match(r"#!.*\b(ba|z|da)?sh\b", text))
    return True if shell and _MENTION.search(text) else None  # a broker start script alone: jvm_env's


def _logical_lines(text: str) -> list[tuple[int, int, str]]:
    """(first line, last line, text) with backslash continuations joined; comments skipped."""
    result = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        start, parts = index, [lines[index]]
        while parts[-1].rstrip().endswith("\\") and index + 1 < len(lines):
            index += 1
            parts[-1] = parts[-1].rstrip()[:-1]
            parts.append(lines[index])
        index += 1
        logical = " ".join(parts)  # joined once: a long run of continuations costs its length, not its square
        if logical.strip() and not logical.lstrip().startswith("#"):
            result.append((start + 1, index, logical))
    return result


def _commands(tokens: list[str]) -> list[list[str]]:
    commands, current = [], []
    for token in tokens:
        if token in _SEPARATORS:
            commands.append(current)
            current = []
        else:
            current.append(token)
    return [c for c in [*commands, current] if c]


def _flags(arguments: list[str]) -> dict[str, Any]:
    flags: dict[str, Any] = {}
    index = 0
    while index < len(arguments):
        token = arguments[index]
        index += 1
        if not token.startswith("--"):
            continue
        name, equals, value = token.partition("=")
        if not equals and index < len(arguments) and not arguments[index].startswith("--"):
            value, index = arguments[index], index + 1
        elif not equals:
            value = True
        if name in _REPEATABLE or name in _LISTED:
            flags.setdefault(name, []).append(value)
        else:
            flags[name] = value
    return flags


def _config_pairs(values: list[str]) -> list[tuple[str, str]]:
    """--config k=v (once per flag) and --add-config 'k=v,k2=[a,b]' (comma list, [] groups lists)."""
    pairs = []
    for value in values:
        if not isinstance(value, str):
            continue
        for part in re.split(r",(?![^\[]*\])", value):
            key, sep, item = part.partition("=")
            if sep and key.strip():
                pairs.append((key.strip(), item.strip().strip("[]")))
    return pairs


def _flag_line(lines: list[str], first: int, last: int, flag: str) -> int:
    for number in range(first, last + 1):
        if flag in lines[number - 1]:
            return number
    return first


_VALUE_END = lazy_re.compile(r"\[[^\]]*\]|[^,\s'\"\\]*")


def _spans(
    path: str, lines: list[str], first: int, last: int, key: str
) -> tuple[Location, Location | None, str | None]:
    """Where `key=value` stands in the command's lines: the key, and its value up to the next
    comma, space or quote (a `[a,b]` list whole). The line alone when the text is not found
    as written (a variable, an escape)."""
    needle = f"{key}="
    for number in range(first, last + 1):
        text = lines[number - 1]
        at = text.find(needle)
        if at != -1 and (at == 0 or not (text[at - 1].isalnum() or text[at - 1] in "._-")):
            start = at + len(needle)
            written = _VALUE_END.match(text, start).group()  # type: ignore[union-attr]
            key_location = Location(path, number, at + 1, number, at + 1 + len(key))
            return key_location, Location(path, number, start + 1, number, start + 1 + len(written)), written
    return Location(path, _flag_line(lines, first, last, needle)), None, None


# kafka-configs' shorter entity options (2.6 on; the 2.8.2 and 4.4 tools list them): the entity
# type, and the option naming the entity or its defaults.
_ENTITY_OPTIONS = {
    "--broker": "brokers", "--broker-defaults": "brokers", "--topic": "topics", "--broker-logger": "broker-loggers",
    "--user": "users", "--user-defaults": "users", "--client": "clients", "--client-defaults": "clients",
}  # fmt: skip


def _configs_entity(flags: dict[str, Any]) -> tuple[str | None, str | None, bool]:
    """kafka-configs' entity: its type, name and whether it is the type's default entity,
    written out (--entity-type brokers --entity-name 1) or short (--broker 1, --broker-defaults)."""
    entity, name = flags.get("--entity-type"), flags.get("--entity-name")
    default = "--entity-default" in flags
    for option, kind in _ENTITY_OPTIONS.items():
        if option in flags:
            entity = kind
            if option.endswith("-defaults"):
                default = True
            elif isinstance(flags[option], str):
                name = flags[option]
    return entity, name if isinstance(name, str) else None, default


def _config_set(path: str, tool: str, flags: dict[str, Any], first: int, last: int, lines: list[str]) -> ConfigSet:
    entity, entity_name, entity_default = _configs_entity(flags) if tool == "configs" else (None, None, False)
    if tool == "topics" and ("--create" in flags or "--alter" in flags):
        component = "topic"
    elif tool == "configs" and entity in ("topics", "brokers", "broker-loggers"):
        component = "topic" if entity == "topics" else "broker"
    else:
        component = "admin"
    target = entity_name or flags.get("--topic") or ""
    quotas = []
    if tool == "configs" and (entity in ("users", "clients") or entity_default):
        quotas = sorted({key for key, _ in _config_pairs(flags.get("--add-config", [])) if key in QUOTA_KEYS})
    granted = flags.get("--allow-principal", []) if tool == "acls" and "--add" in flags else []
    config_set = ConfigSet(
        component=component,
        path=path,
        anchor=Location(path, first),
        name=f"kafka-{tool} {target}".strip(),
        facts={
            "command": {
                "tool": f"kafka-{tool}",
                "flags": {k: v for k, v in flags.items() if k not in _REPEATABLE},
                "line": first,
                "flag_lines": {flag: _flag_line(lines, first, last, flag) for flag in flags},
                **({"entity": {"type": entity, "name": entity_name, "default": entity_default}} if entity else {}),
            },
            "principals": [p for p in granted if isinstance(p, str)],
            "quotas": quotas,
        },
    )
    if component == "topic" and isinstance(target, str) and target:
        config_set.facts["topic_name"] = target
    if component == "broker" and entity == "brokers":
        # A running cluster's dynamic update, not a broker's file: what it leaves out is the
        # brokers' own (unknown here), and it stands for no broker of its own (analysis/peers.py
        # applies it over the broker files it names).
        config_set.facts["defaults_unknown"] = True
        config_set.facts["dynamic_update"] = {"default": entity_default, "broker": entity_name}
    if tool == "topics" and "--create" in flags:  # what the topic rules read of a Strimzi topic too
        config_set.facts["partitions"] = flags.get("--partitions")
        config_set.facts["replicas"] = flags.get("--replication-factor")
    if component != "admin":
        values = flags.get("--config", []) + flags.get("--add-config", [])
        for key, value in _config_pairs(values):
            where, value_where, written = _spans(path, lines, first, last, key)
            secret = is_secret_key(key)
            config_set.add(Setting(key, value, key, where, secret, value_where, None if secret else written))
    return config_set


# `KT=/opt/kafka/bin/kafka-topics.sh`, `BS=${BOOTSTRAP:-kafka:9092}`: simple assignments a
# script's later commands use as `$KT`/`${BS}`. Command substitutions are not run.
# A value is one word, or one quoted string (`CMD="--bootstrap-server $BS --execute"`: a command's
# arguments kept in a variable and used unquoted, so they split into words where they are used).
_ASSIGNMENT = lazy_re.compile(
    r"^\s*(?:export\s+|readonly\s+|local\s+)?(?P<name>[A-Za-z_]\w*)=(?P<value>\"[^\"]*\"|'[^']*'|\S+)\s*$"
)
_DEFAULTED = lazy_re.compile(r"^\$\{\w+:?-(?P<default>[^}]*)\}$")
_REFERENCE = lazy_re.compile(r"\$\{(?P<braced>[A-Za-z_]\w*)\}|\$(?P<bare>[A-Za-z_]\w*)")


def _variables(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for _, _, logical in _logical_lines(text):
        match = _ASSIGNMENT.match(logical)
        if not match or "$(" in match["value"] or "`" in match["value"]:
            continue
        written = match["value"]
        if written.startswith("'") and written.endswith("'") and len(written) > 1:
            found[match["name"]] = written[1:-1]  # single quotes: nothing inside is expanded
            continue
        value = _expanded(written.strip("'\""), found) if written.startswith('"') else written.strip("'\"")
        defaulted = _DEFAULTED.match(value)
        found[match["name"]] = defaulted["default"].strip("'\"") if defaulted else value
    return found


_EXPANSION_BUDGET = 1 << 20  # characters put in per line


def _expanded(logical: str, variables: dict[str, str]) -> str:
    """The line with the script's own simple variables put in (others stay as written)."""
    if "$" not in logical or not variables:
        return logical

    budget = _EXPANSION_BUDGET  # a line of a thousand $BIG never becomes gigabytes

    def value(match: re.Match[str]) -> str:
        nonlocal budget
        name = match["braced"] or match["bare"]
        replacement = variables.get(name)
        if replacement is None or len(replacement) > budget:
            return match.group(0)
        budget -= len(replacement)
        return replacement

    return _REFERENCE.sub(value, logical)


def load(path: str, text: str, _payload: Any, options) -> tuple[SourceFile, list[ConfigSet]]:  # type: ignore[no-untyped-def]
    lines = text.splitlines()
    found = directive_syntax.in_hash_comments(text, path)
    source = SourceFile(path, text, FORMAT, found)
    config_sets = []
    variables = _variables(text)
    for first, last, logical in _logical_lines(text):
        logical = _expanded(logical, variables)
        if not _MENTION.search(logical) or _ASSIGNMENT.match(logical):
            continue
        try:
            tokens = shell_words.split(logical)
        except ValueError as error:
            raise LoadError(path, first, f"cannot split the command line: {error}") from error
        for command in _commands(tokens):
            for position, token in enumerate(command):
                match = _TOOL.search(token)
                if match:
                    flags = _flags(command[position + 1 :])
                    config_sets.append(_config_set(path, match.group(1), flags, first, last, lines))
                    break
    _mark_verified_plans(config_sets)
    _named_apart(config_sets)
    if jvm_env.starts_broker(text) and (entries := jvm_env.jvm_entries(Path(path), text)):
        config_sets.append(jvm_env.broker_jvm(path, entries))  # the script also starts the broker
    directive_syntax.apply_file_settings(config_sets, found)
    return source, config_sets


def _named_apart(config_sets: list[ConfigSet]) -> None:
    """A command named like an earlier one of the script (an --execute and its --verify) is named
    with its line too: a finding or a fix must tell which call it is about."""
    seen: set[str] = set()
    for config_set in config_sets:
        if config_set.name in seen:
            config_set.name = f"{config_set.name} (line {config_set.anchor.line})"
        seen.add(config_set.name)


def _mark_verified_plans(config_sets: list[ConfigSet]) -> None:
    """A reassignment's throttle is removed only by a later --verify of the same plan, so each
    --execute records whether the script runs one (`facts.command.verified_later`)."""
    reassignments = [
        cs.facts["command"] for cs in config_sets if cs.facts["command"]["tool"] == "kafka-reassign-partitions"
    ]
    for index, command in enumerate(reassignments):
        plan = command["flags"].get("--reassignment-json-file")
        command["verified_later"] = any(
            "--verify" in later["flags"] and later["flags"].get("--reassignment-json-file") == plan
            for later in reassignments[index + 1 :]
        )
