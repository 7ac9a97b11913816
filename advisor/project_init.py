"""`kafka-advisor init`: a project config for a repository as it is — what was read (formats),
the clusters found on evidence (declared, so they stay one cluster as files change), the Kafka
release the files name (or that none does), and today's findings as a baseline, so that a first
CI run fails only on what is new. The text is commented: every line says why it is there."""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

from advisor.model.document import Document
from advisor.model.vocabulary import Product, product_of
from advisor.named_tuple import NamedTuple
from advisor.report.model import Report

CONFIG_NAME = ".kafka-advisor.toml"
BASELINE_NAME = ".kafka-advisor-baseline.json"


class FoundCluster(NamedTuple):
    name: str
    paths: tuple[str, ...]  # relative to the root, POSIX
    brokers: int  # broker configurations among its files
    versions: tuple[str, ...]  # Kafka releases its files name
    why: str  # the first piece of evidence that joins the files


class Survey(NamedTuple):
    formats: Counter[str]
    passed_over: int
    clusters: tuple[FoundCluster, ...]
    versions: tuple[str, ...]  # every release a file names
    findings: Counter[str]  # unsuppressed, by severity
    newest: str  # the release assumed where no file names one
    camunda: tuple[str, ...] = ()  # the Camunda releases the Camunda pack's files name
    camunda_unnamed: int = 0  # Camunda broker configurations that name none
    kafka: bool = True  # whether any file holds Kafka configuration


def _relative(path: str, root: Path) -> str:
    return Path(os.path.relpath(Path(path).resolve(), root.resolve())).as_posix()


def _name(candidate: str, taken: set[str]) -> str:
    """A TOML bare key from a file or folder name, unique among the clusters."""
    base = re.sub(r"[^a-z0-9-]+", "-", candidate.lower()).strip("-") or "cluster"
    name, number = base, 2
    while name in taken:
        name, number = f"{base}-{number}", number + 1
    taken.add(name)
    return name


def survey(root: Path, report: Report, document: Document, newest: str) -> Survey:
    formats = Counter(source.format for source in document.files)
    taken: set[str] = set()
    clusters = []
    for cluster in document.clusters.values():
        paths = sorted({_relative(member.path, root) for member in cluster.members if "://" not in member.path})
        if len(paths) < 2 or cluster.declaration is not None:
            continue  # one file is one cluster anyway; a declared one is already in a config
        stem = Path(paths[0]).parent.name or Path(paths[0]).stem
        versions = tuple(sorted({m.kafka_version for m in cluster.members if m.kafka_version}))
        why = next((link.reason for link in cluster.links), "one file")
        clusters.append(FoundCluster(_name(stem, taken), tuple(paths), len(cluster.brokers), versions, why))
    versions = tuple(sorted({cs.kafka_version for cs in document.config_sets
                             if cs.kafka_version and product_of(cs.component) == Product.KAFKA}))  # fmt: skip
    severities = Counter(f.severity for f in report.findings if not f.suppressed)
    passed_over = sum(1 for problem in report.skipped if problem.kind == "skipped")  # not the notes of what was read
    pack = [cs for cs in document.config_sets if product_of(cs.component) == Product.CAMUNDA]
    camunda = tuple(sorted({cs.kafka_version for cs in pack if cs.kafka_version}))
    unnamed = sum(1 for cs in pack if not cs.kafka_version and cs.component == "zeebe-broker")
    kafka = len(pack) < len(document.config_sets) or not document.config_sets
    return Survey(formats, passed_over, tuple(clusters), versions, severities, newest, camunda, unnamed, kafka)


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render(found: Survey, baseline: str | None, today: str) -> str:
    """The config's text (a TOML document; in pyproject.toml the caller puts it under a table)."""
    read = ", ".join(f"{name} {count}" for name, count in sorted(found.formats.items())) or "none"
    total = sum(found.formats.values())
    counts = ", ".join(f"{found.findings[s]} {s}s" for s in ("error", "warning", "info"))
    lines = [
        f"# kafka-advisor project config, written by `kafka-advisor init` on {today}.",
        f"# Read {total} file(s): {read}; passed over (no reader claims them): {found.passed_over}.",
        f"# Findings when written: {counts}.",
        "",
        'fail-on = "warning"                # the lowest severity that fails a run: error, warning or info',
        '# select = ["KB", "KP"]            # only these rules (codes, prefixes or names)',
        '# ignore = ["KC102"]               # never these',
        '# profile = "prod"                 # prod or dev; default: each file\'s own evidence',
        "",
    ]
    if found.kafka and not found.versions:  # (a repository of Camunda files only: no Kafka release to name)
        lines += [f"# No file names its Kafka release, so the newest the catalog knows ({found.newest}) is assumed;",
                  "# say yours, and every default and removed key is judged by it:",
                  f'# kafka-version = "{found.newest}"', ""]  # fmt: skip
    elif found.kafka:
        named = ", ".join(found.versions)
        lines += [f"# The files name Kafka {named}; each is judged by the release it names (a file that names",
                  f"# none: the newest, {found.newest}). To judge every file by one release:",
                  f'# kafka-version = "{found.versions[-1]}"', ""]  # fmt: skip
    if found.camunda or found.camunda_unnamed:
        named = ", ".join(found.camunda) or "none"
        lines += [f"# Camunda files (docs/camunda.md) name Camunda {named}; {found.camunda_unnamed} broker",
                  "# configuration(s) name none, and the rules that depend on the release skip them: give such",
                  "# a file its release with a '# kafka-advisor: camunda-version=8.X' line.", ""]  # fmt: skip
    if baseline is not None:
        lines += ["# Today's findings, accepted: a run fails only on new ones. Fix them and run",
                  f"# `kafka-advisor lint --write-baseline {baseline}` to shrink it, or delete the line.",
                  f"baseline = {_quoted(baseline)}", ""]  # fmt: skip
    if found.clusters:
        lines += ["# Clusters found on evidence: files that are one cluster. Declared, they stay one cluster",
                  "# however the files change; add what files cannot say.", ""]  # fmt: skip
    for cluster in found.clusters:
        lines += [f"[clusters.{cluster.name}]", f"# found: {cluster.why}"]
        lines.append("paths = [" + ", ".join(_quoted(p) for p in cluster.paths) + "]")
        lines.append(f"# brokers = {max(cluster.brokers, 3)}                      # the cluster's brokers "
                     f"({cluster.brokers} broker configuration(s) among the files)")  # fmt: skip
        lines.append('# racks = ["a", "b", "c"]')
        if not cluster.versions:
            lines.append(f'# kafka-version = "{found.newest}"')
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"
