#!/usr/bin/env python3
"""Generate advisor/catalog/data/metadata_versions.json: each KRaft `metadata.version` feature
level with the Kafka release that introduced it, read from the MetadataVersion enum of Kafka's own
jars (3.9's names every level since 3.0; 4.x dropped those below 3.3-IV3 and added its own). An audit reads
the cluster's finalized level (DescribeFeatures) and judges it at that release at least.

    tools/catalog/gen_metadata_versions.py            regenerate the committed data
    tools/catalog/gen_metadata_versions.py --check    exit 1 if the committed data is stale
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import fetch_kafka  # tools/fetch_kafka.py
import generated  # tools/generated.py

HERE = Path(__file__).resolve().parent
OUTPUT = HERE.parent.parent / "advisor" / "catalog" / "data" / "metadata_versions.json"
RELEASES = ("3.9.1", "4.4.0")  # the releases whose enums are read, the later winning where both name a level


def levels(release: str) -> dict[int, str]:
    """feature level → the version it names (`3.8-IV0`) in one release's enum."""
    classpath = fetch_kafka.classpath(fetch_kafka.kafka_libs(release))
    command = ["java", "-cp", classpath, str(HERE / "MetadataVersionDump.java")]
    lines = subprocess.run(command, capture_output=True, text=True, check=True, timeout=300).stdout.splitlines()
    return {int(level): name for level, name in (line.split() for line in lines if line.strip())}


def generate() -> str:
    found: dict[int, str] = {}
    for release in RELEASES:
        found |= {level: name for level, name in levels(release).items() if level >= 1}  # -1: 3.0-IV0, ZooKeeper only
    record = {
        "source": f"Apache Kafka {' and '.join(RELEASES)}: org.apache.kafka.server.common.MetadataVersion",
        "levels": {
            str(level): {"version": name, "release": name.split("-", 1)[0]} for level, name in sorted(found.items())
        },
    }
    return json.dumps(record, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    return generated.run(__doc__ or "", lambda: {OUTPUT: generate()}, "tools/catalog/gen_metadata_versions.py", argv)


if __name__ == "__main__":
    sys.exit(main())
