"""Checks of one packaging's own surface: Spring Boot's spring.kafka.* names, the keys the
Strimzi operator manages itself.

Each check gets the rule context (rules/context.py) and the config set and returns Violations."""

from __future__ import annotations

from advisor import TYPE_CHECKING
from advisor.model.document import ConfigSet
from advisor.rules.registry import python_check
from advisor.rules.violation import Violation

if TYPE_CHECKING:
    from typing import Any


@python_check()
def spring_unknown_property(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """spring.kafka.* names no Spring Boot release defines (the loader records them)."""
    outcomes: list[Violation] = []
    for entry in config_set.facts.get("spring_unknown", []):
        hint = f" (did you mean {entry['suggestion']}?)" if entry["suggestion"] else ""
        outcomes.append(
            Violation(
                line=entry["line"],
                message=f"{entry['name']} is not a Spring Boot property{hint}",
                recommended=entry["suggestion"] or "set it through spring.kafka.*.properties",
            )
        )
    return outcomes


@python_check()
def strimzi_managed_key(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    places = config_set.facts.get("strimzi_forbidden_at", {})
    return [
        Violation(
            keys=(key,),
            location=places.get(key),
            message=f"{key} is managed by the Strimzi operator, not by spec.kafka.config",
        )
        for key in config_set.facts.get("strimzi_forbidden", [])
    ]
