"""Shared pieces of the oracle tests: building the Java harnesses, running a batch of cases
through one JVM, and the cases the catalog's definitions imply."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from advisor import catalog
from advisor.secrets import is_secret_key

NUMERIC = {"INT", "LONG", "SHORT", "DOUBLE"}


def compile_java(source: Path, out: Path) -> Path:
    if shutil.which("javac") is None:
        pytest.fail(f"javac is needed to build {source.name}")
    subprocess.run(["javac", "-d", str(out), str(source)], check=True, timeout=120)
    return out


def run_batch(classpath: str, command: list[str], cases: list[dict[str, str]], timeout: float = 600) -> list[dict]:
    """One JSON outcome per case; each case is one stdin line of tab-separated key=value."""
    lines = "".join("\t".join(f"{k}={v}" for k, v in case.items()) + "\n" for case in cases)
    result = subprocess.run(
        ["java", "-cp", classpath, *command], input=lines, capture_output=True, text=True, timeout=timeout
    )
    outcomes = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert len(outcomes) == len(cases), result.stderr[-2000:]
    return outcomes


def refused_by_definition(key: str, outcome: dict) -> bool:
    """Did the software refuse the value through the key's ConfigDef (not some other check)?"""
    return not outcome["ok"] and f"for configuration {key}" in outcome.get("message", "")


def definition_cases(
    component: str, version: str, *, skip: frozenset[str] = frozenset(), booleans: bool = False
) -> list[tuple[str, str, bool]]:
    """(key, value, refused by the definition) from the catalog: just outside and on each bound,
    a word for each number, a made-up value for each choice list (and for booleans, if asked)."""
    cases = []
    for key in sorted(catalog.known_keys(component, kafka_version=version)):
        facts = catalog.lookup(key, component, kafka_version=version)
        if key in skip or facts is None or facts.internal or is_secret_key(key):
            continue  # secret-looking keys (password.encoder.*, delegation.token.*) are never judged or shown
        step = 0.5 if facts.type == "DOUBLE" else 1
        if facts.type in NUMERIC and facts.min is not None:
            cases += [(key, str(facts.min - step), True), (key, str(facts.min), False)]
        if facts.type in NUMERIC and facts.max is not None:
            cases.append((key, str(facts.max + step), True))
        if facts.type in ("INT", "LONG"):
            cases.append((key, "ten", True))
        if booleans and facts.type == "BOOLEAN":
            cases += [(key, "yes", True), (key, "TRUE", False)]
        if facts.type == "STRING" and facts.choices:
            cases += [(key, "no-such-choice", True), (key, facts.choices[0], False)]
    return cases
