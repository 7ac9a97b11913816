"""Loads every rule definition (rules/*.yaml) and the Python checks they may name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from advisor import resources
from advisor.document import LoadError
from advisor.engine.definition import RuleDefinition

# A Python check gets the rule context and the config set and returns one dict per
# finding (empty list: none), each with optional "message", "keys", "recommended" overrides.
PythonCheck = Callable[[dict[str, Any], Any], "list[dict[str, Any]]"]
PYTHON_CHECKS: dict[str, PythonCheck] = {}


def python_check(name: str) -> Callable[[PythonCheck], PythonCheck]:
    """Register a check for what a JMESPath predicate cannot say; rules name it in `python:`."""

    def register(function: PythonCheck) -> PythonCheck:
        if name in PYTHON_CHECKS:
            raise ValueError(f"python check {name!r} registered twice")
        PYTHON_CHECKS[name] = function
        return function

    return register


@dataclass(frozen=True)
class Rule:
    definition: RuleDefinition
    path: Path
    compiled: Any  # jmespath ParsedResult, or None for a Python check


def _read_yaml(path: Path) -> Any:
    import yaml  # libyaml: rule files are read on every run, so the C loader matters

    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise LoadError(str(path), (mark.line + 1) if mark else 1, f"invalid YAML: {error}") from error


@cache
def load_rules(directory: Path | None = None) -> tuple[Rule, ...]:
    """All rules, sorted by id. A broken rule file is an internal error: it never ships."""
    import jmespath
    from pydantic import ValidationError

    from advisor.engine import python_checks  # noqa: F401  (registers the checks)

    rules = []
    seen: dict[str, Path] = {}
    for path in sorted((directory or resources.rules_dir()).glob("*.yaml")):
        try:
            definition = RuleDefinition.model_validate(_read_yaml(path))
        except ValidationError as error:
            raise LoadError(str(path), 1, f"invalid rule definition:\n{error}") from error
        if path.stem != definition.id:
            raise LoadError(str(path), 1, f"rule {definition.id} must live in {definition.id}.yaml")
        if definition.id in seen:
            raise LoadError(str(path), 1, f"rule id {definition.id} already used by {seen[definition.id]}")
        if definition.python is not None and definition.python not in PYTHON_CHECKS:
            raise LoadError(str(path), 1, f"unknown python check {definition.python!r}")
        seen[definition.id] = path
        compiled = jmespath.compile(definition.when) if definition.when else None
        rules.append(Rule(definition, path, compiled))
    return tuple(rules)
