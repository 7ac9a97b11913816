"""Rule definitions: one YAML file per rule in rules/, validated against this model.

`rules/rule.schema.json` is generated from it (tools/gen_rule_docs.py) for editors. The
engine itself runs on the plain `spec.Definition` built from validated files.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from advisor.model.vocabulary import Applicability, Category, Client, Component, Severity
from advisor.rules.spec import ID_PREFIX_COMPONENTS, SEVERITY_RANK, in_range, version_range

__all__ = ["SEVERITY_RANK", "RuleDefinition", "in_range", "version_range"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Fix(_Strict):
    value: str
    applicability: Applicability


class AppliesTo(_Strict):
    components: list[Component] = Field(min_length=1)
    clients: list[Client] = Field(default_factory=lambda: list(Client))


class Alongside(_Strict):
    name: str = Field(description="file name, which also tells its format (e.g. ledger.producer.properties)")
    text: str


class Example(_Strict):
    bad: str
    good: str
    component: Component | None = Field(default=None, description="default: the rule's first component")
    alongside: Alongside | None = Field(
        default=None, description="another file linted with the example, for rules that read the whole project"
    )


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

    @field_validator("when")
    @classmethod
    def _when_parses(cls, value: str | None) -> str | None:
        if value is not None:
            import jmespath  # validation runs once per rule-set content, not on every lint

            try:
                jmespath.compile(value)
            except jmespath.exceptions.ParseError as error:
                raise ValueError(f"`when` is not a JMESPath expression: {error}") from error
        return value

    @model_validator(mode="after")
    def _one_condition(self) -> RuleDefinition:
        if (self.when is None) == (self.python is None):
            raise ValueError("a rule needs exactly one of `when` (JMESPath) or `python` (registered check)")
        allowed = ID_PREFIX_COMPONENTS[self.id[1]]
        if not set(self.applies_to.components) <= allowed:
            raise ValueError(f"{self.id}: a K{self.id[1]} rule cannot apply to {self.applies_to.components}")
        return self
