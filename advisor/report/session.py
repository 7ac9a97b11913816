"""A run session: everything one lint run decides, in the library — the CLI only parses
arguments into a `RunRequest` and renders the `Report` it gets back.

    discover → load → evaluate the selected rules → per-file ignores → suppression
    directives (KO001 knows what the run selected) → baseline → Report

`lint()` is the same pipeline without selection or baseline, returning the document too,
for tests and tools that look inside.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from advisor import TYPE_CHECKING, __version__
from advisor.model.document import Document, LoadError, Problem
from advisor.model.findings import Finding
from advisor.model.record import Record
from advisor.model.topology import ClusterDeclaration
from advisor.report import redaction
from advisor.report.model import FileSummary, Report
from advisor.report.selection import Selection, matches
from advisor.report.suppress import UNUSED_RULE, apply
from advisor.rules import runner as evaluate
from advisor.rules.registry import Rule, load_rules
from advisor.secrets import redact_line
from advisor.sources import Candidate, FileOverride, LoadOptions, discover, load
from advisor.sources.limits import DEFAULTS as DEFAULT_LIMITS
from advisor.sources.limits import Limits

if TYPE_CHECKING:
    from typing import Any


class LintResult(Record):
    __slots__ = ("document", "findings")

    def __init__(self, document: Document, findings: list[Finding]) -> None:
        self.document = document
        self.findings = findings


def lint(
    files: Sequence[Candidate | Path],
    options: LoadOptions | None = None,
    *,
    rules: Sequence[Rule] | None = None,
    kafka_version: str | None = None,
    profile: str | None = None,
    stats: evaluate.RunStats | None = None,
    selection: Selection | None = None,
    params: dict[str, dict[str, object]] | None = None,
) -> LintResult:
    document = load(files, options or LoadOptions())
    active = list(load_rules() if rules is None else rules)
    findings = evaluate.run(document, active, kafka_version=kafka_version, profile=profile, stats=stats, params=params)
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
    return LintResult(document, findings)


class RunRequest(Record):
    __slots__ = ("base", "baseline", "client", "clusters", "component", "config_path", "exit_zero", "fail_on", "fixes",
                 "follow_links", "format", "ignore_unknown", "kafka_version", "limits", "overrides", "params", "paths",
                 "profile", "selection", "source_lines")  # fmt: skip

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


def _not_read(path: Path) -> str:
    """Why a file named was not read: metrics are analyze's; anything else is no format we read."""
    from advisor.metrics import sniff

    try:
        with path.open(encoding="utf-8", errors="replace") as stream:
            found = sniff.kind(stream.read(8192))
    except OSError:
        found = None
    if found:
        return f"{sniff.described(found)}, not configuration: kafka-advisor analyze reads it"
    return "not a configuration format kafka-advisor reads"


def _why_missing(path: Path) -> str:
    """Why a path named on the command line was not read."""
    if path.exists():
        return "not a regular file (a pipe, a device or a socket): not read"
    if path.is_symlink():
        return "a link to nothing (broken, or a loop of links)"
    return "no such file or directory"


def run(request: RunRequest) -> Report:
    return run_with_document(request)[0]


def run_with_document(request: RunRequest) -> tuple[Report, Document]:
    """The Report, and the document it judged (analyze reads the brokers' settings from it)."""
    skipped: list[Problem] = []
    options = LoadOptions(
        component=request.component,
        client=request.client,
        clusters=request.clusters,
        base=request.base,
        overrides=request.overrides,
        format=request.format,
        limits=request.limits,
        follow_links=request.follow_links,
    )
    candidates, unknown, missing = discover(request.paths, skipped, options, read_ahead=True)
    problems = [Problem(str(path), None, _why_missing(path), "missing") for path in missing]
    if request.ignore_unknown:  # said among the files not read, as for a folder walk
        skipped += [Problem(str(p), None, f"skipped: {_not_read(p)}", "skipped") for p in unknown]
    else:
        problems += [Problem(str(p), 1, _not_read(p), "unsupported") for p in unknown]
    all_rules = load_rules()
    params, bad = rule_params(request.params, all_rules, str(request.config_path or "project config"))
    problems += bad
    rules = [r for r in all_rules if request.selection.selects(r.definition.id, r.definition.name)]
    result = lint(
        candidates,
        options,
        rules=rules,
        kafka_version=request.kafka_version,
        profile=request.profile,
        selection=request.selection,
        params=params,
    )
    document = result.document
    findings = result.findings
    problems += document.errors
    read = {source.path for source in document.files}  # a compose file's .env is read through it
    skipped = [note for note in skipped if note.path not in read] + document.notes
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
    per_file = Counter(config_set.path for config_set in document.config_sets)
    report = Report(
        tool_version=__version__,
        files=[FileSummary(s.path, s.format, per_file[s.path]) for s in document.files],
        findings=findings,
        problems=problems,
        rules=[r.definition for r in rules],
        lines=_shown_lines(document, findings) if request.source_lines else {},
        fail_on=request.fail_on,
        exit_zero=request.exit_zero,
        fixes=fixes,
        diff=diff,
        skipped=skipped,
    )
    scanned = {text: found for candidate in candidates for text, found in candidate.scanned}
    hide = redaction.run_secrets(document, (c.text for c in candidates), scanned)
    return redaction.redact(report, hide), document


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
    lines: dict[str, dict[int, str]] = {}
    for finding in findings:
        for location in finding.locations:
            source = sources.get(location.path)
            if location.kind == "file" and source is not None and 0 < location.line <= len(source.lines):
                text = redact_line(source.lines[location.line - 1].rstrip())
                lines.setdefault(location.path, {})[location.line] = text
    return lines
