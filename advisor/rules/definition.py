"""Rule definitions: one YAML file per rule in rules/, validated against this model.

`rules/rule.schema.json` is generated from it (tools/gen_rule_docs.py) for editors. The
engine itself runs on the plain `spec.Definition` built from validated files.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from advisor.model import vocabulary
from advisor.model.vocabulary import CLIENT_COMPONENTS, ID_PREFIX_COMPONENTS, ID_PRODUCTS, Product, Scope
from advisor.rules.params import param_problem
from advisor.rules.spec import version_range

# The team's reference notes (../shared) and its issue tracker: not documents a user can open.
INTERNAL_NOTES = re.compile(r"kafka-(?:facts|metrics|profiles)(?:\.md)?|[\w-]+-article\.txt|\bissue #\d+|\.\./shared")

# The vocabulary as types the model validates against (values from model/vocabulary.py).
Applicability = Literal[vocabulary.Applicability.values()]  # type: ignore[valid-type]
Category = Literal[vocabulary.Category.values()]  # type: ignore[valid-type]
Client = Literal[vocabulary.Client.values()]  # type: ignore[valid-type]
Component = Literal[vocabulary.RULE_COMPONENTS]  # type: ignore[valid-type]
ScopeWord = Literal[vocabulary.Scope.values()]  # type: ignore[valid-type]
Severity = Literal[vocabulary.Severity.values()]  # type: ignore[valid-type]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Fix(_Strict):
    value: str = Field(description="the value to set; '' with action remove")
    applicability: Applicability
    key: str | None = Field(default=None, description="the key the value is for; default: the rule's first key")
    action: Literal["set", "remove"] = "set"


class Param(_Strict):
    """A threshold or choice of a rule that a project may set (`[params.ID]` in its config)."""

    type: Literal["integer", "number", "string", "boolean"]
    default: int | float | str | bool
    minimum: float | None = None
    maximum: float | None = None
    description: str = Field(min_length=10)

    @model_validator(mode="after")
    def _default_fits(self) -> Param:
        problem = param_problem(self, self.default)
        if problem:
            raise ValueError(f"default {self.default!r} {problem}")
        return self


class AppliesTo(_Strict):
    components: list[Component] = Field(default_factory=list, description="empty only for entity-scope (metric) rules")
    clients: list[Client] = Field(default_factory=lambda: list(vocabulary.Client.values()))


class Watch(_Strict):
    """How an entity rule reads its metric (advisor/metrics/vocabulary.py names every metric)."""

    metric: str = Field(description="the metric's MBean, e.g. kafka.server:type=ReplicaManager,name=...")
    fires: Literal["above", "below"] = Field(description="the condition: above or below params.threshold")
    over: Literal["node", "cluster", "cluster-max"] = Field(
        default="node",
        description="judged per broker/controller, summed across the cluster at each time, or the largest "
        "across it (a count every controller reports alike)",
    )
    hysteresis: float | None = Field(
        default=None,
        ge=0,
        description="a condition that began ends only this far back across the threshold (default: 0; for a rule "
        "judged past a setting, `past`, half the threshold)",
    )
    labels: dict[str, str | list[str]] = Field(
        default_factory=dict,
        description="only the series with these labels (a list: any of them), e.g. request: Produce, quantile: '0.99'",
    )
    raised: bool = Field(
        default=False,
        description="judged only where the broker configurations given agree on a value of the rule's first key "
        "above its default (a rule about raised settings that buy nothing)",
    )
    lifetime: bool = Field(
        default=True,
        description="events only: a count seen once is judged as counted since the broker or client started "
        "(false: it says nothing — ISR shrinks at every restart, a consumer's first join — and only an increase "
        "between samples is judged)",
    )
    past: str | None = Field(
        default=None,
        description="client rules: a setting the threshold counts from — fires above the setting's value, as the "
        "client runs with it (its configuration by client.id, else its library's default), plus threshold",
    )
    events: bool = Field(
        default=False,
        description="a counter of events: judged by how many happened in everything observed (seen once: since "
        "the broker started, said so); threshold and window then count events",
    )

    @field_validator("metric")
    @classmethod
    def _known_metric(cls, value: str) -> str:
        from advisor.analysis import flow
        from advisor.metrics import clients, vocabulary

        if value in clients.BY_ID or value in flow.QUANTITIES:
            return value
        try:
            vocabulary.by_mbean(value)
        except KeyError:
            raise ValueError(f"{value} is not in metrics/vocabulary.py, clients.py or flow.QUANTITIES") from None
        return value


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
    id: str = Field(pattern=r"^(K[BTPCMXO]|Z[BCGMX])\d{3}$", description="K: Kafka's rules; Z: the Camunda pack's")
    name: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    summary: str = Field(min_length=10)
    severity: Severity
    category: Category
    applies_to: AppliesTo
    scope: ScopeWord = Field(
        default=Scope.CONFIG_SET,
        description="what one evaluation sees: config-set, client-cluster (a client with its cluster's peers), "
        "cluster (a Python check over one cluster), file (built into the run session: directives), "
        "entity (an entity with its metric observations)",
    )
    params: dict[str, Param] = Field(
        default_factory=dict, description="thresholds a project may set in [params.ID]; read as params.NAME"
    )
    kafka_versions: str = Field(default=">=2.8", description="e.g. '>=3.0', '>=3.0.1,<4.0' (Kafka's rules)")
    releases: str | None = Field(
        default=None, description="a product pack's rules: the product's releases it judges, e.g. '>=8.9'"
    )
    exact_release: bool = Field(
        default=False,
        description="a product pack's rule judged only where its catalog read the set's own release at a final "
        "tag (what a release does not define, say); elsewhere not judged, said in the run's notes",
    )
    when: str | None = Field(default=None, description="JMESPath predicate over the rule context")
    python: str | None = Field(
        default=None,
        pattern=r"^[a-z_]+:[a-z_]+$",
        description="a registered Python check, as module:function of advisor/rules/checks/",
    )
    keys: list[str] = Field(
        default_factory=list, description="canonical keys involved; the first written one is the location"
    )
    message: str
    rationale: str
    recommended: str
    fix: Fix | None = None
    example: Example
    references: list[str] = Field(min_length=1)
    source: str = Field(
        description="where the fact comes from, as users can look it up: a KIP, Kafka's or a client's documentation, "
        "the real software it was checked against (never the team's internal notes: those go in `basis`)"
    )
    basis: str | None = Field(
        default=None, description="the team's reference-note sections behind the rule; for developers, never shown"
    )
    skip_in_dev: bool = Field(default=False, description="silent under the dev profile (single-broker setups)")
    assumes_brokers: bool = Field(
        default=False,
        description="a broker whose files do not count its cluster is judged as one of several (unless the dev "
        "profile applies), and a finding that rests on it says so",
    )
    watch: Watch | None = Field(default=None, description="entity rules: the metric and how it is judged")
    live: bool = Field(
        default=False,
        description="judges what `audit` read from a running cluster (partitions, groups, reassignments) and "
        "nothing else: a cluster check, its examples saved snapshots",
    )
    beside: bool = Field(
        default=False,
        description="a live rule that judges the files given with the cluster against it (drift, plans): it "
        "also runs where the cluster is only the files' context (lint --bootstrap-server)",
    )

    @field_validator("summary", "message", "rationale", "recommended", "references", "source")
    @classmethod
    def _public_text(cls, value: str | list[str]) -> str | list[str]:
        # Users read these; they cannot open the team's notes (those belong in `basis`).
        for text in [value] if isinstance(value, str) else value:
            if found := INTERNAL_NOTES.search(text):
                raise ValueError(f"names the team's internal notes ({found.group()!r}): cite the public document")
        return value

    @field_validator("kafka_versions")
    @classmethod
    def _versions_parse(cls, value: str) -> str:
        version_range(value)
        return value

    @field_validator("releases")
    @classmethod
    def _releases_parse(cls, value: str | None) -> str | None:
        if value is not None:
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
        scope = self.scope
        if scope == Scope.FILE:
            if self.when is not None or self.python is not None:
                raise ValueError("a file-scope rule is built into the run session: no `when`, no `python`")
        elif (self.when is None) == (self.python is None):
            raise ValueError("a rule needs exactly one of `when` (JMESPath) or `python` (registered check)")
        if scope == Scope.CLUSTER and self.python is None:
            raise ValueError("a cluster-scope rule needs a `python` cluster check")
        if self.live and scope != Scope.CLUSTER:
            raise ValueError("a live rule is a cluster check (scope: cluster) over what the audit read")
        if self.beside and not self.live:
            raise ValueError("`beside` is a live rule's: it judges files against a running cluster")
        if scope != Scope.ENTITY and not self.applies_to.components:
            raise ValueError("applies_to.components may be empty only for entity-scope (metric) rules")
        if scope == Scope.CLIENT_CLUSTER and not set(self.applies_to.components) <= set(CLIENT_COMPONENTS):
            raise ValueError("a client-cluster rule applies to producers, consumers or admin clients")
        allowed = ID_PREFIX_COMPONENTS[self.id[:2]]
        if not set(self.applies_to.components) <= allowed:
            raise ValueError(f"{self.id}: a {self.id[:2]} rule cannot apply to {self.applies_to.components}")
        pack = ID_PRODUCTS[self.id[0]] != Product.KAFKA
        if pack and self.kafka_versions != ">=2.8":
            raise ValueError(f"{self.id}: a product pack's rule says its releases in `releases`, not kafka_versions")
        if not pack and (self.releases is not None or self.exact_release):
            raise ValueError(f"{self.id}: a Kafka rule says its releases in kafka_versions")
        if (self.id[1] == "M") != (scope == Scope.ENTITY):
            raise ValueError(f"{self.id}: metric (KM, ZM) rules, and only they, have scope entity")
        if (self.watch is not None) != (scope == Scope.ENTITY):
            raise ValueError("an entity (metric) rule, and only it, says what it watches (`watch`)")
        needed = {"threshold"} if self.watch is None or self.watch.events else {"threshold", "sustained_seconds"}
        if self.watch is not None and not needed <= set(self.params):
            raise ValueError(f"a metric rule's params hold {' and '.join(sorted(needed))}")
        if self.fix is not None and self.fix.key is not None and self.fix.key not in self.keys:
            raise ValueError(f"fix.key {self.fix.key!r} is not one of the rule's keys")
        if self.fix is not None and not (self.fix.key or self.keys):
            raise ValueError("a fix needs a key: fix.key, or the rule's first key")
        return self
