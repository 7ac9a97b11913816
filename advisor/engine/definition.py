"""Rule definitions: one YAML file per rule in rules/, validated against this model.

`rules/rule.schema.json` is generated from it (tools/gen_rule_docs.py) for editors.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Severity = Literal["error", "warning", "info"]
Category = Literal["durability", "availability", "throughput", "latency", "compatibility", "security", "operations"]
Component = Literal["broker", "topic", "producer", "consumer", "admin"]
Client = Literal["java", "librdkafka", "kafka-python"]
SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}
# The first letter after K names what a rule is about.
ID_PREFIX_COMPONENTS = {
    "B": {"broker"},
    "T": {"topic"},
    "P": {"producer"},
    "C": {"consumer"},
    "M": set(),
    "X": {"broker", "topic", "producer", "consumer", "admin"},
    "O": {"broker", "topic", "producer", "consumer", "admin"},
}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Fix(_Strict):
    value: str
    applicability: Literal["safe", "unsafe", "display-only"]


class AppliesTo(_Strict):
    components: list[Component] = Field(min_length=1)
    clients: list[Client] = Field(default_factory=lambda: ["java", "librdkafka", "kafka-python"])


class Example(_Strict):
    bad: str
    good: str
    component: Component | None = Field(default=None, description="default: the rule's first component")


class RuleDefinition(_Strict):
    id: str = Field(pattern=r"^K[BTPCMXO]\d{3}$")
    name: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    summary: str = Field(min_length=10)
    severity: Severity
    category: Category
    applies_to: AppliesTo
    kafka_versions: str = Field(default=">=2.8", description="e.g. '>=3.0', '>=3.0.1,<4.0'")
    when: str | None = Field(default=None, description="JMESPath predicate over the rule context")
    python: str | None = Field(default=None, description="name of a registered Python check")
    keys: list[str] = Field(
        default_factory=list, description="canonical keys involved; the first written one is the location"
    )
    message: str
    rationale: str
    recommended: str
    fix: Fix | None = None
    example: Example
    references: list[str] = Field(min_length=1)
    source: str = Field(description="where the fact comes from: kafka-facts.md section, catalog, KIP")
    skip_in_dev: bool = Field(default=False, description="silent under the dev profile (single-broker setups)")

    @field_validator("kafka_versions")
    @classmethod
    def _versions_parse(cls, value: str) -> str:
        version_range(value)
        return value

    @model_validator(mode="after")
    def _one_condition(self) -> RuleDefinition:
        if (self.when is None) == (self.python is None):
            raise ValueError("a rule needs exactly one of `when` (JMESPath) or `python` (registered check)")
        allowed = ID_PREFIX_COMPONENTS[self.id[1]]
        if not set(self.applies_to.components) <= allowed:
            raise ValueError(f"{self.id}: a K{self.id[1]} rule cannot apply to {self.applies_to.components}")
        return self


_BOUND = re.compile(r"^(>=|<=|>|<|==)\s*(\d+(?:\.\d+){0,2})$")


def version_range(spec: str) -> list[tuple[str, tuple[int, int, int]]]:
    """'>=3.0.1,<4.0' -> [('>=', (3,0,1)), ('<', (4,0,0))]."""
    bounds = []
    for part in spec.split(","):
        match = _BOUND.match(part.strip())
        if not match:
            raise ValueError(f"bad version bound {part!r} in {spec!r} (expected e.g. '>=3.0,<4.0')")
        numbers = [int(n) for n in match.group(2).split(".")] + [0, 0]
        bounds.append((match.group(1), (numbers[0], numbers[1], numbers[2])))
    return bounds


def in_range(version: tuple[int, int, int], spec: str) -> bool:
    checks = {
        ">=": lambda a, b: a >= b,
        "<=": lambda a, b: a <= b,
        ">": lambda a, b: a > b,
        "<": lambda a, b: a < b,
        "==": lambda a, b: a == b,
    }
    return all(checks[op](version, bound) for op, bound in version_range(spec))
