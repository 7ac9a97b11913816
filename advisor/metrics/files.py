"""Metric inputs as a run names them — files (scrapes, Prometheus API answers, client dumps,
librdkafka statistics, JmxTool dumps), exporter endpoints and Prometheus servers — read into
observations. The session's read stage asks here; so does verify for its two sides.

A named file is metrics when its content says so (its first 8 KB), whatever its name; a folder
gives the metrics files in it as well as its configuration.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path

from advisor import TYPE_CHECKING
from advisor.metrics import clients, jmxtool, prometheus_api, recognised, sniff
from advisor.metrics import inputs as metric_inputs
from advisor.metrics.observe import observe, wanted
from advisor.metrics.sniff import API_RESULT, CLIENT, EXPOSITION
from advisor.model.document import LoadError, Problem
from advisor.model.observations import Observations
from advisor.named_tuple import NamedTuple

if TYPE_CHECKING:
    from advisor.sources.limits import Limits


def is_endpoint(text: str) -> bool:
    return text.startswith(("http://", "https://"))


def split_inputs(
    named: list[str], most: int = 100_000, passed: list[Problem] | None = None
) -> tuple[list[Path], list[str], list[Path]]:
    """(metric files, endpoints, config paths): a named file whose text reads as metrics is
    metrics, an http(s) address an endpoint, anything else configuration; a folder is configuration
    and also gives the metrics files in it (a walk like lint's: hidden entries and links passed over,
    at most `most` files looked at). `passed`: the walked files that look like metrics in a shape
    no reader takes (sniff.near_miss), each said with what to save instead."""
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
                files += [p for p in _walked_metrics(path, most, passed) if p not in files]
    return files, endpoints, configs


# The suffixes metrics are saved under (a scrape, an API answer, a stats stream, a JmxTool dump).
METRIC_SUFFIXES = frozenset({".prom", ".metrics", ".txt", ".json", ".jsonl", ".ndjson", ".csv", ".tsv", ".log"})


def _walked_metrics(root: Path, most: int, passed: list[Problem] | None = None) -> list[Path]:
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
            elif Path(entry.name).suffix in METRIC_SUFFIXES:
                head = sniff.read_head(Path(entry.path))
                if sniff.kind(head):
                    found.append(Path(entry.path))
                elif passed is not None and (why := sniff.near_miss(head)):
                    passed.append(Problem(entry.path, 1, f"skipped: {why}", "skipped", kafka=True))
    return sorted(found)


def metric_format(path: Path) -> str | None:
    """What a file's first 8 KB say it is: exposition, a Prometheus API result, or neither."""
    return sniff.kind(sniff.read_head(path))


def read_file(
    path: Path,
    names: frozenset[str],
    limits: Limits,
    kind: str | None = None,
    when: float | None = None,
    paired: bool = True,
) -> metric_inputs.Capture:
    """One metrics file, read as `kind` (sniffed from its head when not given). Its time — `when`
    (`--time FILE=WHEN`), else the file's modification time, when a scrape saved with curl was
    taken — is that of the samples that carry none: two such files of one target are two points
    in time, not one sample twice. `paired`: other files are read beside it (targets.py)."""
    captured = _read_file(path, names, limits, kind, paired)
    try:
        return captured._replace(time=path.stat().st_mtime if when is None else when)
    except OSError:
        return captured


def _read_file(
    path: Path, names: frozenset[str], limits: Limits, kind: str | None, paired: bool = True
) -> metric_inputs.Capture:
    kind = kind or metric_format(path) or EXPOSITION
    if kind == EXPOSITION:
        return metric_inputs.read_file(path, names, limits, paired)
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


def _time_of(path: Path, times: dict[Path, float]) -> float | None:
    """The time `--time` gives a file, matched by its path as given or resolved."""
    if path in times:
        return times[path]
    resolved = {given.resolve(): when for given, when in times.items()}
    return resolved.get(path.resolve())


class Read(NamedTuple):
    """What the metric inputs of a run gave: their observations, each file's format, what each
    input gave the rules (by origin), what could not be read (a problem each, the rest still
    read), and notes: the inputs of which the rules read nothing (never a silent pass), and how
    label-less scrapes were taken as nodes."""

    observations: Observations
    formats: dict[Path, str]
    problems: list[Problem]
    inputs: dict[str, recognised.FileRead]
    unread: list[Problem]


def observed(  # type: ignore[no-untyped-def]
    files: Sequence[Path],
    limits: Limits,
    endpoints: Sequence[str] = (),
    samples: int = 1,
    interval: float = 0.0,
    prometheus: Sequence[str] = (),
    window: float = prometheus_api.DEFAULT_WINDOW,
    step: float = prometheus_api.DEFAULT_STEP,
    sleep=time.sleep,
    times: dict[Path, float] | None = None,
) -> Read:
    """Metrics files read, Prometheus servers asked for their last `window`, and endpoints scraped
    `samples` times `interval` seconds apart, then observed together."""
    problems: list[Problem] = []
    captures = []
    names = wanted()
    formats = {path: metric_format(path) or EXPOSITION for path in files}  # each head read once
    kinds: dict[str, str] = {}  # the inputs read, by origin: what each gave is said
    for path in files:
        try:
            captures.append(read_file(path, names, limits, formats[path], _time_of(path, times or {}), len(files) > 1))
            kinds[str(path)] = formats[path]
        except LoadError as error:
            problems.append(error.problem)
    for server in prometheus:
        try:
            captures.append(prometheus_api.query_range(server, names, limits, window, step))
            kinds[captures[-1].origin] = API_RESULT
        except LoadError as error:
            problems.append(error.problem)
    for round_number in range(max(1, samples) if endpoints else 0):
        if round_number:
            sleep(interval)
        for url in endpoints:
            try:
                captures.append(metric_inputs.scrape(url, names, limits))
                kinds[captures[-1].origin] = EXPOSITION
            except LoadError as error:
                problems.append(error.problem)
    observations, observed_problems = observe(captures)
    inputs = recognised.per_input(observations, kinds)
    files_read = {str(path) for path in files}
    unread = [recognised.nothing_read(origin, read.kind, origin in files_read)
              for origin, read in inputs.items() if not read.series]  # fmt: skip
    return Read(observations, formats, problems + observed_problems, inputs, unread + observations.notes)
