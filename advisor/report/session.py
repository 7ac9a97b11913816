"""A run session: everything one run decides, in the library — the CLI only parses arguments
into a `RunRequest` and renders the `Report` it gets back. Every command that reads inputs
(lint, analyze, diff, recommend, verify, bench) reads them here.

    read    configuration paths → one Document (discover, load, link); metric files, endpoints
            and Prometheus servers → its observations
    judge   the selected rules over every scope — config set, cluster, entity (the observations)
            — with the project's rule parameters, checked once (rules/runner.py)
    settle  per-file ignores → suppression directives (KO001 knows what the run selected) →
            baseline → fix plan → the lines findings point at → Report, redacted last and whole

`lint()` is the read and judge stages with suppression, returning the document too, for tests
and tools that look inside.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from advisor import TYPE_CHECKING, __version__
from advisor.model.document import Document, LoadError, Problem
from advisor.model.findings import Finding
from advisor.model.record import Record
from advisor.model.topology import ClusterDeclaration
from advisor.named_tuple import NamedTuple
from advisor.report import redaction
from advisor.report.model import FileSummary, Report
from advisor.report.selection import Selection, matches
from advisor.report.selection import unknown as selection_problems
from advisor.report.suppress import UNUSED_RULE, apply, unknown_codes
from advisor.rules import runner as evaluate
from advisor.rules.registry import Rule, load_rules
from advisor.rules.runner import Evaluated
from advisor.secrets import Redactor, redact_line
from advisor.sources import Candidate, FileOverride, LoadOptions, discover, load
from advisor.sources.limits import DEFAULTS as DEFAULT_LIMITS
from advisor.sources.limits import Limits

if TYPE_CHECKING:
    from typing import Any

    from advisor.model.observations import Observations


class LintResult(Record):
    __slots__ = ("document", "evaluated", "findings", "notes", "problems")

    def __init__(
        self,
        document: Document,
        findings: list[Finding],
        problems: list[Problem] | None = None,  # the document's errors and what judging met
        notes: list[Problem] | None = None,  # the document's notes and judging's (a cluster judged as dev)
        evaluated: Evaluated | None = None,
    ) -> None:
        self.document = document
        self.findings = findings
        self.problems: list[Problem] = list(document.errors) if problems is None else problems
        self.notes: list[Problem] = list(document.notes) if notes is None else notes
        self.evaluated = Evaluated() if evaluated is None else evaluated


def lint(files: Sequence[Candidate | Path], options: LoadOptions | None = None, **judging: Any) -> LintResult:
    """The files read and judged (judging: `judged`'s keywords), for tests and tools."""
    return judged(load(files, options or LoadOptions()), **judging)


def judged(
    document: Document,
    *,
    rules: Sequence[Rule] | None = None,
    kafka_version: str | None = None,
    profile: str | None = None,
    stats: evaluate.RunStats | None = None,
    selection: Selection | None = None,
    params: dict[str, dict[str, object]] | None = None,
) -> LintResult:
    """The judge stage and the suppressions of a document read (and its observations, if any)."""
    active = list(load_rules() if rules is None else rules)
    verdicts = evaluate.run(document, active, observations=document.observations, kafka_version=kafka_version,
                            profile=profile, stats=stats, params=params)  # fmt: skip
    findings = verdicts.findings
    if selection is not None:  # per-file ignores: before suppression, so KO001 knows
        findings = [f for f in findings if selection.active(f.path, f.rule, f.name)]
    unused = next((r for r in active if r.definition.id == UNUSED_RULE), None)

    def live(path: str, codes: list[str]) -> bool:
        """Does any rule these directive codes name run for this file? (none named: all)"""
        if selection is None:
            return True
        named = [r for r in active if not codes or matches(r.definition.id, r.definition.name, codes)]
        return any(selection.active(path, r.definition.id, r.definition.name) for r in named)

    findings = apply(findings, document.files, unused, live)
    if selection is not None:  # KO001 itself may be ignored, for a file or for the run
        findings = [f for f in findings if f.rule != UNUSED_RULE or selection.active(f.path, f.rule, f.name)]
    known = [(r.definition.id, r.definition.name) for r in load_rules()]  # a directive may name any rule
    problems = [*document.errors, *verdicts.problems, *unknown_codes(document.files, known)]
    return LintResult(document, findings, problems, [*document.notes, *verdicts.notes], verdicts.evaluated)


class LiveTarget(NamedTuple):
    """A running cluster to read: its bootstrap servers, the client settings it needs (security:
    --command-config, whose text `secrets` are hidden in every output) and a time bound."""

    bootstrap: str
    settings: tuple[tuple[str, str], ...] = ()
    secrets: tuple[str, ...] = ()  # the texts the settings came from, scanned for secret values
    timeout: float = 60.0
    snapshot: Any = None  # live.client.Snapshot read already (audit --save-snapshot read it to save it)
    path: Path | None = None  # a saved snapshot to read instead of the cluster (audit --snapshot)
    failure: str | None = None  # the read failed already (audit read it first): said as the run's problem
    context_only: bool = False  # lint: the cluster is what the files are judged against, not judged itself


class RunRequest(Record):
    __slots__ = (
        "base",
        "baseline",
        "client",
        "clusters",
        "component",
        "config_path",
        "endpoints",
        "exit_zero",
        "fail_on",
        "fixes",
        "follow_links",
        "format",
        "ignore_unknown",
        "interval",
        "kafka_version",
        "limits",
        "live",
        "metric_files",
        "metric_times",
        "metrics_passed",
        "overrides",
        "params",
        "paths",
        "profile",
        "prometheus",
        "samples",
        "selection",
        "source_lines",
        "step",
        "unread",
        "window",
    )  # fmt: skip

    def __init__(
        self,
        paths: tuple[Path, ...],
        component: str | None = None,  # --as
        client: str | None = None,
        kafka_version: str | None = None,
        profile: str | None = None,  # None: not stated (a set's own evidence, else production, said so)
        selection: Selection | None = None,
        fail_on: str = "warning",
        exit_zero: bool = False,
        baseline: Path | None = None,
        clusters: tuple[ClusterDeclaration, ...] = (),  # declared in the project config
        overrides: tuple[FileOverride, ...] = (),  # [overrides."GLOB"] of the project config
        format: str | None = None,  # --format: how the files named are read
        base: Path | None = None,  # the project config's folder
        params: dict[str, dict[str, tuple[str, int]]] | None = None,  # [params.ID], as written
        fixes: tuple[str, ...] = (),  # plan the edits of fixes of these applicabilities (`--diff`: safe)
        source_lines: bool = True,  # carry the (redacted) lines findings point at: text and SARIF show them
        config_path: Path | None = None,  # where clusters and params were declared, for errors
        limits: Limits = DEFAULT_LIMITS,  # [limits] in the project config
        follow_links: bool = False,  # --follow-links
        ignore_unknown: bool = False,  # --ignore-unknown: a file named that no reader claims is passed over
        metric_files: tuple[Path, ...] = (),  # metrics files (analyze: named, or found in a folder named)
        metrics_passed: tuple[Problem, ...] = (),  # a folder's files that look like metrics no reader takes
        metric_times: tuple[tuple[Path, float], ...] = (),  # --time FILE=WHEN: a file's time, over its mtime
        endpoints: tuple[str, ...] = (),  # exporter endpoints, scraped `samples` times `interval` s apart
        samples: int = 1,
        interval: float = 30.0,
        prometheus: tuple[str, ...] = (),  # Prometheus servers, asked for their last `window` seconds
        window: float = 900.0,  # metrics.prometheus_api.DEFAULT_WINDOW (not imported by a lint)
        step: float = 30.0,  # its DEFAULT_STEP
        unread: str = "note",  # error: a Kafka file not read, or a run that read nothing, is an error (exit 2)
        live: tuple[LiveTarget, ...] = (),  # running clusters to read (audit), through the Admin API
    ) -> None:
        self.paths = paths
        self.component = component
        self.client = client
        self.kafka_version = kafka_version
        self.profile = profile
        self.selection = Selection() if selection is None else selection
        self.fail_on = fail_on
        self.exit_zero = exit_zero
        self.baseline = baseline
        self.clusters = clusters
        self.overrides = overrides
        self.format = format
        self.base = base
        self.params: dict[str, dict[str, tuple[str, int]]] = {} if params is None else params
        self.fixes = fixes
        self.source_lines = source_lines
        self.config_path = config_path
        self.limits = limits
        self.follow_links = follow_links
        self.ignore_unknown = ignore_unknown
        self.metric_files = metric_files
        self.metrics_passed = metrics_passed
        self.metric_times = metric_times
        self.endpoints = endpoints
        self.samples = samples
        self.interval = interval
        self.prometheus = prometheus
        self.window = window
        self.step = step
        self.unread = unread
        self.live = live

    @property
    def reads_metrics(self) -> bool:
        return bool(self.metric_files or self.endpoints or self.prometheus)


def _not_read(path: Path) -> str:
    """Why a file named was not read: metrics are analyze's; metrics in a shape no reader takes
    are said with what to save instead; anything else is no format we read."""
    from advisor.metrics import sniff

    head = sniff.read_head(path)
    found = sniff.kind(head)
    if found:
        return f"{sniff.described(found)}, not configuration: kafka-advisor analyze reads it"
    near = sniff.near_miss(head)
    if near:
        return f"not read: {near}"
    return "not a configuration format kafka-advisor reads"


def _why_missing(path: Path) -> str:
    """Why a path named on the command line was not read."""
    if path.exists():
        return "not a regular file (a pipe, a device or a socket): not read"
    if path.is_symlink():
        return "a link to nothing (broken, or a loop of links)"
    return "no such file or directory"


def run(request: RunRequest, sleep: Callable[[float], None] = time.sleep) -> Report:
    return run_with_document(request, sleep)[0]


def options_of(request: RunRequest) -> LoadOptions:
    """How the request's configuration is read (the project config's clusters and overrides, --as, --format)."""
    return LoadOptions(
        component=request.component,
        client=request.client,
        clusters=request.clusters,
        base=request.base,
        overrides=request.overrides,
        format=request.format,
        limits=request.limits,
        follow_links=request.follow_links,
    )


class Inputs(Record):
    """What the read stage gives: the configuration as one Document (its own errors and notes in
    it), the metrics' observations with their problems (None: the run named no metrics), and the
    paths named that could not be read or were passed over."""

    __slots__ = ("candidates", "document", "metrics", "problems", "skipped")

    def __init__(self, document: Document, candidates: list[Candidate], metrics: Any, problems: list[Problem],
                 skipped: list[Problem]) -> None:  # fmt: skip
        self.document = document
        self.candidates = candidates  # their texts: the run's secrets are scanned there
        self.metrics = metrics  # metrics.files.Read
        self.problems = problems
        self.skipped = skipped


def read(request: RunRequest, sleep: Callable[[float], None] = time.sleep) -> Inputs:
    """The read stage: every configuration path and metric input the request names."""
    skipped: list[Problem] = []
    options = options_of(request)
    candidates: list[Candidate] = []
    problems: list[Problem] = []
    if request.paths:
        candidates, unknown, missing = discover(request.paths, skipped, options, read_ahead=True)
        problems += [Problem(str(path), None, _why_missing(path), "missing") for path in missing]
        if request.ignore_unknown:  # said among the files not read, as for a folder walk
            skipped += [Problem(str(p), None, f"skipped: {_not_read(p)}", "skipped") for p in unknown]
        else:
            problems += [Problem(str(p), 1, _not_read(p), "unsupported") for p in unknown]
    document = load(candidates, options) if candidates or not request.reads_metrics else Document(options=options)
    metrics = None
    if request.reads_metrics:
        from advisor.metrics import files as metric_files

        metrics = metric_files.observed(request.metric_files, request.limits, request.endpoints, request.samples,
                                        request.interval, request.prometheus, request.window, request.step,
                                        sleep, dict(request.metric_times))  # fmt: skip
        document.observations = metrics.observations
    if request.prometheus and any(cs.component == "zeebe-broker" for cs in document.config_sets):
        _live_alerting_rules(request, document, problems)
    for target in request.live:
        _read_live(target, document, problems, skipped, request.limits.file_bytes)
    if metrics is not None:
        skipped += _join_measured(document)
    return Inputs(document, candidates, metrics, problems, skipped)


def _live_alerting_rules(request: RunRequest, document: Document, problems: list[Problem]) -> None:
    """The alerting rules each Prometheus server given has loaded, as the Camunda pack's alerting
    sets: they count for every broker configuration of the run (they watch the running cluster,
    wherever their files are kept), and ZX001 judges them as it judges rule files."""
    from advisor.metrics import prometheus_api
    from advisor.model.document import ConfigSet, Setting
    from advisor.model.provenance import MetricSample

    for server in request.prometheus:
        try:
            origin, rules = prometheus_api.alerting_rules(server, request.limits)
        except LoadError as error:
            problems.append(error.problem)
            continue
        path = origin + "/api/v1/rules"  # no file to point at: a place named by the server (SARIF: logical)
        anchor = MetricSample(path, "alerting rules")
        config_set = ConfigSet("camunda-alerts", path, anchor, name=f"alerting rules of {origin}")  # type: ignore[arg-type]
        config_set.facts["live_rules"] = True
        for name, expr in rules:
            if "zeebe_" in expr:
                where = MetricSample(path, f"alert {name}")
                config_set.add(Setting(f"alert.{name}", " ".join(expr.split()), name, where, False))  # type: ignore[arg-type]
        document.config_sets.append(config_set)


def _bounded_text(path: Path, most: int) -> str:
    """A saved snapshot's text, within the file size every input is held to ([limits] file-bytes)."""
    from advisor.sources import text

    try:
        size = path.stat().st_size
        if size > most:
            raise LoadError(str(path), None, f"larger than {most:,} bytes ({size:,}; limits.file-bytes): not read",
                            "limit")  # fmt: skip
        return text.read_text(path)
    except OSError as error:
        raise LoadError(str(path), None, error.strerror or str(error), "missing") from None
    except UnicodeDecodeError:
        raise LoadError(str(path), 1, "not UTF-8 text", "syntax") from None


def _read_live(target: LiveTarget, document: Document, problems: list[Problem], skipped: list[Problem],
               most: int) -> None:  # fmt: skip
    """A running cluster's snapshot into the document; what could not be described is said."""
    from advisor.live import client, saved
    from advisor.live import document as live_document

    if target.failure is not None:
        problems.append(Problem(target.bootstrap, None, target.failure, "live"))
        return
    try:
        if target.snapshot is not None:
            snapshot = target.snapshot
        elif target.path is not None:
            snapshot = saved.load(str(target.path), _bounded_text(target.path, most))
        else:
            snapshot = client.read(target.bootstrap, dict(target.settings), target.timeout)
    except client.LiveError as error:
        problems.append(Problem(target.bootstrap, None, str(error), "live"))
        return
    except LoadError as error:
        problems.append(error.problem)
        return
    live_document.into(document, snapshot, target.context_only)
    where = f"live://{snapshot.cluster_id}"
    skipped += [Problem(where, None, f"not seen: {reason}", "not-seen") for reason in snapshot.not_seen]
    # a part that failed to be read (a broker down, a timeout): the audit is partial, exit 2
    problems += [Problem(where, None, f"partial: {reason}", "live") for reason in snapshot.failed]


def _join_measured(document: Document) -> list[Problem]:
    """The run's metrics given to the running cluster read with them (the rules that need both:
    a throttle against the brokers' write rate), when they can only be its: one cluster read, and
    metrics naming at most one cluster. Otherwise said, and no rule joins them."""
    live = [cluster for cluster in document.clusters.values() if cluster.live is not None]
    if not live or document.observations is None:
        return []
    named = sorted({series.cluster for series in document.observations.series if series.cluster is not None})
    if len(live) == 1 and len(named) <= 1:
        live[0].measured = document.observations
        return []
    clusters = f"the metrics name clusters {', '.join(named)}" if len(named) > 1 else "several clusters were read"
    message = (f"{clusters}: which running cluster they measure is not known, so no rule judges the cluster "
               "by them")  # fmt: skip
    return [Problem(f"live://{live[0].id}", None, message, "not-joined")]


def run_with_document(request: RunRequest, sleep: Callable[[float], None] = time.sleep) -> tuple[Report, Document]:
    """The Report, and the document it judged (diff compares two runs' documents)."""
    report, document, _ = run_settled(request, sleep)
    return report, document


def run_settled(request: RunRequest, sleep: Callable[[float], None] = time.sleep) -> tuple[Report, Document, Redactor]:
    """The Report, the document it judged, and the run's redactor: what advise builds on the
    Report passes its own strings through the same layer."""
    inputs = read(request, sleep)
    candidates, metrics, problems, skipped = inputs.candidates, inputs.metrics, list(inputs.problems), inputs.skipped
    # judge
    all_rules = load_rules()
    params, bad = rule_params(request.params, all_rules, str(request.config_path or "project config"))
    problems += bad
    known = [(r.definition.id, r.definition.name) for r in all_rules]
    problems += selection_problems(request.selection.stated, known)
    rules = [r for r in all_rules if request.selection.selects(r.definition.id, r.definition.name)]
    result = judged(
        inputs.document,
        rules=rules,
        kafka_version=request.kafka_version,
        profile=request.profile,
        selection=request.selection,
        params=params,
    )
    # settle
    document = result.document
    findings = result.findings
    problems += result.problems  # the document's errors, then judging's
    if metrics is not None:
        problems += metrics.problems
    read_paths = {source.path for source in document.files}  # a compose file's .env is read through it
    read_here = {str(path) for path in request.metric_files}  # a walk's metrics files: read as metrics
    skipped = [note for note in skipped if note.path not in read_paths and note.path not in read_here] + result.notes
    if metrics is not None:  # inputs of which the rules read nothing: said, never a clean bill of health
        skipped += metrics.unread
    skipped += request.metrics_passed  # a folder's files that look like metrics no reader takes
    if not document.files and not request.reads_metrics and request.paths and not problems:  # else: said why
        skipped.append(_nothing_read(request.paths))
    if request.unread == "error":  # a CI gate that must not pass on what it did not read
        unread = [note for note in skipped if note.kafka or note.kind == "nothing-read"]
        skipped = [note for note in skipped if note not in unread]
        problems += [note._replace(message=note.message.removeprefix("skipped: "), kind="unread") for note in unread]
    if request.baseline is not None:
        from advisor.report import baseline as baselines

        try:
            findings = baselines.apply(request.baseline, findings)
        except LoadError as error:
            problems.append(error.problem)
    fixes: list[Any] = []  # fix.FilePlan: imported only when fixes are asked for
    diff = ""
    if request.fixes:
        from advisor import fix

        fixes = fix.plan(findings, document, request.fixes)
        diff = fix.unified_diff(fixes, document)
        held = (Problem(plan.path, line, f"{change.key}: its fix is not written: {why}", "fix-held")
                for plan in fixes for change, line, why in fix.unwritten(plan, document))  # fmt: skip
        skipped += list(dict.fromkeys(held))  # one note per place, not per config set sharing it
    per_file = Counter(config_set.path for config_set in document.config_sets)
    files = [FileSummary(s.path, s.format, per_file[s.path]) for s in document.files]
    live = Counter(cs.path.split("/", 3)[2] for cs in document.config_sets if cs.facts.get("live"))
    files += [FileSummary(f"live://{cluster}", "live", count) for cluster, count in live.items()]
    lines = _shown_lines(document, findings) if request.source_lines else {}
    flow = None
    if metrics is not None:
        from advisor.analysis import flow as flow_view

        for path in request.metric_files:  # what each gave the rules (a file that could not be read: nothing)
            gave = metrics.inputs.get(str(path))
            if gave is None:
                files.append(FileSummary(str(path), metrics.formats[path], 0))
            else:
                files.append(FileSummary(str(path), gave.kind, 0, gave.series, gave.recognised, gave.described()))
        named = {str(path) for path in request.metric_files}
        for origin, gave in metrics.inputs.items():  # endpoints and Prometheus servers: what each gave too
            if origin not in named:
                files.append(FileSummary(origin, gave.kind, 0, gave.series, gave.recognised, gave.described()))
        if request.source_lines:
            lines = {**lines, **_metric_lines(findings, metrics.observations)}
        view = flow_view.view(metrics.observations)
        flow = view.to_dict() if view else None
    report = Report(
        tool_version=__version__,
        files=files,
        findings=findings,
        problems=problems,
        rules=[r.definition for r in rules],
        lines=lines,
        fail_on=request.fail_on,
        exit_zero=request.exit_zero,
        fixes=fixes,
        diff=diff,
        skipped=skipped,
        flow=flow,
    )
    scanned = {text: found for candidate in candidates for text, found in candidate.scanned}
    secret_texts = [text for target in request.live for text in target.secrets]
    hide = redaction.run_secrets(document, [*(c.text for c in candidates), *secret_texts], scanned)
    return redaction.redact(report, hide), document, hide


def _nothing_read(paths: tuple[Path, ...]) -> Problem:
    """The note of a run that read no configuration: said in every output, never a quiet pass."""
    named = ", ".join(str(p) for p in paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
    message = "no configuration was read: nothing named here is a file kafka-advisor reads (docs/detection.md)"
    return Problem(named, None, message, "nothing-read")


def rule_params(
    written: dict[str, dict[str, tuple[str, int]]], rules: Sequence[Rule], where: str
) -> tuple[dict[str, dict[str, object]], list[Problem]]:
    """The project's `[params.ID]` as typed values, each checked against the rule's schema; a
    wrong one is a problem (`file:line`) and its rule keeps the default."""
    from advisor.rules.params import param_problem

    by_id = {rule.definition.id: rule.definition for rule in rules}
    params: dict[str, dict[str, object]] = {}
    problems: list[Problem] = []
    for rule_id, values in written.items():
        definition = by_id.get(rule_id)
        for name, (text, line) in values.items():
            spec = definition.params.get(name) if definition is not None else None
            if definition is None:
                problems.append(Problem(where, line, f"params.{rule_id}: there is no rule {rule_id}", "config"))
                continue
            if spec is None:
                known = ", ".join(definition.params) or "none"
                message = f"params.{rule_id}.{name}: {rule_id} has no such parameter (its parameters: {known})"
                problems.append(Problem(where, line, message, "config"))
                continue
            value = _typed(text, spec["type"])
            problem = (
                f"must be {_ARTICLE[spec['type']]} {spec['type']}" if value is None else param_problem(spec, value)
            )
            if problem:
                problems.append(Problem(where, line, f"params.{rule_id}.{name} = {text}: {problem}", "config"))
                continue
            params.setdefault(rule_id, {})[name] = value
    return params, problems


_ARTICLE = {"integer": "an", "number": "a", "string": "a", "boolean": "a"}


def _typed(text: str, kind: str) -> object | None:
    try:
        if kind == "integer":
            return int(text)
        if kind == "number":
            number = float(text)
            return int(number) if number.is_integer() else number
    except ValueError:
        return None
    if kind == "boolean":
        return {"true": True, "false": False}.get(text)
    return text


def _shown_lines(document: Document, findings: Sequence[Finding]) -> dict[str, dict[int, str]]:
    """The source line at every file location of every finding, redacted once here: no
    formatter reads an input file or sees an unredacted line."""
    sources = {source.path: source for source in document.files}
    wanted: dict[str, set[int]] = {}
    for finding in findings:
        for location in finding.locations:
            if location.kind == "file" and location.path in sources:
                wanted.setdefault(location.path, set()).add(location.line)
    lines: dict[str, dict[int, str]] = {}
    for path, numbers in wanted.items():
        found = sources[path].some_lines(numbers)
        if found:
            lines[path] = {n: redact_line(found[n].rstrip()) for n in sorted(found)}
    return lines


def _shown_value(value: float) -> str:
    """A sample's value as written: an offset or a byte count in full, not 2.06e+06."""
    return f"{value:.0f}" if value.is_integer() and abs(value) < 1e18 else f"{value:g}"


def _metric_lines(findings: Sequence[Finding], observations: Observations) -> dict[str, dict[int, str]]:
    """The sample a metric finding points at, as written (its name, labels and value). A client's
    dump is one JSON object a line holding every metric: its line is not shown."""
    shown = {(loc.path, loc.line) for f in findings for loc in f.locations if loc.kind == "file"}
    at: dict[tuple[str, int], str] = {}
    own: dict[tuple[str, int, str], str] = {}  # by series too: one line may hold many (an API answer on one line)
    for series in observations.series if shown else ():
        if series.component != "broker":
            continue
        for point in series.points:
            if point.place.kind == "file" and (point.place.path, point.place.line) in shown:
                path, line = point.place.path, point.place.line
                at[(path, line)] = own[(path, line, series.written)] = f"{series.written} {_shown_value(point.value)}"
    lines: dict[str, dict[int, str]] = {}
    for finding in findings:
        judged = finding.keys[0] if finding.keys else ""  # a metric finding names the series it judged first
        for location in finding.locations:
            text = own.get((location.path, location.line, judged)) or at.get((location.path, location.line))
            if location.kind == "file" and text is not None:
                lines.setdefault(location.path, {})[location.line] = redact_line(text)
    return lines


def analyze_files(files: Sequence[Path], params: dict[str, dict[str, tuple[str, int]]] | None = None) -> Report:
    """Metric files alone, judged by every rule: for tests and tools."""
    return run(RunRequest(paths=(), params=params or {}, metric_files=tuple(files)))
