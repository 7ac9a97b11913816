#!/usr/bin/env python3
"""Generate advisor/catalog/data/kafka.json from Kafka's own ConfigDefs.

For every release in RELEASES: fetch its jars from Maven Central (cached), run
ConfigDump.java against them (Kafka's classes describe themselves), then fold
the per-release dumps into one record per (component, key) with its history.

    tools/catalog/gen_kafka_catalog.py            regenerate the committed data
    tools/catalog/gen_kafka_catalog.py --check    exit 1 if the committed data is stale

The output is deterministic: the same jars give the same bytes.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import fetch_kafka  # tools/fetch_kafka.py
import generated  # tools/generated.py

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent.parent

DUMPER = HERE / "ConfigDump.java"
OUTPUT = REPO_ROOT / "advisor" / "catalog" / "data" / "kafka.json"
SCHEMA_VERSION = 1

# Oldest first. The latest patch of each minor that Maven Central serves, except
# where the catalog issue names a specific patch (3.8.1, 3.9.1).
RELEASES = (
    "2.8.2",
    "3.0.2",
    "3.1.2",
    "3.2.3",
    "3.3.2",
    "3.4.1",
    "3.5.2",
    "3.6.2",
    "3.7.2",
    "3.8.1",
    "3.9.1",
    "4.0.2",
    "4.1.2",
    "4.2.2",
    "4.3.1",
    "4.4.0",
)
COMPONENTS = ("broker", "topic", "producer", "consumer", "admin")
# Everything about a key that, when it changes between releases, starts a new span.
SPAN_FIELDS = (
    "type",
    "required",
    "default",
    "default_text",
    "valid",
    "min",
    "max",
    "choices",
    "choices_ignore_case",
    "importance",
    "internal",
    "dynamic",
    "broker_synonyms",
)


def dump_release(version: str, libs: Path | None = None) -> dict[str, Any]:
    """Run ConfigDump against one release's jars and return its parsed output."""
    libs = libs or fetch_kafka.kafka_core_libs(version)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "dump.json"
        result = subprocess.run(
            ["java", "-cp", fetch_kafka.classpath(libs), str(DUMPER), str(out)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        if result.returncode != 0:
            raise SystemExit(f"ConfigDump failed for Kafka {version}:\n{result.stdout[-4000:]}")
        dump = json.loads(out.read_text())
    if dump["kafka_version"] != version:
        raise SystemExit(f"jars in {libs} report Kafka {dump['kafka_version']}, expected {version}")
    return dump


def fold(dumps: list[dict[str, Any]]) -> dict[str, Any]:
    """Fold per-release dumps (oldest first) into per-key records with spans."""
    releases = [d["kafka_version"] for d in dumps]
    components: dict[str, dict[str, Any]] = {}
    for component in COMPONENTS:
        per_release = [{r["name"]: r for r in d["components"][component]} for d in dumps]
        names = sorted(set().union(*per_release))
        records: dict[str, Any] = {}
        for name in names:
            spans: list[dict[str, Any]] = []
            doc = ""
            for release, keys in zip(releases, per_release, strict=True):
                raw = keys.get(name)
                facts = {"removed": True} if raw is None else {f: raw[f] for f in SPAN_FIELDS if f in raw}
                if raw is not None:
                    doc = raw["doc"] or doc
                previous = {k: v for k, v in spans[-1].items() if k != "from"} if spans else None
                if facts != previous and not (previous is None and raw is None):
                    spans.append({"from": release, **facts})
            records[name] = {"doc": doc, "spans": spans}
        components[component] = records
    return {"schema_version": SCHEMA_VERSION, "releases": releases, "components": components}


def render(catalog: dict[str, Any]) -> str:
    """Stable text: one key per line so that diffs show what changed."""

    def dumps(value: Any) -> str:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    lines = ["{", f'"schema_version":{catalog["schema_version"]},', f'"releases":{dumps(catalog["releases"])},']
    lines.append('"components":{')
    for c_index, component in enumerate(COMPONENTS):
        lines.append(f"{dumps(component)}:{{")
        records = catalog["components"][component]
        for k_index, name in enumerate(sorted(records)):
            comma = "," if k_index < len(records) - 1 else ""
            lines.append(f"{dumps(name)}:{dumps(records[name])}{comma}")
        lines.append("}" + ("," if c_index < len(COMPONENTS) - 1 else ""))
    lines.append("}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def generate() -> str:
    for version in RELEASES:  # Maven runs one at a time; dumping then runs two JVMs at once
        fetch_kafka.kafka_core_libs(version)
    with ThreadPoolExecutor(max_workers=2) as pool:
        dumps = list(pool.map(dump_release, RELEASES))
    return render(fold(dumps))


def main(argv: list[str] | None = None) -> int:
    return generated.run(
        __doc__.split("\n\n")[0], lambda: {OUTPUT: generate()}, "tools/catalog/gen_kafka_catalog.py", argv
    )


if __name__ == "__main__":
    sys.exit(main())
