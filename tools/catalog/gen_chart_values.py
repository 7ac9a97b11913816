#!/usr/bin/env python3
"""Generate advisor/catalog/data/chart_values.json — which values each Kafka Helm chart reads, by
chart major version — from the charts' own git history: every commit that changed the chart, its
Chart.yaml version, its values.yaml and its templates.

A value path is **known** to a chart version when its values.yaml declares it or a template
reads it (`.Values.a.b`, `$.Values.a.b`, `index .Values "a" "b"`); it is **open** (its children
are the user's, e.g. `resources`, `configurationOverrides`) when a template reads the path
itself (`toYaml .Values.resources`, `range … .Values.configurationOverrides`) or values.yaml
declares it as an empty map, list or null. Dependencies (subcharts) and `global` are open.
A written value that is neither known nor under an open path is passed to no template: Helm
ignores it without a word (KB145).

Needs git clones of https://github.com/bitnami/charts and
https://github.com/confluentinc/cp-helm-charts (not fetched by CI; the output is committed and
tests check its shape and a sample of its answers):

.venv/bin/python tools/catalog/gen_chart_values.py PATH/TO/bitnami-charts PATH/TO/cp-helm-charts
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
OUTPUT = REPO_ROOT / "advisor" / "catalog" / "data" / "chart_values.json"
CHARTS = {"bitnami-kafka": "bitnami/kafka", "cp-kafka": "charts/cp-kafka"}
_REFERENCE = re.compile(r"\.Values((?:\.[A-Za-z_][A-Za-z0-9_-]*)+)")
_INDEXED = re.compile(r"index\s+\$?[A-Za-z_]*\.Values((?:\s+\"[^\"]+\")+)")
_QUOTED = re.compile(r"\"([^\"]+)\"")
_VERSION = re.compile(r"^version:\s*['\"]?(\d+)\.", re.MULTILINE)
SEPARATOR = "/"  # between path segments: Kafka keys (segments of open maps) hold dots


class Blobs:
    """Blob texts of one repository, read through one `git cat-file --batch`."""

    def __init__(self, repo: Path) -> None:
        self.process = subprocess.Popen(
            ["git", "-C", str(repo), "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        self.cache: dict[str, str] = {}

    def text(self, blob: str) -> str:
        if blob not in self.cache:
            assert self.process.stdin and self.process.stdout
            self.process.stdin.write(f"{blob}\n".encode())
            self.process.stdin.flush()
            size = int(self.process.stdout.readline().split()[2])
            self.cache[blob] = self.process.stdout.read(size).decode("utf-8", "replace")
            self.process.stdout.read(1)
        return self.cache[blob]


def template_paths(text: str) -> set[tuple[str, ...]]:
    found = {tuple(match[1:].split(".")) for match in _REFERENCE.findall(text)}
    found |= {tuple(_QUOTED.findall(match)) for match in _INDEXED.findall(text)}
    return {path for path in found if path}


def values_paths(node: Any, prefix: tuple[str, ...] = ()) -> tuple[set[tuple[str, ...]], set[tuple[str, ...]]]:
    """(declared paths, open paths) of a values.yaml mapping."""
    declared: set[tuple[str, ...]] = set()
    opened: set[tuple[str, ...]] = set()
    if not isinstance(node, dict):
        return declared, opened
    for key, value in node.items():
        path = (*prefix, str(key))
        declared.add(path)
        if value is None or value == {} or isinstance(value, list):
            opened.add(path)
        elif isinstance(value, dict):
            inner_declared, inner_opened = values_paths(value, path)
            declared |= inner_declared
            opened |= inner_opened
    return declared, opened


def dependencies(chart_yaml: str, requirements: str) -> set[tuple[str, ...]]:
    names: set[tuple[str, ...]] = {("global",)}
    for text in (chart_yaml, requirements):
        try:
            data = yaml.safe_load(text) or {}
        except yaml.YAMLError:
            continue
        for dependency in data.get("dependencies") or [] if isinstance(data, dict) else []:
            if isinstance(dependency, dict):
                names |= {(str(dependency[k]),) for k in ("name", "alias") if dependency.get(k)}
    return names


def chart_history(repo: Path, folder: str) -> dict[int, dict[str, set[tuple[str, ...]]]]:
    """Per chart major version: known and open value paths, over every commit of the chart."""
    commits = subprocess.run(
        ["git", "-C", str(repo), "log", "--format=%H", "--", folder], capture_output=True, text=True, check=True
    ).stdout.split()
    blobs = Blobs(repo)
    parsed: dict[str, Any] = {}
    majors: dict[int, dict[str, set[tuple[str, ...]]]] = {}
    for commit in commits:
        listing = subprocess.run(
            ["git", "-C", str(repo), "ls-tree", "-r", commit, "--", f"{folder}/"],
            capture_output=True, text=True, check=True,
        ).stdout.splitlines()  # fmt: skip
        files = {line.split("\t", 1)[1][len(folder) + 1 :]: line.split()[2] for line in listing}
        if "values.yaml" not in files or "Chart.yaml" not in files:
            continue
        version = _VERSION.search(blobs.text(files["Chart.yaml"]))
        if version is None:
            continue
        into = majors.setdefault(int(version[1]), {"known": set(), "open": set()})
        values_blob = files["values.yaml"]
        if values_blob not in parsed:
            try:
                parsed[values_blob] = values_paths(yaml.safe_load(blobs.text(values_blob)))
            except yaml.YAMLError:
                parsed[values_blob] = (set(), set())
        declared, opened = parsed[values_blob]
        into["known"] |= declared
        requirements = blobs.text(files["requirements.yaml"]) if "requirements.yaml" in files else ""
        into["open"] |= opened | dependencies(blobs.text(files["Chart.yaml"]), requirements)
        for name, blob in files.items():
            if name.startswith("templates/"):
                if blob not in parsed:
                    parsed[blob] = template_paths(blobs.text(blob))
                into["known"] |= parsed[blob]
                into["open"] |= parsed[blob]  # a path read itself: passed whole, or tested
    return majors


def ranges(majors: list[int]) -> list[list[int]]:
    """[3, 4, 5, 9] → [[3, 5], [9, 9]]."""
    found: list[list[int]] = []
    for major in sorted(majors):
        if found and found[-1][1] == major - 1:
            found[-1][1] = major
        else:
            found.append([major, major])
    return found


def encode(history: dict[int, dict[str, set[tuple[str, ...]]]], source: str) -> dict[str, Any]:
    by_path: dict[str, dict[str, list[int]]] = {"known": {}, "open": {}}
    for major, kinds in history.items():
        for kind, paths in kinds.items():
            for path in paths:
                by_path[kind].setdefault(SEPARATOR.join(path), []).append(major)
    return {
        "source": source,
        "majors": sorted(history),
        "known": {p: ranges(m) for p, m in sorted(by_path["known"].items())},
        "open": {p: ranges(m) for p, m in sorted(by_path["open"].items())},
    }


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    bitnami, confluent = (Path(a) for a in argv)
    data = {
        "bitnami-kafka": encode(
            chart_history(bitnami, CHARTS["bitnami-kafka"]), "bitnami/charts: bitnami/kafka history"
        ),
        "cp-kafka": encode(
            chart_history(confluent, CHARTS["cp-kafka"]), "confluentinc/cp-helm-charts: charts/cp-kafka history"
        ),
    }
    OUTPUT.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    print(
        f"wrote {OUTPUT.relative_to(REPO_ROOT)}: " + ", ".join(f"{k} {len(v['known'])} paths" for k, v in data.items())
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
