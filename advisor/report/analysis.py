"""An analyze run: metrics (files and endpoints) and any configuration given beside them.

    inputs → exposition files, endpoints, config paths (each file's content decides)
           → scrape rounds (`samples` rounds `interval` seconds apart) → observations
           → entity (KM) rules + the lint of the configs → one Report

Metric findings go through the same selection, per-file ignores and baseline as config ones.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from advisor.analysis import flow
from advisor.analysis.broker_settings import BrokerSettings
from advisor.analysis.client_settings import Beside, ClientSettings
from advisor.metrics import clients, jmxtool, prometheus_api, sniff
from advisor.metrics import inputs as metric_inputs
from advisor.metrics.observe import observe, wanted
from advisor.metrics.sniff import API_RESULT, CLIENT, EXPOSITION
from advisor.model.document import LoadError, Problem
from advisor.model.findings import Finding
from advisor.model.observations import Observations
from advisor.report import session
from advisor.report.model import FileSummary, Report
from advisor.rules import metric_runner
from advisor.rules.registry import load_rules
from advisor.secrets import redact_line


@dataclass(eq=False)
class AnalyzeRequest:
    run: session.RunRequest  # its paths: the config files and folders
    metric_files: tuple[Path, ...] = ()
    endpoints: tuple[str, ...] = ()
    samples: int = 1  # scrape rounds
    interval: float = 30.0  # seconds between rounds
    prometheus: tuple[str, ...] = ()  # Prometheus servers, asked for the last `window` seconds
    window: float = prometheus_api.DEFAULT_WINDOW
    step: float = prometheus_api.DEFAULT_STEP


def is_endpoint(text: str) -> bool:
    return text.startswith(("http://", "https://"))


def split_inputs(named: list[str], most: int = 100_000) -> tuple[list[Path], list[str], list[Path]]:
    """(metric files, endpoints, config paths): a named file whose text reads as metrics is
    metrics, an http(s) address an endpoint, anything else configuration; a folder is configuration
    and also gives the metrics files in it (a walk like lint's: hidden entries and links passed over,
    at most `most` files looked at)."""
    files, endpoints, configs = [], [], []
    for text in named:
        if is_endpoint(text):
            endpoints.append(text)
            continue
        path = Path(text)
        if path.is_file() and metric_format(path):
            files.append(path)
        else:
            configs.append(path)
            if path.is_dir():
                files += [p for p in _walked_metrics(path, most) if p not in files]
    return files, endpoints, configs


# The suffixes metrics are saved under (a scrape, an API answer, a stats stream, a JmxTool dump).
METRIC_SUFFIXES = frozenset({".prom", ".metrics", ".txt", ".json", ".jsonl", ".ndjson", ".csv", ".tsv", ".log"})


def _walked_metrics(root: Path, most: int) -> list[Path]:
    found: list[Path] = []
    pending, looked = [root], 0
    while pending and looked < most:
        folder = pending.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError:
            continue  # the config walk says which folder it could not read
        for entry in entries:
            looked += 1
            if entry.name.startswith(".") or entry.is_symlink():
                continue
            if entry.is_dir(follow_symlinks=False):
                pending.append(Path(entry.path))
            elif Path(entry.name).suffix in METRIC_SUFFIXES and metric_format(Path(entry.path)):
                found.append(Path(entry.path))
    return sorted(found)


def metric_format(path: Path) -> str | None:
    """What a file's first 8 KB say it is: exposition, a Prometheus API result, or neither."""
    try:
        with path.open(encoding="utf-8", errors="replace") as stream:
            head = stream.read(8192)
    except OSError:
        return None
    return sniff.kind(head)


def _read_metric_file(path: Path, names: frozenset[str], limits, kind: str | None = None) -> metric_inputs.Capture:  # type: ignore[no-untyped-def]
    """One metrics file, read as `kind` (sniffed from its head when not given)."""
    kind = kind or metric_format(path) or EXPOSITION
    if kind == EXPOSITION:
        return metric_inputs.read_file(path, names, limits)
    from advisor.sources.text import read_text

    origin = str(path)
    try:
        if kind == API_RESULT:  # one JSON document, read whole with its spans
            if path.stat().st_size > limits.file_bytes:
                raise LoadError(origin, None, f"larger than {limits.file_bytes:,} bytes (limits.file-bytes): not read")
            return prometheus_api.read_file(read_text(path), origin)
        family, _, variant = kind.partition(":")
        with path.open(encoding="utf-8", errors="replace", newline="") as stream:  # streamed: limits.metric-bytes
            lines = metric_inputs.bounded_lines(stream, origin, limits)
            if family == CLIENT:
                samples: list = clients.read_lines(lines, origin, variant, limits.file_bytes, limits.metric_points)  # type: ignore[type-arg]
            else:
                samples = jmxtool.read_lines(lines, origin, variant)
        if len(samples) > limits.metric_points:  # each reader keeps only what the rules read
            raise LoadError(origin, None, f"more than {limits.metric_points:,} samples (limits.metric-points)")
        return metric_inputs.Capture(origin, None, samples, True)
    except (OSError, UnicodeDecodeError) as error:
        raise LoadError(str(path), None, f"cannot be read: {type(error).__name__}") from None


def observed_files(  # type: ignore[no-untyped-def]
    files: list[Path],
    limits,
    endpoints: tuple[str, ...] = (),
    samples: int = 1,
    interval: float = 0.0,
    sleep=time.sleep,
) -> tuple[Observations, list[Problem]]:
    """Metrics files read, and endpoints scraped `samples` times `interval` seconds apart, then
    observed; each one's problems kept (verify's two sides)."""
    problems: list[Problem] = []
    captures = []
    names = wanted()
    for path in files:
        try:
            captures.append(_read_metric_file(path, names, limits))
        except LoadError as error:
            problems.append(error.problem)
    for round_number in range(max(1, samples) if endpoints else 0):
        if round_number:
            sleep(interval)
        for url in endpoints:
            try:
                captures.append(metric_inputs.scrape(url, names, limits))
            except LoadError as error:
                problems.append(error.problem)
    observations, observed_problems = observe(captures)
    return observations, problems + observed_problems


def run(request: AnalyzeRequest, sleep=time.sleep) -> Report:  # type: ignore[no-untyped-def]
    base = request.run
    problems: list[Problem] = []
    captures = []
    names = wanted()
    formats = {path: metric_format(path) or EXPOSITION for path in request.metric_files}  # each head read once
    for path in request.metric_files:
        try:
            captures.append(_read_metric_file(path, names, base.limits, formats[path]))
        except LoadError as error:
            problems.append(error.problem)
    for server in request.prometheus:
        try:
            captures.append(prometheus_api.query_range(server, names, base.limits, request.window, request.step))
        except LoadError as error:
            problems.append(error.problem)
    for round_number in range(max(1, request.samples) if request.endpoints else 0):
        if round_number:
            sleep(request.interval)
        for url in request.endpoints:
            try:
                captures.append(metric_inputs.scrape(url, names, base.limits))
            except LoadError as error:
                problems.append(error.problem)
    observations, observed_problems = observe(captures)
    problems += observed_problems

    config_report, document = session.run_with_document(base) if base.paths else (None, None)
    all_rules = load_rules()
    params, _ = session.rule_params(base.params, all_rules, str(base.config_path or "project config"))
    rules = [r for r in all_rules if base.selection.selects(r.definition.id, r.definition.name)]
    beside = Beside(BrokerSettings(document, base.kafka_version), ClientSettings(document, base.kafka_version))
    findings, failed = metric_runner.run(observations, rules, params, beside)
    problems += failed
    findings = [f for f in findings if base.selection.active(f.path, f.rule, f.name)]
    if base.baseline is not None:
        from advisor.report import baseline as baselines

        try:
            findings = baselines.apply(base.baseline, findings)
        except LoadError as error:
            problems.append(error.problem)
    files = [FileSummary(str(path), formats[path], 0) for path in request.metric_files]
    lines = _metric_lines(findings, observations) if base.source_lines else {}
    flow_view = flow.view(observations)
    flow_record = flow_view.to_dict() if flow_view else None
    metric_report = Report(
        tool_version=config_report.tool_version if config_report else _version(),
        files=files,
        findings=findings,
        problems=problems,
        rules=[r.definition for r in rules],
        lines=lines,
        fail_on=base.fail_on,
        exit_zero=base.exit_zero,
        flow=flow_record,
    )
    if config_report is None:
        return metric_report
    merged = sorted([*config_report.findings, *findings], key=lambda f: f.sort_key)
    read_here = {str(path) for path in request.metric_files}
    return config_report._replace(
        skipped=[p for p in config_report.skipped if p.path not in read_here],  # a walk's metrics: read here
        files=[*config_report.files, *files],
        findings=merged,
        problems=[*config_report.problems, *problems],
        lines={**config_report.lines, **lines},
        flow=flow_record,
    )


def analyze_files(files: list[Path], params: dict[str, dict[str, tuple[str, int]]] | None = None) -> Report:
    """Metric files alone with every rule: for tests and tools."""
    return run(AnalyzeRequest(run=session.RunRequest(paths=(), params=params or {}), metric_files=tuple(files)))


def _version() -> str:
    from advisor import __version__

    return __version__


def _shown(value: float) -> str:
    """A sample's value as written: an offset or a byte count in full, not 2.06e+06."""
    return f"{value:.0f}" if value.is_integer() and abs(value) < 1e18 else f"{value:g}"


def _metric_lines(findings: list[Finding], observations) -> dict[str, dict[int, str]]:  # type: ignore[no-untyped-def]
    """The sample a file finding points at, as written (its name, labels and value). A client's
    dump is one JSON object a line holding every metric: its line is not shown."""
    at: dict[tuple[str, int], str] = {}
    for series in observations.series:
        if series.component != "broker":
            continue
        for point in series.points:
            if point.place.kind == "file":
                at[(point.place.path, point.place.line)] = f"{series.written} {_shown(point.value)}"
    lines: dict[str, dict[int, str]] = {}
    for finding in findings:
        for location in finding.locations:
            text = at.get((location.path, location.line))
            if location.kind == "file" and text is not None:
                lines.setdefault(location.path, {})[location.line] = redact_line(text)
    return lines
