"""Runs rules over the normalized document and produces findings.

Each rule is evaluated only on the config sets it applies to (component, client,
Kafka version), so the cost of a JMESPath predicate is paid where it can matter.
"""

from __future__ import annotations

import re
import time
from collections import defaultdict
from collections.abc import Iterable

from advisor import TYPE_CHECKING, catalog, forked, lazy_re
from advisor.analysis import peers as peer_summary
from advisor.model.changes import Change
from advisor.model.document import ConfigSet, Document, Location, Problem
from advisor.model.findings import Finding, Fix
from advisor.model.record import Value
from advisor.model.vocabulary import Scope
from advisor.named_tuple import NamedTuple
from advisor.rules import context as rule_context
from advisor.rules.registry import Rule, check, cluster_check_named
from advisor.rules.spec import in_range
from advisor.rules.violation import Violation
from advisor.secrets import REDACTED

if TYPE_CHECKING:
    from typing import Any

MIN_SETS_FORKED = 512  # config sets below which judging them in one process is quicker than forking

_PLACEHOLDER = lazy_re.compile(r"\{([A-Za-z0-9_.\-]+)\}")


class RunStats(Value):
    """Seconds spent per rule, for the benchmark and `--statistics`."""

    __slots__ = ("evaluations", "seconds")

    def __init__(self, seconds: dict[str, float] | None = None, evaluations: dict[str, int] | None = None) -> None:
        self.seconds: dict[str, float] = defaultdict(float) if seconds is None else seconds
        self.evaluations: dict[str, int] = defaultdict(int) if evaluations is None else evaluations


def resolve_release(config_set: ConfigSet, requested: str | None) -> str:
    """--kafka-version, else a version the input declares (directive, image tag), else the
    broker's inter.broker.protocol.version (e.g. 3.9-IV0), else the newest release."""
    return _resolve(config_set, requested).release


class Judged(NamedTuple):
    """The release that judges a config set, where it came from (None: nothing said it), and
    what was assumed to get there (None: nothing)."""

    release: str
    source: str | None
    assumed: str | None
    outside_catalog: bool = False  # the input names a release the catalog has no data for


NO_VERSION = (
    "Kafka {release}, the newest release: no version found; set --kafka-version, kafka-version in "
    "the project config, or a '# kafka-advisor: kafka-version=X.Y' line"
)


def _zookeeper_mode(config_set: ConfigSet) -> bool:
    """A broker configured for ZooKeeper: it names its ensemble, or an id without KRaft roles."""
    settings = config_set.settings
    if config_set.component != "broker":
        return False
    return "zookeeper.connect" in settings or ("broker.id" in settings and "process.roles" not in settings)


def _last_zookeeper_release() -> str:
    """The newest catalog release before 4.0 (the last that ran ZooKeeper mode)."""
    return [r for r in catalog.releases() if catalog.versions.parse(r) < (4, 0, 0)][-1]


def _resolve(config_set: ConfigSet, requested: str | None) -> Judged:
    """The catalog release that judges the set. A version from the input that the catalog
    cannot answer for (older than its oldest release, or not a version at all: `latest`, a
    template) is judged with the nearest release, and the findings say so; --kafka-version was
    checked before the run."""
    hint, source = requested, "--kafka-version" if requested else None
    if hint is None and config_set.kafka_version:
        hint, source = config_set.kafka_version, config_set.kafka_version_from or "the input"
    protocol = config_set.settings.get("inter.broker.protocol.version")
    if hint is None and protocol is not None:
        try:
            catalog.versions.parse(protocol.value)
            hint, source = protocol.value, f"inter.broker.protocol.version={protocol.value}"
        except catalog.UnknownVersionError:
            pass
    if hint is None and _zookeeper_mode(config_set):
        last = _last_zookeeper_release()
        how = "zookeeper.connect" if "zookeeper.connect" in config_set.settings else "broker.id without process.roles"
        return Judged(
            last, None, f"Kafka {last} assumed: the broker runs in ZooKeeper mode ({how}), which Kafka 4.0 removed"
        )
    try:
        return Judged(catalog.resolve_version(hint), source, None)
    except catalog.UnknownVersionError:
        releases = catalog.releases()
        try:
            catalog.versions.parse(hint or "")
        except catalog.UnknownVersionError:
            return Judged(
                releases[-1],
                None,
                f"Kafka {releases[-1]} assumed: {source} names the version {hint!r}, which is not one",
                outside_catalog=True,
            )
        return Judged(
            releases[0],
            source,
            f"judged as Kafka {releases[0]}, the oldest release the catalog knows: {source} names Kafka {hint}",
            outside_catalog=True,
        )


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


_LISTED = 3


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


def _location(config_set: ConfigSet, keys: Iterable[str]) -> Location:
    """The first written key the finding names, else where the config set starts."""
    for key in keys:
        setting = config_set.settings.get(key)
        if setting is not None:
            return setting.location
    return config_set.anchor


def _applies(rule: Rule, config_set: ConfigSet, release: str, profile: str) -> bool:
    definition = rule.definition
    if definition.scope not in PER_CONFIG_SET:
        return False
    if config_set.component not in definition.applies_to.components:
        return False
    if config_set.component in catalog.CLIENT_COMPONENTS and config_set.client not in definition.applies_to.clients:
        return False
    if profile == "dev" and definition.skip_in_dev:
        return False
    return in_range(catalog.versions.parse(release), definition.kafka_versions)


# Scopes the runner evaluates per config set; `cluster` runs once per cluster; `file` rules
# are the run session's (directives, KO001); `entity` rules wait for metric observations.
PER_CONFIG_SET = (Scope.CONFIG_SET, Scope.CLIENT_CLUSTER)


def _change(rule: Rule, violation: Violation, config_set: ConfigSet) -> Change | None:
    """The violation's own Change, else the rule's fix applied to this config set."""
    if violation.change is not None:
        return violation.change
    fix = rule.definition.fix
    if fix is None:
        return None
    key = fix.key or rule.definition.keys[0]
    value = None if fix.action == "remove" else fix.value
    return Change(fix.action, key, value, fix.applicability, config_set.path, config_set.name)


PROD_ASSUMED = (
    'judged as production: nothing says this is a development setup; --profile dev, profile = "dev" in the '
    'project config or environment = "dev" in [clusters.NAME] quiets this rule'
)


class _Run:
    """One run's state: the verdicts so far and what is built once per run."""

    __slots__ = ("document", "findings", "inferred_noted", "judged", "kafka_version", "params", "peers", "profile",
                 "rule_params", "shared", "stats")  # fmt: skip

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
        self.peers: dict[str | None, dict[str, Any]] = {}  # per cluster, built on first need
        self.shared: dict[Any, Any] = {}  # the rule context's per-cluster parts
        self.rule_params: dict[str, dict[str, Any]] = {}  # per rule, resolved once
        self.judged: dict[int, Judged] = {}  # each set's release and where it came from
        self.inferred_noted: set[str | None] = set()  # clusters judged as dev by their addresses

    def params_of(self, definition: Any) -> dict[str, Any]:
        if definition.id not in self.rule_params:
            self.rule_params[definition.id] = definition.param_values(self.params.get(definition.id))
        return self.rule_params[definition.id]

    def peers_of(self, config_set: ConfigSet) -> dict[str, Any]:
        if config_set.cluster not in self.peers:
            cluster = self.document.clusters.get(config_set.cluster or "")
            self.peers[config_set.cluster] = peer_summary.summarize(cluster.members if cluster else [config_set])
        return self.peers[config_set.cluster]

    def version_of(
        self, rule: Rule, keys: tuple[str, ...], config_set: ConfigSet
    ) -> tuple[Judged | None, tuple[str, ...]]:
        """The release a version-dependent verdict was reached with, and what was assumed of it;
        (None, ()) for a verdict every release shares, and for librdkafka and kafka-python, whose
        verdicts are about the library, not a Kafka release. A release the catalog has no data
        for (older than its oldest) may judge any verdict otherwise: every finding says so."""
        judged = self.judged.get(id(config_set))
        if judged is None or config_set.client != "java":
            return None, ()
        if judged.outside_catalog:
            return judged, (judged.assumed,) if judged.assumed else ()
        if not depends_on_version(rule, keys, config_set):
            return None, ()
        if judged.assumed:
            return judged, (judged.assumed,)
        if judged.source is None:
            return judged, (NO_VERSION.format(release=judged.release),)
        return judged, ()

    def profile_of(self, config_set: ConfigSet) -> str:
        """A file's or declared cluster's profile, else the run's, else what the cluster's
        addresses imply (loopback only: a laptop), else production."""
        stated = config_set.facts.get("profile") or self.profile
        if stated:
            return stated
        inferred = config_set.facts.get("profile_inferred")
        if inferred is None:
            return "prod"
        if config_set.cluster not in self.inferred_noted:  # said once per cluster
            self.inferred_noted.add(config_set.cluster)
            message = (
                "judged as a development setup: clients reach its broker(s) only on loopback or compose-network"
                f" names ({inferred[1]}),"
                ' so the rules the dev profile quiets were not run; --profile prod or environment = "prod" in'
                " [clusters.NAME] judges it as production"
            )
            self.document.notes.append(Problem(config_set.path, config_set.anchor.line, message, "note"))
        return inferred[0]

    def profile_note(self, rule: Rule, config_set: ConfigSet) -> tuple[str, ...]:
        """A finding the dev profile would quiet, on a set nobody said is production, says so."""
        if not rule.definition.skip_in_dev or self.profile or config_set.facts.get("profile"):
            return ()
        return (PROD_ASSUMED,)

    def timed(self, name: str, started: float) -> None:
        if self.stats is not None:
            self.stats.seconds[name] += time.perf_counter() - started
            self.stats.evaluations[name] += 1

    def finding(
        self, rule: Rule, violation: Violation, config_set: ConfigSet, values: dict[str, Any], secrets: set[str]
    ) -> Finding:
        definition = rule.definition
        keys = violation.keys if violation.keys is not None else tuple(definition.keys)
        location = violation.location or (
            Location(config_set.path, violation.line) if violation.line else _location(config_set, keys)
        )
        message = violation.message or render(definition.message, values, secrets, violation.arguments)
        recommended = violation.recommended or render(definition.recommended, values, secrets, violation.arguments)
        change = _change(rule, violation, config_set)
        judged, version_notes = self.version_of(rule, keys, config_set)
        return Finding(
            rule=definition.id,
            name=definition.name,
            severity=definition.severity,
            category=definition.category,
            message=message,
            location=location,
            keys=keys,
            component=config_set.component,
            client=config_set.client,
            subject=config_set.name,
            recommended=recommended,
            fix=Fix(change.value or "", change.applicability) if change is not None else None,
            changes=(change,) if change is not None else (),
            assumptions=(
                *_assumptions(rule, config_set, self.document),
                *_defaults_of_the_chart(config_set, keys),
                *version_notes,
                *self.profile_note(rule, config_set),
            ),
            kafka_version=judged.release if judged else None,
            kafka_version_from=None if judged is None else "assumed" if version_notes else judged.source,
        )

    def config_sets(self, rules: list[Rule]) -> None:
        """Every config set judged, many of them by several processes (advisor/forked.py): the
        same findings, problems and notes, in the same order, as one process judging them in turn."""
        sets = self.document.config_sets
        jobs = 1 if self.stats is not None else forked.workers(len(sets), MIN_SETS_FORKED)
        if jobs > 1:  # what judging a set adds to the document besides findings, written here first
            for config_set in sets:
                self.profile_of(config_set)
        parts = forked.chunks(list(range(len(sets))), jobs)
        for found, errors, judged in forked.map_chunks(parts, lambda part: self.judge(part, rules), jobs):
            self.findings += found
            self.document.errors += errors
            for index, verdict in judged:
                self.judged[id(sets[index])] = verdict

    def judge(
        self, indexes: list[int], rules: list[Rule]
    ) -> tuple[list[tuple[Finding, str | None]], list[Problem], list[tuple[int, Judged]]]:
        """The findings of the config sets at these indexes, the internal errors met, and the
        release that judged each set."""
        sets = self.document.config_sets
        found: list[tuple[Finding, str | None]] = []
        errors: list[Problem] = []
        applicable: dict[tuple[str, str, str, str], list[Any]] = {}  # a few kinds of config set, many sets
        for index in indexes:
            config_set = sets[index]
            try:
                found += self.config_set(config_set, rules, applicable)
            except Exception as error:  # noqa: BLE001 - a bug must not cost the other sets their verdicts
                errors.append(self.failed(config_set, error))
        judged = [(index, verdict) for index in indexes if (verdict := self.judged.get(id(sets[index])))]
        return found, errors, judged

    def failed(self, config_set: ConfigSet, error: Exception) -> Problem:
        """An internal error while judging one config set: a problem for its file (exit 2), named
        by the exception's type only — its text may quote a value, which may be a secret."""
        message = f"internal error ({type(error).__name__}) while checking {config_set.name}; please report it"
        return Problem(config_set.path, config_set.anchor.line, message, "internal")

    def config_set(
        self, config_set: ConfigSet, rules: list[Rule], applicable: dict[Any, list[Any]]
    ) -> list[tuple[Finding, str | None]]:
        """The findings of one config set (kept apart until it is judged whole)."""
        found: list[tuple[Finding, str | None]] = []
        judged = self.judged[id(config_set)] = _resolve(config_set, self.kafka_version)
        release = judged.release
        set_profile = self.profile_of(config_set)
        values = None
        secrets = {key for key, setting in config_set.settings.items() if setting.secret}
        kind = (config_set.component, config_set.client, release, set_profile)
        if kind not in applicable:  # each rule with what its every run reads, looked up once
            applicable[kind] = [
                (rule, rule.required_keys, rule.predicate, self.params_of(rule.definition))
                for rule in rules
                if _applies(rule, config_set, release, set_profile)
            ]
        written = config_set.settings.keys()
        timing = self.stats is not None
        for rule, required_keys, predicate, params in applicable[kind]:
            if required_keys and not required_keys <= written:
                continue  # the predicate asks for a key this set does not write: it cannot hold
            if values is None:
                started = time.perf_counter()
                peers = self.peers_of(config_set)
                values = rule_context.build(config_set, self.document, release, set_profile, peers, self.shared)
                self.timed("(context)", started)
            definition = rule.definition
            values["params"] = params
            started = time.perf_counter() if timing else 0.0
            if predicate is not None:
                if not predicate(values):
                    if timing:
                        self.timed(definition.id, started)
                    continue
                violations = [Violation()]
            else:
                violations = check(definition.python)(values, config_set)  # type: ignore[arg-type]
            if timing:
                self.timed(definition.id, started)
            for violation in violations:
                finding = self.finding(rule, violation, config_set, values, secrets)
                found.append((finding, config_set.cluster if config_set.component == "broker" else None))
        return found

    def clusters(self, rules: list[Rule]) -> None:
        """Cluster-scope rules: one check per cluster, which says where each violation is."""
        for rule in rules:
            definition = rule.definition
            if definition.scope != Scope.CLUSTER:
                continue
            for cluster in self.document.clusters.values():
                members = [m for m in cluster.members if m.component in definition.applies_to.components]
                if not members:
                    continue
                if self.profile_of(members[0]) == "dev" and definition.skip_in_dev:
                    continue
                started = time.perf_counter()
                params = self.params_of(definition)
                cluster_check = cluster_check_named(definition.python)  # type: ignore[arg-type]
                try:
                    violations = cluster_check(cluster, self.peers_of(members[0]), params)
                except Exception as error:  # noqa: BLE001 - one cluster's bug must not cost the others
                    self.document.errors.append(self.failed(members[0], error))
                    continue
                self.timed(definition.id, started)
                for violation in violations:
                    at = next((m for m in members if m.path == getattr(violation.location, "path", None)), members[0])
                    values = {"effective": {}, "peers": self.peers_of(at), "params": params}
                    self.findings.append((self.finding(rule, violation, at, values, set()), None))


def run(
    document: Document,
    rules: Iterable[Rule],
    *,
    kafka_version: str | None = None,
    profile: str | None = None,
    stats: RunStats | None = None,
    params: dict[str, dict[str, Any]] | None = None,
) -> list[Finding]:
    """Every applicable rule over the document; `params` are the project's per-rule settings."""
    rules = list(rules)
    state = _Run(document, kafka_version, profile, params or {}, stats)
    state.config_sets(rules)
    state.clusters(rules)
    state.findings.sort(key=lambda pair: pair[0].sort_key)
    return merge_same_cause(state.findings)


def _assumptions(rule: Rule, config_set: ConfigSet, document: Document) -> tuple[str, ...]:
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


def _defaults_of_the_chart(config_set: ConfigSet, keys: Iterable[str]) -> tuple[str, ...]:
    """A verdict on a value the file does not write but its Helm chart does, says whose it is."""
    said = []
    for key in keys:
        setting = config_set.settings.get(key)
        if setting is not None and setting.spelling.endswith(_CHART_DEFAULT):
            value = REDACTED if setting.secret else setting.value
            value_name = setting.spelling.removesuffix(_CHART_DEFAULT)
            said.append(f"{key}={value} is the chart's default ({value_name}), not written in this file")
    return tuple(said)


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
