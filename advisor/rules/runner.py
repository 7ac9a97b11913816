"""Runs rules over the normalized document and produces findings.

Each rule is evaluated only on the config sets it applies to (component, client,
Kafka version), so the cost of a JMESPath predicate is paid where it can matter.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable

from advisor import TYPE_CHECKING, catalog, forked
from advisor.analysis import camunda as camunda_view
from advisor.analysis import cluster_facts as facts
from advisor.analysis import peers as peer_summary
from advisor.analysis import profile as profiles
from advisor.analysis.release import NO_VERSION, Judged, judged_release
from advisor.catalog import camunda as camunda_catalog
from advisor.model.document import ConfigSet, Document, Problem
from advisor.model.findings import Finding
from advisor.model.provenance import Location
from advisor.model.record import Value
from advisor.model.vocabulary import Product, Scope, product_of
from advisor.named_tuple import NamedTuple
from advisor.rules import context as rule_context
from advisor.rules import findings as made
from advisor.rules.findings import PROD_ASSUMED
from advisor.rules.registry import Rule, check, cluster_check_named, metric_check_named
from advisor.rules.spec import in_range
from advisor.rules.violation import NotJudged, Violation

if TYPE_CHECKING:
    from typing import Any

    from advisor.model.observations import Observations

MIN_SETS_FORKED = 512  # config sets below which judging them in one process is quicker than forking


class RunStats(Value):
    """Seconds spent per rule, for the benchmark and `--statistics`."""

    __slots__ = ("evaluations", "seconds")

    def __init__(self, seconds: dict[str, float] | None = None, evaluations: dict[str, int] | None = None) -> None:
        self.seconds: dict[str, float] = defaultdict(float) if seconds is None else seconds
        self.evaluations: dict[str, int] = defaultdict(int) if evaluations is None else evaluations


class Evaluated(Value):
    """Which rules were judged where and held or not: a fixture's `# ok: ID` needs ID judged on
    its config set. A config-set rule whose predicate needs a key the set does not write counts as
    judged (it cannot hold); a rule not applicable there (component, client, release, profile) does not."""

    __slots__ = ("clusters", "entity", "sets")

    def __init__(self) -> None:
        self.sets: dict[int, tuple[str, ...]] = {}  # index in document.config_sets → rule ids
        self.clusters: dict[str | None, set[str]] = {}  # cluster id → cluster-scope rule ids
        self.entity: set[str] = set()  # entity rules judged over the run's observations

    def on(self, document: Document, index: int) -> set[str]:
        """Every rule judged on this config set, its own or its cluster's."""
        config_set = document.config_sets[index]
        return {*self.sets.get(index, ()), *self.clusters.get(config_set.cluster, ())}


class Judgement(NamedTuple):
    """What judging a run gives: findings, internal errors (a problem each, exit 2), notes (a
    cluster judged as development by its addresses), and which rules were judged where."""

    findings: list[Finding]
    problems: list[Problem]
    notes: list[Problem]
    evaluated: Evaluated


def _location(config_set: ConfigSet, keys: Iterable[str]) -> Location:
    """The first written key the finding names, else where the config set starts."""
    for key in keys:
        setting = config_set.settings.get(key)
        if setting is not None:
            return setting.location
    return config_set.anchor


def _verdict(rule: Rule, predicate: Any, values: dict[str, Any], config_set: ConfigSet) -> list[Violation] | NotJudged:
    if predicate is not None:
        return [Violation()] if predicate(values) else []
    return check(rule.definition.python)(values, config_set)  # type: ignore[arg-type]


def _resting_on(
    assumed: dict[str, Any], definition: Any, violations: list[Violation], config_set: ConfigSet
) -> list[Violation]:
    """The verdicts that may rest on an assumed cluster size. A file that says nothing of its cluster
    is judged as one of several only on what it writes: a default left alone there is too little to
    go on (a per-broker template is evidence enough)."""
    if assumed["assumed"] != facts.UNCOUNTED:
        return violations
    written = config_set.settings
    return [v for v in violations if any(key in written for key in (definition.keys if v.keys is None else v.keys))]


def _applies(
    rule: Rule, config_set: ConfigSet, release: str, profile: str, stated: bool = True, exact: bool = True
) -> bool:
    definition = rule.definition
    if definition.scope not in PER_CONFIG_SET:
        return False
    if config_set.component not in definition.applies_to.components:
        return False
    if product_of(config_set.component) != Product.KAFKA:  # a product pack's set: its own releases
        if profile == "dev" and definition.skip_in_dev:
            return False
        if definition.exact_release and not exact:
            return False
        if definition.releases is None:
            return True
        return stated and in_range(camunda_catalog.parse(release), definition.releases)
    if config_set.component in catalog.CLIENT_COMPONENTS and config_set.client not in definition.applies_to.clients:
        return False
    if profile == "dev" and definition.skip_in_dev:
        return False
    return in_range(catalog.versions.parse(release), definition.kafka_versions)


# Scopes the runner evaluates per config set; `cluster` runs once per cluster; `file` rules
# are the run session's (directives, KO001); `entity` rules wait for metric observations.
PER_CONFIG_SET = (Scope.CONFIG_SET, Scope.CLIENT_CLUSTER)


class _Run:
    """One run's state: the verdicts so far and what is built once per run."""

    __slots__ = ("document", "evaluated", "facts", "findings", "judged", "kafka_version", "metric_findings",
                 "pack_others", "params", "peers", "problems", "profile", "profiles", "rule_params",
                 "stats")  # fmt: skip

    def __init__(
        self,
        document: Document,
        kafka_version: str | None,
        profile: str | None,  # None: not stated for the run (each set may state or imply its own)
        params: dict[str, dict[str, Any]],
        stats: RunStats | None,
    ) -> None:
        self.document = document
        self.kafka_version = kafka_version
        self.profile = profile
        self.params = params
        self.stats = stats
        self.findings: list[tuple[Finding, str | None]] = []  # with the broker's cluster
        self.metric_findings: list[Finding] = []
        self.problems: list[Problem] = []  # internal errors, one per scope that failed
        self.evaluated = Evaluated()
        self.peers: dict[str | None, dict[str, Any]] = {}  # per cluster, built on first need
        self.pack_others: dict[str, Any] | None = None  # what a pack's sets read of the run's files (alerting rules)
        self.facts: dict[str | None, facts.ClusterFacts] = {}  # likewise
        self.rule_params: dict[str, dict[str, Any]] = {}  # per rule, resolved once
        self.judged: dict[int, Judged] = {}  # each set's release and where it came from
        self.profiles = profiles.profiles(document.config_sets, profile)  # each set's, by index

    def params_of(self, definition: Any) -> dict[str, Any]:
        if definition.id not in self.rule_params:
            self.rule_params[definition.id] = definition.param_values(self.params.get(definition.id))
        return self.rule_params[definition.id]

    def peers_of(self, config_set: ConfigSet) -> dict[str, Any]:
        if config_set.cluster not in self.peers:
            cluster = self.document.clusters.get(config_set.cluster or "")
            self.peers[config_set.cluster] = peer_summary.summarize(cluster.members if cluster else [config_set])
        return self.peers[config_set.cluster]

    def pack_peers(self) -> dict[str, Any]:
        """What a product pack's sets read of the run's other files (its alerting rules), once a run."""
        if self.pack_others is None:
            self.pack_others = camunda_view.peers(self.document.config_sets)
        return self.pack_others

    def facts_of(self, config_set: ConfigSet) -> facts.ClusterFacts:
        if config_set.cluster not in self.facts:
            self.facts[config_set.cluster] = facts.facts_of(self.document, config_set.cluster)
        return self.facts[config_set.cluster]

    def version_of(
        self, rule: Rule, keys: tuple[str, ...], config_set: ConfigSet
    ) -> tuple[Judged | None, tuple[str, ...]]:
        """The release a version-dependent verdict was reached with, and what was assumed of it;
        (None, ()) for a verdict every release shares, and for librdkafka and kafka-python, whose
        verdicts are about the library, not a Kafka release. A release the catalog has no data
        for (older than its oldest) may judge any verdict otherwise: every finding says so."""
        judged = self.judged.get(id(config_set))
        if judged is not None and product_of(config_set.component) != Product.KAFKA:
            return judged, (judged.assumed,) if judged.assumed and rule.definition.releases else ()
        if judged is None or config_set.client != "java":
            return None, ()
        if judged.outside_catalog:
            return judged, (judged.assumed,) if judged.assumed else ()
        if not made.depends_on_version(rule, keys, config_set):
            return None, ()
        if judged.assumed:
            return judged, (judged.assumed,)
        if judged.source is None:
            return judged, (NO_VERSION.format(release=judged.release),)
        return judged, ()

    def profile_note(self, rule: Rule, config_set: ConfigSet) -> tuple[str, ...]:
        """A finding the dev profile would quiet, on a set nobody said is production, says so."""
        if not rule.definition.skip_in_dev or profiles.stated(config_set, self.profile):
            return ()
        evidence = profiles.inferred_production(config_set, self.profile)
        return (evidence or PROD_ASSUMED,)

    def timed(self, name: str, started: float) -> None:
        if self.stats is not None:
            self.stats.seconds[name] += time.perf_counter() - started
            self.stats.evaluations[name] += 1

    def finding(
        self,
        rule: Rule,
        violation: Violation,
        config_set: ConfigSet,
        values: dict[str, Any],
        secrets: set[str],
        assumed: tuple[str, ...] = (),
    ) -> Finding:
        definition = rule.definition
        keys = violation.keys if violation.keys is not None else tuple(definition.keys)
        location = violation.location or (
            Location(config_set.path, violation.line) if violation.line else _location(config_set, keys)
        )
        judged, version_notes = self.version_of(rule, keys, config_set)
        found = made.make(
            definition,
            violation,
            location=location,
            subject=violation.subject or config_set.name,
            component=violation.component or config_set.component,
            client=config_set.client,
            context=values,
            secrets=secrets,
            change=made.change_of(rule, violation, config_set),
            assumptions=(
                *made.guessed_cluster(rule, config_set, self.document),
                *assumed,
                *made.defaults_of_the_chart(config_set, keys),
                *version_notes,
                *self.profile_note(rule, config_set),
                *config_set.facts.get("assumed", ()),  # what the loader had to assume of the whole file
            ),
            kafka_version=judged.release if judged else None,
            kafka_version_from=None if judged is None else "assumed" if version_notes else judged.source,
            product=product_of(config_set.component),
        )
        bootstrap = config_set.facts.get("bootstrap")
        if bootstrap and found.keys and getattr(location, "kind", "") == "live":  # where the value lives
            from advisor.analysis.live_change import how_to_change

            hint = how_to_change(location, found.keys[0], found.recommended, bootstrap)  # type: ignore[arg-type]
            found = found._replace(recommended=f"{found.recommended} — {hint}") if hint else found
        return found

    def config_sets(self, rules: list[Rule]) -> None:
        """Every config set judged, many of them by several processes (advisor/forked.py): the
        same findings, problems and evaluations, in the same order, as one process judging them in turn."""
        sets = self.document.config_sets
        jobs = 1 if self.stats is not None else forked.workers(len(sets), MIN_SETS_FORKED)
        parts = forked.chunks(list(range(len(sets))), jobs)
        for found, errors, judged in forked.map_chunks(parts, lambda part: self.judge(part, rules), jobs):
            self.findings += found
            self.profiles.notes.extend([e for e in errors if e.kind == "not-judged"])
            self.problems += [e for e in errors if e.kind != "not-judged"]
            for index, verdict, evaluated in judged:
                self.judged[id(sets[index])] = verdict
                self.evaluated.sets[index] = evaluated

    def judge(
        self, indexes: list[int], rules: list[Rule]
    ) -> tuple[list[tuple[Finding, str | None]], list[Problem], list[tuple[int, Judged, tuple[str, ...]]]]:
        """The findings of the config sets at these indexes, the internal errors met (and the rules a
        set gave nothing to judge by, as not-judged notes), and the release that judged each set with
        the rules judged on it."""
        sets = self.document.config_sets
        found: list[tuple[Finding, str | None]] = []
        errors: list[Problem] = []
        applicable: dict[tuple[Any, ...], tuple[list[Any], tuple[str, ...]]] = {}  # a few kinds, many sets
        judged = []
        for index in indexes:
            config_set = sets[index]
            try:
                findings, evaluated, unjudged = self.config_set(index, rules, applicable)
            except Exception as error:  # noqa: BLE001 - a bug must not cost the other sets their verdicts
                errors.append(self.failed(config_set, error))
                continue
            found += findings
            errors += unjudged  # said in the run's notes (their kind): a forked part hands them back with its findings
            judged.append((index, self.judged[id(config_set)], evaluated))
        return found, errors, judged

    def failed(self, config_set: ConfigSet, error: Exception) -> Problem:
        """An internal error while judging one config set: a problem for its file (exit 2), named
        by the exception's type only — its text may quote a value, which may be a secret."""
        message = f"internal error ({type(error).__name__}) while checking {config_set.name}; please report it"
        return Problem(config_set.path, config_set.anchor.line, message, "internal")

    def config_set(
        self, index: int, rules: list[Rule], applicable: dict[Any, tuple[list[Any], tuple[str, ...]]]
    ) -> tuple[list[tuple[Finding, str | None]], tuple[str, ...], list[Problem]]:
        """The findings of one config set (kept apart until it is judged whole), the rules judged on
        it, and a note for each rule that found nothing there to judge by."""
        config_set = self.document.config_sets[index]
        found: list[tuple[Finding, str | None]] = []
        pack = product_of(config_set.component) != Product.KAFKA
        if pack:  # a product pack's set: judged with its product's release (never --kafka-version)
            judged = self.judged[id(config_set)] = camunda_view.judged_release(config_set)
        else:
            judged = self.judged[id(config_set)] = judged_release(config_set, self.kafka_version)
        unjudged: list[Problem] = []
        if config_set.facts.get("context_only"):
            return found, (), unjudged  # a running cluster read as the files' context (--bootstrap-server): not judged
        release = judged.release
        stated = not pack or camunda_view.stated(judged)
        exact = not pack or (stated and judged.assumed is None)
        set_profile = self.profiles.of[index]
        values = None
        assumed: dict[str, Any] | None = None  # the cluster record of a broker nothing counts
        secrets = {key for key, setting in config_set.settings.items() if setting.secret}
        kind = (config_set.component, config_set.client, release, set_profile, stated, exact)
        if kind not in applicable:  # each rule with what its every run reads, looked up once
            chosen = [
                (rule, rule.required_keys, rule.predicate, self.params_of(rule.definition))
                for rule in rules
                if _applies(rule, config_set, release, set_profile, stated, exact)
            ]
            applicable[kind] = (chosen, tuple(rule.definition.id for rule, *_ in chosen))
        written = config_set.settings.keys()
        timing = self.stats is not None
        for rule, required_keys, predicate, params in applicable[kind][0]:
            if required_keys and not required_keys <= written:
                continue  # the predicate asks for a key this set does not write: it cannot hold
            if values is None:
                started = time.perf_counter()
                if pack:
                    values = camunda_view.context(config_set, judged, set_profile, self.pack_peers())
                else:
                    values = rule_context.build(
                        config_set, release, set_profile, self.peers_of(config_set), self.facts_of(config_set)
                    )
                self.timed("(context)", started)
                if values["cluster"] is None and not pack:
                    assumed = facts.assumed_size(config_set, set_profile)
            definition = rule.definition
            values["params"] = params
            started = time.perf_counter() if timing else 0.0
            verdict = _verdict(rule, predicate, values, config_set)
            if isinstance(verdict, NotJudged):  # the set does not say what the rule judges by: said, not passed
                message = f"{definition.id} not judged on {config_set.name}: {verdict.reason}"
                unjudged.append(Problem(config_set.path, config_set.anchor.line, message, "not-judged"))
                continue
            violations, context = verdict, values
            assumption: tuple[str, ...] = ()
            if assumed is not None and definition.assumes_brokers:
                # A cluster nothing counts, judged as several brokers: only when that changes the verdict
                # does the finding rest on it, and say so.
                context = {**values, "cluster": assumed}
                again = _verdict(rule, predicate, context, config_set)
                guessed = _resting_on(assumed, definition, [] if isinstance(again, NotJudged) else again, config_set)
                if len(guessed) > len(violations):
                    violations, assumption = guessed, (assumed["assumed"],)
                else:
                    context = values
            if timing:
                self.timed(definition.id, started)
            for violation in violations:
                finding = self.finding(rule, violation, config_set, context, secrets, assumption)
                found.append((finding, config_set.cluster if config_set.component == "broker" else None))
        skipped = {p.message.split(" ", 1)[0] for p in unjudged}
        return found, tuple(i for i in applicable[kind][1] if i not in skipped), unjudged

    def unversioned(self, rules: list[Rule]) -> None:
        """A product pack's set whose release nothing stated: the rules that depend on the release
        were not judged there, and the run says so (never a clean pass)."""
        for config_set in self.document.config_sets:
            judged = self.judged.get(id(config_set))
            if judged is None or product_of(config_set.component) == Product.KAFKA:
                continue
            stated = camunda_view.stated(judged)
            mine = [r.definition for r in rules if config_set.component in r.definition.applies_to.components]
            if not stated:
                skipped = [d.id for d in mine if d.releases is not None or d.exact_release]
                why = judged.assumed or camunda_view.NO_VERSION
            else:
                skipped = [d.id for d in mine if d.exact_release] if judged.assumed else []
                why = judged.assumed or ""
            if skipped:
                message = f"{', '.join(skipped)} not judged on {config_set.name}: {why}"
                self.profiles.notes.append(Problem(config_set.path, config_set.anchor.line, message, "not-judged"))

    def clusters(self, rules: list[Rule]) -> None:
        """Cluster-scope rules: one check per cluster, which says where each violation is."""
        index_of = {id(config_set): index for index, config_set in enumerate(self.document.config_sets)}
        for rule in rules:
            definition = rule.definition
            if definition.scope != Scope.CLUSTER:
                continue
            for cluster_id, cluster in self.document.clusters.items():
                members = [m for m in cluster.members if m.component in definition.applies_to.components]
                if definition.live:  # what was read from a running cluster; the place is the check's
                    members = cluster.members if cluster.live is not None else []
                    if cluster.context_only and not definition.beside:
                        members = []  # the cluster is the files' context: only rules that judge the files against it
                if not members:
                    continue
                if self.profiles.of[index_of[id(members[0])]] == "dev" and definition.skip_in_dev:
                    continue
                started = time.perf_counter()
                params = self.params_of(definition)
                cluster_check = cluster_check_named(definition.python)  # type: ignore[arg-type]
                try:
                    violations = cluster_check(cluster, self.peers_of(members[0]), params)
                except Exception as error:  # noqa: BLE001 - one cluster's bug must not cost the others
                    self.problems.append(self.failed(members[0], error))
                    continue
                if violations is None:
                    continue  # what it judges was not read (said in the run's notes): not judged here
                if isinstance(violations, NotJudged):  # what it judges by was not given: said here
                    where = f"live://{cluster.live.cluster_id}" if cluster.live is not None else members[0].path
                    self.profiles.notes.append(Problem(where, None, f"{definition.id} not judged: {violations.reason}",
                                                       "not-judged"))  # fmt: skip
                    continue
                self.evaluated.clusters.setdefault(cluster_id, set()).add(definition.id)
                self.timed(definition.id, started)
                for violation in violations:
                    at = next((m for m in members if m.path == getattr(violation.location, "path", None)), members[0])
                    values = {"effective": {}, "peers": self.peers_of(at), "params": params}
                    self.findings.append((self.finding(rule, violation, at, values, set()), None))

    def entities(self, rules: list[Rule], observations: Observations) -> None:
        """Entity rules over the run's metric observations, each told what the configs beside them
        say (the brokers' agreed settings, clients by client.id)."""
        from advisor.analysis.broker_settings import BrokerSettings
        from advisor.analysis.client_settings import Beside, ClientSettings

        beside = None
        for rule in rules:
            definition = rule.definition
            if definition.scope != Scope.ENTITY:
                continue
            if beside is None:
                document = self.document if self.document.config_sets else None
                beside = Beside(BrokerSettings(document, self.kafka_version),
                                ClientSettings(document, self.kafka_version), document)  # fmt: skip
            values = self.params_of(definition)
            try:
                metric_check = metric_check_named(definition.python)  # type: ignore[arg-type]
                violations = metric_check(observations, definition, values, beside)
            except Exception as error:  # noqa: BLE001 - one rule's bug must not cost the others
                message = f"internal error ({type(error).__name__}) while judging {definition.id}; please report it"
                where = observations.origins[0] if observations.origins else "metrics"
                self.problems.append(Problem(where, None, message, "internal"))
                continue
            self.evaluated.entity.add(definition.id)
            context = {**made.EMPTY_CONTEXT, "params": values}
            for violation in violations:
                finding = made.make(
                    definition,
                    violation,
                    location=violation.location,
                    subject=violation.arguments.get("node", ""),
                    component=violation.component or "broker",
                    client=violation.client,
                    context=context,
                    assumptions=violation.assumptions,
                    confidence="low" if violation.assumptions else "high",
                    product=product_of(violation.component or "broker"),
                )
                self.metric_findings.append(finding)


def run(
    document: Document,
    rules: Iterable[Rule],
    *,
    observations: Observations | None = None,
    kafka_version: str | None = None,
    profile: str | None = None,
    stats: RunStats | None = None,
    params: dict[str, dict[str, Any]] | None = None,
) -> Judgement:
    """Every applicable rule over the document (and the observations, when metrics were read);
    `params` are the project's per-rule settings, already checked. The document is not changed."""
    rules = list(rules)
    state = _Run(document, kafka_version, profile, params or {}, stats)
    state.config_sets(rules)
    state.unversioned(rules)
    state.clusters(rules)
    if observations is not None:
        state.entities(rules, observations)
    state.findings.sort(key=lambda pair: pair[0].sort_key)
    # A metric finding is one node's (or the cluster's) already: never merged with another.
    found = sorted([*merge_same_cause(state.findings), *state.metric_findings], key=lambda f: f.sort_key)
    return Judgement(found, state.problems, state.profiles.notes, state.evaluated)


def merge_same_cause(findings: list[tuple[Finding, str | None]]) -> list[Finding]:
    """One cause, one finding. The brokers of one cluster that share a problem (the same rule,
    message and keys) give one finding with every broker's location, the first as its place;
    one line shared by several config sets (a YAML anchor merged into three brokers) gives one
    finding naming every subject. Findings come sorted, so the first place is the earliest."""
    groups: dict[tuple[object, ...], list[Finding]] = {}
    for finding, cluster in findings:
        place: tuple[object, ...] = (cluster,) if cluster is not None else (finding.path, finding.line, finding.column)
        groups.setdefault((finding.rule, finding.message, finding.keys, *place), []).append(finding)
    merged = []
    for group in groups.values():  # in the order of each group's first finding
        first = group[0]
        if len(group) == 1:
            merged.append(first)
            continue
        subjects = list(dict.fromkeys(f.subject for f in group))
        related = [loc for loc in dict.fromkeys(f.location for f in group[1:]) if loc != first.location]
        changes = tuple(dict.fromkeys(change for f in group for change in f.changes))
        merged.append(first._replace(subject=", ".join(subjects), related=tuple(related), changes=changes))
    return merged
