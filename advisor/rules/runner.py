"""Runs rules over the normalized document and produces findings.

Each rule is evaluated only on the config sets it applies to (component, client,
Kafka version), so the cost of a JMESPath predicate is paid where it can matter.
"""

from __future__ import annotations

import re
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from advisor import catalog
from advisor.analysis import peers as peer_summary
from advisor.model.document import ConfigSet, Document, Location
from advisor.model.findings import Finding
from advisor.rules import context as rule_context
from advisor.rules.functions import OPTIONS
from advisor.rules.registry import PYTHON_CHECKS, Rule
from advisor.rules.spec import in_range
from advisor.secrets import REDACTED

_PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_.\-]+)\}")


@dataclass
class RunStats:
    """Seconds spent per rule, for the benchmark and `--statistics`."""

    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    evaluations: dict[str, int] = field(default_factory=lambda: defaultdict(int))


def resolve_release(config_set: ConfigSet, requested: str | None) -> str:
    """--kafka-version, else a version the input declares (directive, image tag), else the
    broker's inter.broker.protocol.version (e.g. 3.9-IV0), else the newest release."""
    hint = requested or config_set.kafka_version
    protocol = config_set.settings.get("inter.broker.protocol.version")
    if hint is None and protocol is not None:
        try:
            catalog.versions.parse(protocol.value)
            hint = protocol.value
        except catalog.UnknownVersionError:
            pass
    return catalog.resolve_version(hint)


_LISTED = 3


def render(template: str, values: dict[str, Any], secrets: set[str]) -> str:
    """Fill `{key}` with the effective value of a config key (or a context field)."""

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        section, _, rest = name.partition(".")
        if name in secrets or rest in secrets:
            return REDACTED
        if section in ("defaults", "set", "cluster", "facts", "peers") and rest:
            value = (values.get(section) or {}).get(rest)
        else:
            value = values["effective"].get(name, values.get(name))
        if isinstance(value, list):  # file lists of the cluster's peers: a few names, then a count
            shown = ", ".join(map(str, value[:_LISTED]))
            return shown if len(value) <= _LISTED else f"{shown} and {len(value) - _LISTED} more"
        return "(unset)" if value is None else str(value)

    return _PLACEHOLDER.sub(fill, template)


def _location(config_set: ConfigSet, keys: Iterable[str]) -> Location:
    """The first written key the finding names, else where the config set starts."""
    for key in keys:
        setting = config_set.settings.get(key)
        if setting is not None:
            return setting.location
    return config_set.anchor


def _applies(rule: Rule, config_set: ConfigSet, release: str, profile: str) -> bool:
    definition = rule.definition
    if config_set.component not in definition.applies_to.components:
        return False
    if config_set.component in catalog.CLIENT_COMPONENTS and config_set.client not in definition.applies_to.clients:
        return False
    if profile == "dev" and definition.skip_in_dev:
        return False
    return in_range(catalog.versions.parse(release), definition.kafka_versions)


def run(
    document: Document,
    rules: Iterable[Rule],
    *,
    kafka_version: str | None = None,
    profile: str = "prod",
    stats: RunStats | None = None,
) -> list[Finding]:
    findings: list[tuple[Finding, str | None]] = []  # with the cluster of the config set
    rules = list(rules)
    peers: dict[str | None, dict[str, Any]] = {}  # per cluster, built when its first rule needs it
    for config_set in document.config_sets:
        release = resolve_release(config_set, kafka_version)
        set_profile = config_set.facts.get("profile", profile)
        values = None
        secrets = {key for key, setting in config_set.settings.items() if setting.secret}
        for rule in rules:
            if not _applies(rule, config_set, release, set_profile):
                continue
            if not rule.required_keys <= config_set.settings.keys():
                continue  # the predicate asks for a key this set does not write: it cannot hold
            if values is None:
                started = time.perf_counter()
                if config_set.cluster not in peers:
                    cluster = document.clusters.get(config_set.cluster or "")
                    peers[config_set.cluster] = peer_summary.summarize(cluster.members if cluster else [config_set])
                values = rule_context.build(config_set, document, release, set_profile, peers[config_set.cluster])
                if stats is not None:
                    stats.seconds["(context)"] += time.perf_counter() - started
                    stats.evaluations["(context)"] += 1
            started = time.perf_counter()
            definition = rule.definition
            if rule.compiled is not None:
                outcomes: list[dict[str, Any]] = [{}] if rule.compiled.search(values, options=OPTIONS) else []
            else:
                outcomes = PYTHON_CHECKS[definition.python](values, config_set)  # type: ignore[index]
            if stats is not None:
                stats.seconds[definition.id] += time.perf_counter() - started
                stats.evaluations[definition.id] += 1
            for outcome in outcomes:
                keys = tuple(outcome.get("keys", definition.keys))
                location = _location(config_set, keys)
                if "line" in outcome:  # e.g. a JVM variable, which is not a config key
                    location = Location(config_set.path, outcome["line"])
                message = outcome.get("message", definition.message)
                finding = Finding(
                    rule=definition.id,
                    name=definition.name,
                    severity=definition.severity,
                    category=definition.category,
                    message=render(message, values, secrets),
                    location=location,
                    keys=keys,
                    component=config_set.component,
                    client=config_set.client,
                    subject=config_set.name,
                    recommended=render(outcome.get("recommended", definition.recommended), values, secrets),
                    fix=definition.fix,
                    assumptions=_assumptions(rule, config_set, document),
                )
                findings.append((finding, config_set.cluster if config_set.component == "broker" else None))
    findings.sort(key=lambda pair: pair[0].sort_key)
    return merge_same_cause(findings)


def _assumptions(rule: Rule, config_set: ConfigSet, document: Document) -> tuple[str, ...]:
    """A verdict that reads other files of the cluster rests on how the cluster was joined:
    where a link was a guess, the finding says which and how to declare it."""
    cluster = document.clusters.get(config_set.cluster or "")
    if not rule.reads_cluster or cluster is None or not cluster.guessed:
        return ()
    hint = "declare the cluster in the project config ([clusters.NAME] paths) to confirm or separate them"
    return tuple(f"grouped by a guess: {reason}; {hint}" for reason in cluster.guesses)


def merge_same_cause(findings: list[tuple[Finding, str | None]]) -> list[Finding]:
    """One cause, one finding. The brokers of one cluster that share a problem (the same rule,
    message and keys) give one finding with every broker's location, the first as its place;
    one line shared by several config sets (a YAML anchor merged into three brokers) gives one
    finding naming every subject. Findings come sorted, so the first place is the earliest."""
    merged: dict[tuple[object, ...], Finding] = {}
    for finding, cluster in findings:
        place: tuple[object, ...] = (cluster,) if cluster is not None else (finding.path, finding.line, finding.column)
        key = (finding.rule, finding.message, finding.keys, *place)
        first = merged.get(key)
        if first is None:
            merged[key] = finding
            continue
        subjects = first.subject.split(", ")
        subject = first.subject if finding.subject in subjects else f"{first.subject}, {finding.subject}"
        related = first.related
        if finding.location != first.location and finding.location not in related:
            related = (*related, finding.location)
        merged[key] = replace(first, subject=subject, related=related)
    return list(merged.values())
