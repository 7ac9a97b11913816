"""The one constructor of a `Finding`: every scope (config set, cluster, entity over metrics,
the session's file-scope KO001) turns a rule's `Violation` into a finding here, so each finding
fills its fields alike — the message and recommendation from the rule's templates unless the
check finished them, its keys, its fix from its Change.

Also what a config set's finding says it rests on: a guessed cluster, a chart's default, the
release that judged it, the production profile nobody stated.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from advisor import TYPE_CHECKING, catalog, lazy_re
from advisor.model.changes import Change
from advisor.model.document import ConfigSet, Document
from advisor.model.findings import Finding, Fix
from advisor.rules.violation import Violation
from advisor.secrets import REDACTED

if TYPE_CHECKING:
    from typing import Any

    from advisor.model.provenance import Provenance
    from advisor.rules.registry import Rule
    from advisor.rules.spec import Definition

_PLACEHOLDER = lazy_re.compile(r"\{([A-Za-z0-9_.\-]+)\}")
_LISTED = 3
EMPTY_CONTEXT: dict[str, Any] = {"effective": {}}


def render(template: str, values: dict[str, Any], secrets: set[str], arguments: dict[str, str] | None = None) -> str:
    """Fill `{key}` with a check's argument, else the effective value of a config key (or a
    context field)."""

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if arguments and name in arguments:
            return arguments[name]
        section, _, rest = name.partition(".")
        if name in secrets or rest in secrets:
            return REDACTED
        if section in ("defaults", "set", "cluster", "facts", "peers", "params") and rest:
            value = (values.get(section) or {}).get(rest)
        else:
            value = values["effective"].get(name, values.get(name))
        if isinstance(value, list):  # file lists of the cluster's peers: a few names, then a count
            shown = ", ".join(map(str, value[:_LISTED]))
            return shown if len(value) <= _LISTED else f"{shown} and {len(value) - _LISTED} more"
        return "(unset)" if value is None else str(value)

    return _PLACEHOLDER.sub(fill, template)


def make(
    definition: Definition,
    violation: Violation,
    *,
    location: Provenance,
    subject: str,
    component: str,
    client: str = "",
    context: dict[str, Any] | None = None,  # what the templates' {placeholders} read
    secrets: set[str] | None = None,  # keys whose values a template must not show
    change: Change | None = None,
    assumptions: tuple[str, ...] = (),
    kafka_version: str | None = None,
    kafka_version_from: str | None = None,
    confidence: str | None = None,
    product: str = "kafka",
) -> Finding:
    values = EMPTY_CONTEXT if context is None else context
    hidden = set() if secrets is None else secrets
    arguments = violation.arguments
    return Finding(
        rule=definition.id,
        name=definition.name,
        severity=definition.severity,
        category=definition.category,
        message=violation.message or render(definition.message, values, hidden, arguments),
        location=location,
        keys=violation.keys if violation.keys is not None else tuple(definition.keys),
        component=component,
        client=client,
        subject=subject,
        recommended=violation.recommended or render(definition.recommended, values, hidden, arguments),
        fix=Fix(change.value or "", change.applicability) if change is not None else None,
        changes=(change,) if change is not None else (),
        related=violation.related,
        assumptions=assumptions,
        kafka_version=kafka_version if product == "kafka" else None,
        kafka_version_from=kafka_version_from if product == "kafka" else None,
        confidence=confidence,
        product=product,
        release=kafka_version if product != "kafka" else None,
        release_from=kafka_version_from if product != "kafka" else None,
    )


def change_of(rule: Rule, violation: Violation, config_set: ConfigSet) -> Change | None:
    """The violation's own Change, else the rule's fix applied to this config set."""
    if violation.change is not None:
        return violation.change
    fix = rule.definition.fix
    if fix is None:
        return None
    key = fix.key or rule.definition.keys[0]
    value = None if fix.action == "remove" else fix.value
    return Change(fix.action, key, value, fix.applicability, config_set.path, config_set.name)


def depends_on_version(rule: Rule, keys: Iterable[str], config_set: ConfigSet) -> bool:
    """Whether another catalog release could judge this verdict otherwise: the rule holds for
    some releases only, or a key it names or reads exists or validates differently between
    releases — or, when the config leaves it to the default, defaults differently (acks
    defaulted to 1 before 3.0; a written acks=1 is acks=1 in every release)."""
    if not rule.all_releases:
        return True
    written = config_set.settings
    return any(
        catalog.varies_between_releases(key, config_set.component, key in written and key not in rule.default_keys)
        for key in (*keys, *rule.read_keys)
    )


PROD_ASSUMED = (
    'judged as production: nothing says this is a development setup; --profile dev, profile = "dev" in the '
    'project config or environment = "dev" in [clusters.NAME] quiets this rule'
)


def guessed_cluster(rule: Rule, config_set: ConfigSet, document: Document) -> tuple[str, ...]:
    """A verdict that reads other files of the cluster rests on how the cluster was joined:
    where a link was a guess, the finding says which and how to declare it."""
    if not rule.reads_cluster:
        return ()
    cluster = document.clusters.get(config_set.cluster or "")
    if cluster is None or not cluster.guessed:
        return ()
    hint = "declare the cluster in the project config ([clusters.NAME] paths) to confirm or separate them"
    return tuple(f"grouped by a guess: {reason}; {hint}" for reason in cluster.guesses)


_CHART_DEFAULT = " (chart default)"


def defaults_of_the_chart(config_set: ConfigSet, keys: Iterable[str]) -> tuple[str, ...]:
    """A verdict on a value the file does not write but its Helm chart does, says whose it is."""
    said = []
    for key in keys:
        setting = config_set.settings.get(key)
        if setting is not None and setting.spelling.endswith(_CHART_DEFAULT):
            value = REDACTED if setting.secret else setting.value
            value_name = setting.spelling.removesuffix(_CHART_DEFAULT)
            said.append(f"{key}={value} is the chart's default ({value_name}), not written in this file")
    return tuple(said)
