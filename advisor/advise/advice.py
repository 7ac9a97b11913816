"""One advise run: the inputs read and judged by the session every command uses (lint's and
analyze's findings, the flow view), the load profile from what was given, answered and inferred,
recommend's plan against the user's files, and that plan cut into ordered single steps.

Nothing here judges: findings are the rules', values are the recommender's. `gather` reads and
judges (the terminal shows what it found before asking anything); `advise` plans.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from typing import Any

from pydantic import ValidationError

from advisor.advise import alerts as alerting
from advisor.advise import steps as stepping
from advisor.advise.infer import Inferred, infer
from advisor.metrics import vocabulary
from advisor.model.document import Document
from advisor.model.vocabulary import SEVERITY_RANK, product_of
from advisor.named_tuple import NamedTuple
from advisor.recommend.against import compare, kept
from advisor.recommend.plan import Plan, of_resolved
from advisor.recommend.profile import LoadProfile, Resolved, resolve
from advisor.report import redaction, session
from advisor.report.model import Report
from advisor.secrets import Redactor


class ClusterSeen(NamedTuple):
    id: str
    brokers: int
    topics: int
    clients: int
    files: tuple[str, ...]
    guessed: bool


class Found(NamedTuple):
    """What the run read, said before anything is asked."""

    clusters: tuple[ClusterSeen, ...]
    clients: tuple[tuple[str, str, str], ...]  # (component, library, path)
    versions: tuple[tuple[str, str, str], ...]  # (product, release, where it came from)
    metrics: tuple[tuple[str, str], ...]  # (input, what it gave)

    def to_dict(self) -> dict[str, Any]:
        return {"clusters": [c._asdict() for c in self.clusters],
                "clients": [{"component": c, "client": lib, "path": p} for c, lib, p in self.clients],
                "versions": [{"kafka_version": v, "from": w} if p == "kafka" else
                             {"product": p, "release": v, "from": w} for p, v, w in self.versions],
                "metrics": [{"input": i, "read": r} for i, r in self.metrics]}  # fmt: skip


class Gathered(NamedTuple):
    report: Report  # lint's and analyze's findings, problems, files, flow: redacted
    document: Document
    hide: Redactor
    inferred: Inferred
    found: Found
    metric_inputs: tuple[str, ...]  # the files and endpoints named, for the check commands
    kafka_version: str | None
    params: dict[str, dict[str, Any]]  # the rules' parameters as the project config sets them
    exporters: frozenset[str]  # offset and host exporters' series names seen (the alerts' naming)


def gather(request: session.RunRequest) -> Gathered:
    """Read and judge, as lint and analyze do (one session), and infer the profile's numbers."""
    from advisor.rules.registry import load_rules

    report, document, hide = session.run_settled(request)
    metric_inputs = tuple(str(p) for p in request.metric_files) + tuple(request.endpoints)
    params, _ = session.rule_params(request.params, load_rules(), "")  # a wrong one: the report says it
    return Gathered(report, document, hide, infer(document), _found(report, document), metric_inputs,
                    request.kafka_version, params, _exporters(document))  # fmt: skip


def _exporters(document: Document) -> frozenset[str]:
    """The series names the offset and host exporters wrote (few series: read whole)."""
    observations = document.observations
    if observations is None:
        return frozenset()
    found = set()
    for metric in (vocabulary.GROUP_LAG, vocabulary.GROUP_OFFSET, vocabulary.FS_AVAILABLE):
        found |= {series.written.split("{", 1)[0] for series in observations.of(metric.mbean)}
    return frozenset(found)


def _found(report: Report, document: Document) -> Found:
    clusters = tuple(
        ClusterSeen(c.id, len(c.brokers), len(c.topics), len(c.clients), tuple(c.files), c.guessed)
        for c in sorted(document.clusters.values(), key=lambda c: c.id)
    )
    clients = tuple(sorted({(s.component, s.client, s.path) for s in document.config_sets
                            if s.component in ("producer", "consumer", "admin", "streams", "connect")}))  # fmt: skip
    versions = tuple(sorted({(product_of(s.component), s.kafka_version, s.kafka_version_from or "")
                             for s in document.config_sets if s.kafka_version}))  # fmt: skip
    metrics = tuple((f.path, f.read) for f in report.files if f.series is not None)
    return Found(clusters, clients, versions, metrics)


# --- the profile -------------------------------------------------------------------------------


def resolved_profile(given: dict[str, Any], inferred: Inferred) -> tuple[Resolved, list[str]]:
    """The profile from what was given (flags, a profile file, answers) over what the inputs say:
    the inferred numbers resolved with the rest (rates and sizes derive from each other), then said
    as read from their place. An inferred number the given ones contradict is dropped, and said."""
    notes: list[str] = []
    taken = {name: value for name, (value, _) in inferred.fields.items() if name not in given}
    while True:
        try:
            profile = LoadProfile.model_validate({**taken, **given})
            break
        except ValidationError as error:
            named = {str(e["loc"][0]) for e in error.errors() if e["loc"]} & taken.keys()
            dropped = named or set(taken)  # a check across fields names none: every inferred one goes
            if not dropped:
                raise
            for name in sorted(dropped):
                notes.append(f"{name} read from {inferred.fields[name][1]} does not fit the profile given: not used")
                del taken[name]
    resolved = resolve(profile)
    seen = tuple((name, inferred.fields[name][1]) for name in sorted(taken))
    return dataclasses.replace(resolved, given=resolved.given - taken.keys(), seen=seen), notes


# --- the advice --------------------------------------------------------------------------------


class Advice(NamedTuple):
    gathered: Gathered
    plan: Plan
    steps: tuple[stepping.Step, ...]
    already: tuple[Any, ...]  # recommendations the user's files already follow
    notes: tuple[str, ...]  # what the profile could not use, and why
    alerts: alerting.Alerts
    interactive: bool = False

    @property
    def KIND(self) -> str:  # its renderers: output/__init__.py RENDERERS
        return "advise"

    @property
    def report(self) -> Report:
        return self.gathered.report

    @property
    def exit_code(self) -> int:
        return self.report.exit_code

    def health(self) -> list[tuple[str, list[Any]]]:
        """The findings shown, grouped by cluster (files in none, and metrics, their own groups),
        the group with the worst finding first, worst first within each."""
        document = self.gathered.document
        cluster_of: dict[str, str] = {}
        for cluster in document.clusters.values():
            for member in cluster.members:
                cluster_of.setdefault(member.path, cluster.id)
        measured = {f.path for f in self.report.files if f.series is not None}
        groups: dict[str, list[Any]] = defaultdict(list)
        for finding in self.report.shown:
            metric = finding.location.kind == "metric" or finding.path in measured
            name = "metrics" if metric else cluster_of.get(finding.path, "no cluster")
            groups[name].append(finding)
        for found in groups.values():
            found.sort(key=lambda f: (-SEVERITY_RANK[f.severity], f.sort_key))
        return sorted(groups.items(), key=lambda item: (-max(SEVERITY_RANK[f.severity] for f in item[1]),
                                                         -len(item[1]), item[0]))  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        report = self.report.to_dict()
        record = {
            "schema_version": 1,
            "found": self.gathered.found.to_dict(),
            "inferred": {
                name: {"value": value, "from": where}
                for name, (value, where) in sorted(self.gathered.inferred.fields.items())
            },
            "inferred_client": self.gathered.inferred.client[0] if self.gathered.inferred.client else None,
            "notes": [*self.gathered.inferred.notes, *self.notes],
            "health": [{"group": name, "findings": [f.to_dict() for f in found]} for name, found in self.health()],
            "summary": report["summary"],
            "exit_code": self.exit_code,
            "errors": report["errors"],
            "skipped": report["skipped"],
            "files": report["files"],
            "flow": self.report.flow,
            "plan": self.plan.to_dict(),
            "steps": [step.to_dict() for step in self.steps],
            "already": [f"{r.component} {r.key}={r.value}" for r in self.already],
            "alerts": self.alerts.to_dict(),
        }
        hidden: dict[str, Any] = redaction.tree(record, self.gathered.hide)
        return hidden


def advise(gathered: Gathered, given: dict[str, Any], client: str | None, interactive: bool = False) -> Advice:
    """The plan for the profile (given over inferred), against the files read, in single steps."""
    from advisor import fix

    resolved, notes = resolved_profile(given, gathered.inferred)
    library = client or (gathered.inferred.client[0] if gathered.inferred.client else "java")
    plan = of_resolved(resolved, library)
    document = gathered.document
    configured = bool(document.config_sets)
    if configured:
        compared = compare(plan.recommendations, document, gathered.kafka_version)
        plan = plan._replace(against=tuple(compared), kept=tuple(kept(document, compared)))
    groups, already = stepping.order(plan, configured)
    producer_file = next((s.path for s in document.config_sets if s.component == "producer"), None)
    hide = gathered.hide
    made = []
    differing = [tuple(a for a in plan.against if any(a.recommendation is r for r in members) and a.differs)
                 for members in groups]  # fmt: skip
    planned = _edits(differing, document)
    for number, members in enumerate(groups, 1):
        mine = differing[number - 1]
        plans = planned[number - 1]
        by_hand = tuple(hide(f"{a.config_set.path}: {a.key} {a.current} → {a.value} "
                             f"({'where the topic is created' if a.declared else 'no edit could be proven here'})")
                        for a in mine if a.change is None or not _edited(a, plans))  # fmt: skip
        components = {r.component for r in members}
        configures = {a.config_set.component for a in plan.against if any(a.recommendation is r for r in members)}
        snippet = "" if configures >= components else _snippet(plan, [r for r in members
                                                                       if r.component not in configures])  # fmt: skip
        check, why = stepping.check_command(members, list(gathered.metric_inputs), producer_file)
        together = next((reason for keys, reason in stepping.TOGETHER if len(members) > 1
                         and {r.key for r in members} <= keys), "")  # fmt: skip
        edit = fix.unified_diff(plans, document, context=1)  # one line around each: a step shows many files
        made.append(stepping.Step(number, tuple(members), together, mine, hide(edit),
                                  by_hand, hide(snippet), hide(check), why))  # fmt: skip
    recognised = {dialect for f in gathered.report.files for dialect in f.recognised}
    found = alerting.alerts(gathered.report.rules, gathered.params, recognised, set(gathered.exporters), made)
    pack = [cs for cs in document.config_sets if product_of(cs.component) != "kafka"]
    if pack:  # judged above with the Camunda pack's rules; the plan below is Kafka's
        kafka_sets = len(document.config_sets) - len(pack)
        alone = "" if kafka_sets else " (no Kafka configuration was given: it rests on assumptions)"
        notes.append(f"{len(pack)} Camunda configuration(s) judged by the Camunda pack's rules; the plan below is "
                     f"Kafka's{alone} — a Camunda workload's flow control: kafka-advisor recommend --camunda "
                     "(docs/camunda.md)")  # fmt: skip
    return Advice(gathered, plan, tuple(made), tuple(already), tuple(notes), found, interactive)


MIN_FILES_FORKED = 64  # (step, file) edits below this are planned here: a fork costs more than it saves


def _edits(steps: list[tuple[Any, ...]], document: Document) -> list[list[Any]]:
    """Each step's edits of each file it changes (fix.FilePlan), each read back to prove it — the
    costly part of a large tree's plan, so (step, file) pairs are shared among forked workers."""
    from advisor import fix, forked

    units: list[tuple[int, list[Any]]] = []
    for index, mine in enumerate(steps):
        per_file: dict[str, list[Any]] = {}
        for against in mine:
            if against.change is not None:
                per_file.setdefault(against.change.path, []).append(against.change)
        units += [(index, changes) for _, changes in sorted(per_file.items())]
    units.sort(key=lambda unit: unit[1][0].path)  # a file's steps side by side: read as it is once (stable)
    jobs = forked.workers(len(units), MIN_FILES_FORKED)

    def work(part: list[tuple[int, list[Any]]]) -> list[list[Any]]:
        return [fix.plan_changes(changes, document, ("unsafe", "safe"), join_inserts=True) for _, changes in part]

    planned: list[list[Any]] = [[] for _ in steps]
    results = [plans for part in forked.map_chunks(forked.chunks(units, jobs), work, jobs) for plans in part]
    for (index, _), plans in zip(units, results, strict=True):
        planned[index] += plans
    return planned


def _edited(against: Any, plans: list[Any]) -> bool:
    """Was this setting's change planned as an edit (else it is made by hand)?"""
    for file_plan in plans:
        if file_plan.path == against.config_set.path:
            return against.change not in file_plan.skipped
    return False


def _snippet(plan: Plan, members: list[Any]) -> str:
    """The values of components no file of the run configures, spelled for the plan's client."""
    spelled = [(r.component, plan.spelled(r)) for r in members]
    return "\n".join(f"{component}: {s.key}={s.value}" for component, s in spelled if s.key is not None)
