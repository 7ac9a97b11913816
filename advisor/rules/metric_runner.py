"""Entity (KM) rules over metric observations → Findings.

Each rule names its metric check; a violation says where it read its value (a sample's line in
a file, or an endpoint and series) and what the verdict rests on. The subject is the node (or
the cluster, for cluster-wide sums); a finding's `extra` says its confidence: `low` when it
rests on one snapshot, a lifetime count, or less time than the rule's window.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from advisor.analysis.broker_settings import BrokerSettings
from advisor.analysis.client_settings import Beside, ClientSettings
from advisor.model.document import Problem
from advisor.model.findings import Finding
from advisor.model.observations import Observations
from advisor.model.vocabulary import Scope
from advisor.rules.registry import Rule, metric_check_named
from advisor.rules.runner import render

EMPTY_CONTEXT: dict[str, Any] = {"effective": {}}


def run(
    observations: Observations,
    rules: Iterable[Rule],
    params: dict[str, dict[str, Any]] | None = None,
    beside: Beside | None = None,
) -> tuple[list[Finding], list[Problem]]:
    """`beside`: the configuration given beside the metrics (brokers' agreed values, clients by id)."""
    beside = beside if beside is not None else Beside(BrokerSettings(None), ClientSettings(None))
    findings: list[Finding] = []
    problems: list[Problem] = []
    for rule in rules:
        definition = rule.definition
        if definition.scope != Scope.ENTITY:
            continue
        values = definition.param_values((params or {}).get(definition.id))
        try:
            check = metric_check_named(definition.python)  # type: ignore[arg-type]
            violations = check(observations, definition, values, beside)
        except Exception as error:  # noqa: BLE001 - one rule's bug must not cost the others
            message = f"internal error ({type(error).__name__}) while judging {definition.id}; please report it"
            problems.append(Problem(observations.origins[0] if observations.origins else "metrics", None, message,
                                    "internal"))  # fmt: skip
            continue
        context = {**EMPTY_CONTEXT, "params": values}
        for violation in violations:
            arguments = violation.arguments
            findings.append(
                Finding(
                    rule=definition.id,
                    name=definition.name,
                    severity=definition.severity,
                    category=definition.category,
                    message=violation.message or render(definition.message, context, set(), arguments),
                    location=violation.location,
                    related=violation.related,
                    keys=violation.keys if violation.keys is not None else tuple(definition.keys),
                    component=violation.component or "broker",
                    client=violation.client,
                    subject=arguments.get("node", ""),
                    recommended=violation.recommended or render(definition.recommended, context, set(), arguments),
                    assumptions=violation.assumptions,
                    extra={"confidence": "low" if violation.assumptions else "high"},
                )
            )
    findings.sort(key=lambda finding: finding.sort_key)
    return findings, problems
