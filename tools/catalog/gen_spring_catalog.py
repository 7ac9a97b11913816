#!/usr/bin/env python3
"""Generate advisor/catalog/data/spring_boot.json from Spring Boot's own jars.

For each Boot release in BOOT_RELEASES: Maven fetches Boot's Kafka auto-configuration
with spring-kafka (cached under .cache/spring-boot/), the typed spring.kafka.*
properties are read from Boot's configuration metadata, and SpringKafkaProbe.java
asks the real KafkaProperties class which Kafka key each one sets.

    tools/catalog/gen_spring_catalog.py [--check]
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import fetch_kafka  # tools/fetch_kafka.py
import generated  # tools/generated.py

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent.parent
PROBE = HERE / "SpringKafkaProbe.java"
POM = REPO_ROOT / "tools" / "maven" / "spring-kafka.pom.xml"
OUTPUT = REPO_ROOT / "advisor" / "catalog" / "data" / "spring_boot.json"
SCHEMA_VERSION = 1
METADATA = "META-INF/spring-configuration-metadata.json"

# The newest release of each Boot line that Maven Central serves here, and the
# module that holds KafkaProperties in it.
BOOT_RELEASES = {
    "2.7.18": "spring-boot-autoconfigure",
    "3.5.7": "spring-boot-autoconfigure",
    "4.0.7": "spring-boot-kafka",
}
# The maps passed through verbatim to the Kafka clients, and which clients get them.
PASSTHROUGH = {
    "spring.kafka.properties": ["admin", "consumer", "producer", "streams"],
    "spring.kafka.admin.properties": ["admin"],
    "spring.kafka.consumer.properties": ["consumer"],
    "spring.kafka.producer.properties": ["producer"],
    "spring.kafka.streams.properties": ["streams"],
}


def boot_jars(version: str) -> Path:
    directory = fetch_kafka.cache_root() / "spring-boot" / version
    properties = {"boot.version": version, "boot.kafka.artifact": BOOT_RELEASES[version]}
    if not fetch_kafka.resolved(POM, properties, directory):
        print(f"gen_spring_catalog: resolving Spring Boot {version} ...", file=sys.stderr)
        fetch_kafka.copy_dependencies(POM, properties, directory)
    return directory


def read_metadata(jars: Path) -> tuple[str, dict[str, dict[str, Any]]]:
    """(KafkaProperties class name, spring.kafka.* property metadata) from Boot's own jars."""
    properties_class = None
    properties: dict[str, dict[str, Any]] = {}
    for jar in sorted(jars.glob("*.jar")):
        with zipfile.ZipFile(jar) as archive:
            if METADATA not in archive.namelist():
                continue
            metadata = json.loads(archive.read(METADATA))
        for group in metadata.get("groups", []):
            if group["name"] == "spring.kafka":
                properties_class = group["sourceType"]
        for prop in metadata.get("properties", []):
            if prop["name"].startswith("spring.kafka."):
                properties[prop["name"]] = prop
    if properties_class is None:
        raise SystemExit(f"gen_spring_catalog: no spring.kafka group in the metadata of {jars}")
    return properties_class, properties


def probe(jars: Path, properties_class: str, names: list[str]) -> dict[str, tuple[str, dict[str, list[str]]]]:
    with tempfile.TemporaryDirectory() as tmp:
        names_file, out_file = Path(tmp) / "names.txt", Path(tmp) / "out.txt"
        names_file.write_text("\n".join(names) + "\n")
        result = subprocess.run(
            ["java", "-cp", fetch_kafka.classpath(jars), str(PROBE), properties_class, str(names_file), str(out_file)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        if result.returncode != 0:
            raise SystemExit(f"SpringKafkaProbe failed:\n{result.stdout[-4000:]}")
        probed = {}
        for line in out_file.read_text().splitlines():
            name, status, keys = line.split("\t")
            sets = {role: found.split(",") for role, found in (p.split("=", 1) for p in keys.split(";") if p)}
            probed[name] = (status, sets)
    return probed


def first_sentence(text: str) -> str:
    text = re.sub(r"\s+", " ", text or "").strip()
    return re.split(r"(?<=\.) ", text, maxsplit=1)[0]


def boot_surface(version: str) -> dict[str, Any]:
    jars = boot_jars(version)
    properties_class, metadata = read_metadata(jars)
    probed = probe(jars, properties_class, sorted(metadata))
    surface: dict[str, Any] = {}
    for name, prop in sorted(metadata.items()):
        status, sets = probed[name]
        record: dict[str, Any] = {"type": prop.get("type"), "doc": first_sentence(prop.get("description", ""))}
        if "defaultValue" in prop:
            record["default"] = prop["defaultValue"]
        if name in PASSTHROUGH:
            status, sets = "passthrough", {role: ["*"] for role in PASSTHROUGH[name]}
        record["status"] = status
        if sets:
            record["sets"] = sets
        deprecation = prop.get("deprecation")
        if deprecation is not None:
            record["deprecated"] = True
            if deprecation.get("replacement"):
                record["replacement"] = deprecation["replacement"]
        surface[name] = record
    return {"kafka_properties_class": properties_class, "properties": surface}


def generate() -> str:
    data = {
        "schema_version": SCHEMA_VERSION,
        "source": "Spring Boot configuration metadata, probed through KafkaProperties.build*Properties()",
        "boot": {version: boot_surface(version) for version in BOOT_RELEASES},
    }
    return json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    return generated.run(
        __doc__.split("\n\n")[0], lambda: {OUTPUT: generate()}, "tools/catalog/gen_spring_catalog.py", argv
    )


if __name__ == "__main__":
    sys.exit(main())
