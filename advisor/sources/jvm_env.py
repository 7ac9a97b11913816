"""A broker's JVM options where start scripts and service units keep them: `export
KAFKA_HEAP_OPTS=...` in a shell script, `Environment="KAFKA_HEAP_OPTS=..."` in a systemd unit.

Only on evidence that the broker is what starts (kafka-server-start, kafka.Kafka): the same
variables also size Connect workers, MirrorMaker and the CLI tools. The options become the
`jvm` facts the JVM rules read (advisor/rules/checks/jvm.py), each at its own line.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

from advisor import lazy_re
from advisor.catalog.surfaces import JVM_VARIABLES
from advisor.model.document import ConfigSet, SourceFile
from advisor.model.provenance import Location
from advisor.sources import directives as directive_syntax

FORMAT = "jvm-options"
_STARTS_BROKER = lazy_re.compile(r"kafka-server-start(?:\.sh)?\b|\bkafka\.Kafka\b")
# Launchers of other JVMs that read the same variables.
_OTHER_LAUNCHER = lazy_re.compile(
    r"connect-(?:distributed|standalone)|kafka-mirror-maker|zookeeper-server-start|ksql|schema-registry"
)
_SHELL_ASSIGNMENT = lazy_re.compile(r"^\s*(?:export\s+)?(?P<name>KAFKA_[A-Z_]+)=(?P<value>.*)$")
_UNIT_ENVIRONMENT = lazy_re.compile(r"^\s*Environment\s*=\s*(?P<value>.*)$")
# `${KAFKA_HEAP_OPTS:-"-Xmx4g"}`: the script's own default, used when the caller sets none.
_DEFAULTED = lazy_re.compile(r"^\$\{(?P<name>\w+):?-(?P<default>.*)\}$")


def _unquoted(value: str) -> str:
    try:
        parts = shlex.split(value, comments=True)
    except ValueError:
        return value.strip()
    joined = " ".join(parts)
    defaulted = _DEFAULTED.match(joined)
    return _unquoted(defaulted["default"]) if defaulted else joined


def _is_unit(path: Path, text: str) -> bool:
    return path.suffix == ".service" or (re.search(r"^\[Service\]\s*$", text, re.MULTILINE) is not None)


def jvm_entries(path: Path, text: str) -> dict[str, dict[str, Any]]:
    """{variable: {value, line}} of the broker JVM variables the file sets (the last setting wins)."""
    entries: dict[str, dict[str, Any]] = {}
    unit = _is_unit(path, text)
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("#"):
            continue
        if unit:
            found = _UNIT_ENVIRONMENT.match(line)
            if not found:
                continue
            try:
                assignments = shlex.split(found["value"])
            except ValueError:
                continue
            for assignment in assignments:
                name, _, value = assignment.partition("=")
                if name in JVM_VARIABLES:
                    entries[name] = {"value": value, "line": number}
        else:
            found = _SHELL_ASSIGNMENT.match(line)
            if found and found["name"] in JVM_VARIABLES:
                entries[found["name"]] = {"value": _unquoted(found["value"]), "line": number}
    return entries


def starts_broker(text: str) -> bool:
    return bool(_STARTS_BROKER.search(text)) and not _OTHER_LAUNCHER.search(text)


# A line of an environment file: blank, a comment, an assignment (export'ed or not), or the
# conditionals such files wrap them in (`if [ -z "$X" ]; then ... fi`).
_ENVIRONMENT_LINE = lazy_re.compile(
    r"^\s*(?:#.*|(?:export\s+)?[A-Za-z_]\w*=.*|(?:if|elif)\s.*|then|else|fi|\}|\{)?\s*$"
)
_OTHER_JVM_VARIABLE = lazy_re.compile(r"\b(?:CONNECT|KSQL|SCHEMA_REGISTRY|ZOOKEEPER|ZK|MIRRORMAKER)_\w*=")
ENVIRONMENT_ASSUMPTION = (
    "judged as a broker's JVM environment: the file only sets variables, and nothing in it names another JVM"
    " (Connect, MirrorMaker and the CLI tools read the same ones)"
)


def environment_only(text: str) -> bool:
    """A kafka-env.sh: only assignments that a broker's start sources, naming no other JVM."""
    return all(_ENVIRONMENT_LINE.match(line) for line in text.splitlines()) and not (
        _OTHER_LAUNCHER.search(text) or _OTHER_JVM_VARIABLE.search(text)
    )


def sniff(path: Path, text: str) -> Any:
    if path.suffix not in (".sh", ".bash", ".service", ""):
        return None
    if not starts_broker(text) and not (path.suffix != ".service" and environment_only(text)):
        return None
    if path.suffix == "" and not (text.startswith("#!") or _is_unit(path, text)):
        return None
    entries = jvm_entries(path, text)
    return entries or None


def broker_jvm(path: str, entries: dict[str, dict[str, Any]]) -> ConfigSet:
    first = min(entry["line"] for entry in entries.values())
    config_set = ConfigSet(component="broker", path=path, anchor=Location(path, first), name=Path(path).name)
    config_set.facts["jvm"] = entries
    return config_set


def load(path: str, text: str, entries: Any, options) -> tuple[SourceFile, list[ConfigSet]]:  # type: ignore[no-untyped-def]
    found = directive_syntax.in_hash_comments(text, path)
    source = SourceFile(path, text, FORMAT, found)
    config_sets = [broker_jvm(path, entries)]
    if not starts_broker(text):
        config_sets[0].facts["assumed"] = [ENVIRONMENT_ASSUMPTION]
    directive_syntax.apply_file_settings(config_sets, found)
    return source, config_sets
