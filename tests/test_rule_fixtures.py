"""Runs every rule fixture: a file's findings must equal its `# expect:` annotations."""

from __future__ import annotations

import os
import re
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from advisor.report.session import lint

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import update_snapshots

from advisor.rules.registry import load_rules
from advisor.sources import discover

REPO_ROOT = Path(__file__).resolve().parent.parent
FIXTURES = REPO_ROOT / "fixtures" / "rules"
# expect: the rule fires on the next line; ok: it was judged on that line's config set and held
# false; skip: it is not run there at all (a release, profile or component it does not apply to).
_ANNOTATION = re.compile(r"^\s*(?:#|//)\s*(expect|ok|skip):\s*(?P<codes>[A-Z0-9@, ]+)\s*$")
# A code may name the column its finding must point at: `# expect: KP101@7` (1-based,
# counted in characters); without one, the line is compared.
Expectation = tuple[str, int, int | None]  # (code, line, column or None)


def _code(text: str, line: int) -> Expectation:
    code, _, column = text.strip().partition("@")
    return code, line, int(column) if column else None


def sidecar_annotations(path: Path) -> dict[str, set[Expectation]]:
    """JSON has no comments: `<file>.annotations` holds lines `LINE expect|ok|skip CODES`."""
    found: dict[str, set[Expectation]] = {"expect": set(), "ok": set(), "skip": set()}
    for entry in (path.parent / f"{path.name}.annotations").read_text().splitlines():
        if entry.strip() and not entry.startswith("#"):
            line, kind, codes = entry.split(maxsplit=2)
            for code in codes.split(","):
                found[kind].add(_code(code, int(line)))
    return found


def annotated(path: Path) -> dict[str, set[Expectation]]:
    """Each kind's (rule, line, column) triples; an annotation applies to the next other line."""
    if path.suffix == ".json" or (path.parent / f"{path.name}.annotations").exists():
        return sidecar_annotations(path)
    found: dict[str, set[Expectation]] = {"expect": set(), "ok": set(), "skip": set()}
    pending: list[tuple[str, str]] = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        match = _ANNOTATION.match(line)
        if match:
            pending += [(match.group(1), code.strip()) for code in match["codes"].split(",") if code.strip()]
            continue
        if line.strip().startswith("#") and not pending:
            continue
        for kind, code in pending:
            found[kind].add(_code(code, number))
        pending = []
    return found


def annotations(path: Path) -> tuple[set[Expectation], set[Expectation]]:
    """(expected, forbidden): `ok` and `skip` lines both forbid a finding."""
    found = annotated(path)
    return found["expect"], found["ok"] | found["skip"]


FIXTURE_FILES = [candidate.path for candidate in discover([FIXTURES])[0]]
METRICS = FIXTURES / "metrics"
METRIC_FIXTURES = sorted(p for p in METRICS.rglob("*") if p.suffix in (".prom", ".json", ".csv", ".tsv"))  # analyze
# Each metrics file alone; a metrics/projects/<name>/ folder together (its configs beside its metrics).
METRIC_UNITS = {p.name: [p] for p in METRIC_FIXTURES if p.parent == METRICS} | {
    f"projects/{folder.name}": sorted(p for p in folder.iterdir() if p.is_file() and p.suffix != ".annotations")
    for folder in sorted((METRICS / "projects").iterdir())
}
UNITS = update_snapshots.fixture_units()  # each file alone, a projects/<name>/ folder together


def _sets_at(document, path: Path, line: int) -> list[int]:  # type: ignore[no-untyped-def]
    """The config sets an annotated line belongs to: the ones writing a key or starting on it,
    else the ones whose lines span it, else every set of its file."""
    mine = [(i, cs) for i, cs in enumerate(document.config_sets) if Path(cs.path).name == path.name]

    def lines(config_set) -> list[int]:  # type: ignore[no-untyped-def]
        return [config_set.anchor.line, *(s.location.line for s in config_set.settings.values())]

    for chosen in (
        [i for i, cs in mine if line in lines(cs)],
        [i for i, cs in mine if min(lines(cs)) <= line <= max(lines(cs))],
        [i for i, _ in mine],
    ):
        if chosen:
            return chosen
    return []


def _not_judged(result, paths: list[Path]) -> list[tuple[str, str, int]]:  # type: ignore[no-untyped-def]
    """`# ok: ID` lines whose rule was not judged there (an `ok` proves only a rule that ran), and
    `# skip: ID` lines whose rule was."""
    missing = []
    for path in paths:
        found = annotated(path)
        for kind, code, line in [*(("ok", *a[:2]) for a in found["ok"]), *(("skip", *a[:2]) for a in found["skip"])]:
            sets = _sets_at(result.document, path, line)
            judged = {rule for index in sets for rule in result.evaluated.on(result.document, index)}
            if code[1] == "M":  # a metric rule (KM, ZM)
                judged |= result.evaluated.entity
            if code == "KO001":  # the session's own: judged wherever a file holds directives
                judged |= {"KO001"} if any(Path(s.path).name == path.name and s.directives
                                           for s in result.document.files) else set()  # fmt: skip
            if (code in judged) != (kind == "ok"):
                missing.append((path.name, f"{kind}: {code}", line))
    return missing


@pytest.mark.parametrize("unit", sorted(UNITS))
def test_fixture(unit: str) -> None:
    paths = UNITS[unit]
    result = lint(paths)
    assert not result.problems, result.problems
    # A cause shared by several brokers is one finding with every place: each place is a line.
    found = {
        (Path(location.path).name, f.rule, location.line, location.column)
        for f in result.findings
        if not f.suppressed
        for location in f.locations
    }
    expected: set[tuple[str, str, int, int | None]] = set()
    forbidden: set[tuple[str, str, int]] = set()
    for path in paths:
        wanted, unwanted = annotations(path)
        expected |= {(path.name, code, line, column) for code, line, column in wanted}
        forbidden |= {(path.name, code, line) for code, line, _ in unwanted}
    found_lines = {(name, rule, line) for name, rule, line, _ in found}
    expected_lines = {(name, rule, line) for name, rule, line, _ in expected}
    unexpected, missing = sorted(found_lines - expected_lines), sorted(expected_lines - found_lines)
    assert found_lines == expected_lines, f"unexpected: {unexpected}; missing: {missing}"
    wrong_columns = {e for e in expected if e[3] is not None} - found
    assert not wrong_columns, f"columns expected: {sorted(wrong_columns)}; found: {sorted(found)}"
    assert not found_lines & forbidden
    assert not _not_judged(result, paths), "ok: lines whose rule was not judged on their config set, or skip: lines"


@pytest.mark.parametrize("unit", sorted(METRIC_UNITS))
def test_metric_fixture(unit: str) -> None:
    """A metrics unit's findings (analyze, with the unit's configs beside its metrics) must equal
    the metrics files' annotations, line for line; the configs' own lines are the lint test's."""
    from advisor.metrics.files import split_inputs
    from advisor.report.session import RunRequest, run

    files, _, configs = split_inputs([str(p) for p in METRIC_UNITS[unit]])
    report = run(RunRequest(paths=tuple(configs), metric_files=tuple(files)))
    assert not report.problems, report.problems
    found = {(Path(loc.path).name, f.rule, loc.line) for f in report.findings if not f.suppressed and f.rule[1] == "M"
             for loc in f.locations if Path(loc.path) in files}  # fmt: skip
    expected, forbidden = set(), set()
    for path in files:
        wanted, unwanted = annotations(path)
        expected |= {(path.name, code, line) for code, line, _ in wanted}
        forbidden |= {(path.name, code, line) for code, line, _ in unwanted}
    assert found == expected, f"unexpected: {sorted(found - expected)}; missing: {sorted(expected - found)}"
    assert not found & forbidden
    from advisor.report.session import judged, read

    inputs = read(RunRequest(paths=tuple(configs), metric_files=tuple(files)))
    evaluated = judged(inputs.document).evaluated.entity
    not_run = {(name, code) for name, code, _ in forbidden if code[1] == "M" and code not in evaluated}
    assert not not_run, f"ok: lines whose metric rule was not judged: {sorted(not_run)}"


LIVE_FIXTURES = sorted((REPO_ROOT / "fixtures" / "live").glob("*.snapshot.json"))


def live_annotations(path: Path) -> dict[str, set[tuple[str, str]]]:
    """A saved snapshot's `<file>.annotations`: lines `RESOURCE expect|ok|skip CODES`, the
    resource as a live finding names its place (`broker:2`, `topic:orders`, `group:billing`,
    or `cluster` for a cluster-wide ok or skip): each kind's (resource, code) pairs."""
    found: dict[str, set[tuple[str, str]]] = {"expect": set(), "ok": set(), "skip": set()}
    for entry in (path.parent / f"{path.name}.annotations").read_text().splitlines():
        if entry.strip() and not entry.startswith("#"):
            resource, kind, codes = entry.split(maxsplit=2)
            found[kind] |= {(resource, code.strip()) for code in codes.split(",")}
    return found


@pytest.mark.parametrize("path", LIVE_FIXTURES, ids=lambda p: p.name)
def test_live_fixture(path: Path) -> None:
    """A saved snapshot, audited offline: its findings, by the live resource each is at, must
    equal its annotations; an `ok` resource's rule must have been judged there (a cluster check
    on its cluster, a config rule on that resource's config set), a `skip` one's not."""
    from advisor.metrics.files import split_inputs
    from advisor.report.session import LiveTarget, RunRequest, judged, read

    beside = path.parent / path.name.removesuffix(".snapshot.json")  # the repository's files, for drift
    files = sorted(str(p) for p in beside.iterdir()) if beside.is_dir() else []
    measured, _, configs = split_inputs(files)  # the brokers' metrics, beside the repository's files
    inputs = read(
        RunRequest(paths=tuple(configs), metric_files=tuple(measured), live=(LiveTarget(str(path), path=path),))
    )
    assert not inputs.problems, inputs.problems
    result = judged(inputs.document)
    assert not result.problems, result.problems

    def resource(location) -> str:  # type: ignore[no-untyped-def]
        live = location.path.startswith("live://")
        return location.path.split("/", 3)[-1] if live else f"{Path(location.path).name}:{location.line}"

    found = {(resource(loc), f.rule) for f in result.findings if not f.suppressed for loc in f.locations}
    wanted = live_annotations(path)
    assert found == wanted["expect"], f"unexpected: {sorted(found - wanted['expect'])}; " \
                                      f"missing: {sorted(wanted['expect'] - found)}"  # fmt: skip
    assert not found & (wanted["ok"] | wanted["skip"])
    (cluster_id,) = [name for name, cluster in inputs.document.clusters.items() if cluster.live is not None]
    index = {cs.path.split("/", 3)[-1]: i for i, cs in enumerate(inputs.document.config_sets)}
    wrong = []
    for kind in ("ok", "skip"):
        for resource, code in sorted(wanted[kind]):
            judged_there = code in result.evaluated.clusters.get(cluster_id, set()) or (
                resource in index and code in result.evaluated.on(inputs.document, index[resource])
            )
            if judged_there != (kind == "ok"):
                wrong.append(f"{resource} {kind} {code}")
    assert not wrong, f"ok: lines whose rule was not judged there, or skip: lines whose rule was: {wrong}"


def test_every_rule_has_firing_and_quiet_fixture_lines() -> None:
    coverage: dict[str, set[str]] = defaultdict(set)
    for path in [*FIXTURE_FILES, *METRIC_FIXTURES]:
        found = annotated(path)
        for code, _, _ in found["expect"]:
            coverage[code].add("expect")
        for code, _, _ in found["ok"]:  # judged and held false: a `skip` line proves no quiet verdict
            coverage[code].add("ok")
        for code, _, _ in found["skip"]:
            coverage[code].add("skip")
    for path in LIVE_FIXTURES:
        for kind, pairs in live_annotations(path).items():
            for _, code in pairs:
                coverage[code].add(kind)
    missing = {
        rule.definition.id: sorted({"expect", "ok"} - coverage[rule.definition.id])
        for rule in load_rules()
        if not {"expect", "ok"} <= coverage[rule.definition.id]
    }
    assert missing == {}
    unknown = set(coverage) - {rule.definition.id for rule in load_rules()}
    assert unknown == set(), "fixtures name rules that do not exist"


def test_linting_every_fixture_at_once_changes_no_unit_s_findings() -> None:
    """Unrelated files on one command line never judge each other: each fixture unit gets the
    same findings linted with everything else as linted alone (files are one cluster only on
    evidence: sources/topology.py)."""

    def places(findings: list) -> set[tuple[str, str, int, str]]:
        return {(loc.path, f.rule, loc.line, f.message) for f in findings if not f.suppressed for loc in f.locations}

    alone: set[tuple[str, str, int, str]] = set()
    for paths in UNITS.values():
        alone |= places(lint(paths).findings)
    together = places(lint(FIXTURE_FILES).findings)
    assert together == alone, (
        f"only together: {sorted(together - alone)[:5]}; only alone: {sorted(alone - together)[:5]}"
    )


def _neutral_copies(paths: list[Path], folder: Path) -> dict[str, str]:
    """Each file copied as file<N> with its extension (a `.env` stays `.env`-suffixed): neutral
    path → original name."""
    import shutil

    names = {}
    texts = {path: path.read_text(errors="replace") for path in paths}
    for number, path in enumerate(paths):
        suffix = ".env" if path.name == ".env" else path.suffix
        target = folder / f"file{number}{suffix}"
        # a file another one names by its path (a helm_release's values file) keeps that path
        for other, text in texts.items():
            named = os.path.relpath(path, other.parent)
            if other != path and not named.startswith("..") and f"/{named}" in text:
                target = folder / named
                target.parent.mkdir(parents=True, exist_ok=True)
                break
        shutil.copy(path, target)
        names[str(target)] = path.name
        # a name the real tool fixes: Helm reads a chart's Chart.yaml by that name only
        if (path.parent / "Chart.yaml").is_file() and not (folder / "Chart.yaml").exists():
            shutil.copy(path.parent / "Chart.yaml", folder / "Chart.yaml")
    return names


DEMO_FILES = [c.path for c in discover([REPO_ROOT / "fixtures" / "demo"])[0]]


@pytest.mark.parametrize("unit", [*sorted(UNITS), "demo"])
def test_findings_do_not_depend_on_file_names(unit: str, tmp_path: Path) -> None:
    """Content decides what a file is (issue #11): every fixture, copied to a neutral name with the
    same extension, gives exactly the findings it gives under its own name."""
    paths = DEMO_FILES if unit == "demo" else UNITS[unit]
    names = _neutral_copies(paths, tmp_path)
    own = {(Path(loc.path).name, f.rule, loc.line) for f in lint(paths).findings for loc in f.locations}
    result = lint(sorted(Path(p) for p in names))
    assert not result.problems, result.problems
    neutral = {(names[loc.path], f.rule, loc.line) for f in result.findings for loc in f.locations}
    assert neutral == own, f"only under neutral names: {sorted(neutral - own)}; lost: {sorted(own - neutral)}"
