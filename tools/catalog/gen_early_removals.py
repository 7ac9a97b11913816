#!/usr/bin/env python3
"""Generate advisor/catalog/data/early_removals.json: the keys releases 0.8.2 to 2.7 defined that
the catalog's first release (2.8) no longer has, each with the last release that read it.

For every release in RELEASES: fetch its broker jar and closure from Maven Central (cached), run
NameDump.java against them (the release's own KafkaConfig, LogConfig and client ConfigDefs name
their keys), then keep per component each key missing from 2.8.2.

    tools/catalog/gen_early_removals.py            regenerate the committed data
    tools/catalog/gen_early_removals.py --check    exit 1 if the committed data is stale

Kafka 0.8.2 had no definitions to ask: its broker read each property by name, so its keys are the
key-shaped string constants of its KafkaConfig classes (its Scala clients' keys are kept, by hand and
proven on the jars, in data/legacy_removals.json).
"""

from __future__ import annotations

import json
import re
import struct
import subprocess
import sys
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import fetch_kafka  # tools/fetch_kafka.py
import generated  # tools/generated.py

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent.parent
DUMPER = HERE / "NameDump.java"
POM = fetch_kafka.MAVEN_DIR / "kafka-core-scala.pom.xml"
OUTPUT = REPO_ROOT / "advisor" / "catalog" / "data" / "early_removals.json"

# Oldest first: the newest patch of each minor, with the Scala build Maven Central serves for it;
# the last is the catalog's first release, which the others are compared against.
OLD_BROKER = ("0.8.2.2", "org.apache.kafka:kafka_2.10:0.8.2.2")  # read from its class files
RELEASES = (
    ("0.9.0.1", "2.11"), ("0.10.0.1", "2.11"), ("0.10.1.1", "2.11"), ("0.10.2.2", "2.11"),
    ("0.11.0.3", "2.11"), ("1.0.2", "2.11"), ("1.1.1", "2.11"), ("2.0.1", "2.11"), ("2.1.1", "2.11"),
    ("2.2.2", "2.11"), ("2.3.1", "2.11"), ("2.4.1", "2.11"), ("2.5.1", "2.12"), ("2.6.3", "2.12"),
    ("2.7.2", "2.12"), ("2.8.2", "2.12"),
)  # fmt: skip


def libs(version: str, scala: str) -> Path:
    target = fetch_kafka.cache_root() / "kafka" / version / f"core-{scala}"
    properties = {"kafka.version": version, "scala.binary": scala}
    if not fetch_kafka.resolved(POM, properties, target):
        print(f"gen_early_removals: resolving Apache Kafka {version} (Scala {scala}) ...", file=sys.stderr)
        fetch_kafka.copy_dependencies(POM, properties, target)
    return target


def names(release: tuple[str, str]) -> dict[str, set[str]]:
    """component → the keys this release defines."""
    command = ["java", "-cp", fetch_kafka.classpath(libs(*release)), str(DUMPER)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        raise SystemExit(f"gen_early_removals: NameDump failed on {release[0]}:\n{result.stderr[-3000:]}")
    found: dict[str, set[str]] = {}
    for line in result.stdout.splitlines():
        component, _, key = line.partition("\t")
        found.setdefault(component, set()).add(key)
    return found


_KEY_SHAPED = re.compile(r"[a-z][a-z0-9]*(\.[a-z0-9]+)+")
# Constant-pool entry sizes after the tag byte (JVMS 4.4), for the tags that are not text.
_ENTRY_SIZES = {3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 16: 2, 19: 2, 20: 2, 9: 4, 10: 4, 11: 4, 12: 4, 17: 4, 18: 4, 15: 3}


def _strings(class_file: bytes) -> list[str]:
    """The CONSTANT_Utf8 entries of one class file's constant pool."""
    count, offset, index, found = struct.unpack(">H", class_file[8:10])[0], 10, 1, []
    while index < count:
        tag = class_file[offset]
        if tag == 1:
            length = struct.unpack(">H", class_file[offset + 1 : offset + 3])[0]
            found.append(class_file[offset + 3 : offset + 3 + length].decode("utf-8", "replace"))
            offset += 3 + length
        else:
            offset += 1 + _ENTRY_SIZES[tag]
        index += 2 if tag in (5, 6) else 1  # longs and doubles take two slots
    return found


def old_broker_names() -> dict[str, set[str]]:
    """0.8.2's broker keys: the key-shaped strings its KafkaConfig classes name."""
    jar = fetch_kafka.artifact_jar(OLD_BROKER[1])
    keys: set[str] = set()
    with zipfile.ZipFile(jar) as archive:
        for name in archive.namelist():
            if name.startswith("kafka/server/KafkaConfig") and name.endswith(".class"):
                keys |= {text for text in _strings(archive.read(name)) if _KEY_SHAPED.fullmatch(text)}
    if len(keys) < 50:
        raise SystemExit(f"gen_early_removals: only {len(keys)} keys found in {OLD_BROKER[1]}")
    return {"broker": keys}


def _minor(version: str) -> str:
    """2.0.1 → 2.0; before 1.0 the third number named the release: 0.10.2.2 → 0.10.2, 0.9.0.1 → 0.9."""
    parts = version.split(".")
    if parts[0] != "0":
        return ".".join(parts[:2])
    return ".".join(parts[:2]) if parts[2] == "0" and parts[1] in ("9", "11") else ".".join(parts[:3])


def fold(defined: list[dict[str, set[str]]]) -> dict[str, dict[str, dict[str, str]]]:
    """Per component, each key an older release defines and 2.8.2 does not: the last release
    that defined it and the release after it (where it is gone)."""
    versions = [OLD_BROKER[0], *(version for version, _ in RELEASES)]
    newest = defined[-1]
    removals: dict[str, dict[str, dict[str, str]]] = {}
    for component in sorted({c for release in defined for c in release}):
        for key in sorted({k for release in defined[:-1] for k in release.get(component, set())}):
            if key in newest.get(component, set()):
                continue
            last = max(i for i, release in enumerate(defined[:-1]) if key in release.get(component, set()))
            removals.setdefault(component, {})[key] = {
                "last": _minor(versions[last]), "removed_in": _minor(versions[last + 1])
            }  # fmt: skip
    return removals


def generate() -> str:
    for release in RELEASES:  # Maven runs one at a time; the dumps then two JVMs at once
        libs(*release)
    with ThreadPoolExecutor(max_workers=2) as pool:
        defined = [old_broker_names(), *pool.map(names, RELEASES)]
    document = {
        "about": "Generated by tools/catalog/gen_early_removals.py: keys Kafka 0.8.2 to 2.7 defined (their "
        "KafkaConfig, LogConfig and client ConfigDefs; 0.8.2's broker by the names its classes read) that "
        "2.8.2, the catalog's first release, does not.",
        "releases": [OLD_BROKER[0], *(version for version, _ in RELEASES)],
        "removals": fold(defined),
    }
    return json.dumps(document, indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    return generated.run(
        __doc__.split("\n\n")[0], lambda: {OUTPUT: generate()}, "tools/catalog/gen_early_removals.py", argv
    )


if __name__ == "__main__":
    sys.exit(main())
