#!/usr/bin/env python3
"""Generate advisor/catalog/data/bitnami_kafka_chart.json — which Apache Kafka release each
version of the Bitnami Kafka Helm chart ships (its Chart.yaml `appVersion`) — from the history
of bitnami/charts itself, so that a release can be named from a chart version (an umbrella
chart's dependency, a `Chart.yaml` beside the values) when the values set no `image.tag`.

Needs a git clone of https://github.com/bitnami/charts (not fetched by CI; the output is
committed and a test checks its shape):

.venv/bin/python tools/gen_bitnami_chart_versions.py PATH/TO/bitnami-charts
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
OUTPUT = REPO_ROOT / "advisor" / "catalog" / "data" / "bitnami_kafka_chart.json"
_FIELD = re.compile(r"^(version|appVersion):\s*['\"]?([^'\"\s]+)", re.MULTILINE)


def history(charts: Path) -> dict[str, str]:
    """chart version → Kafka release, over every commit that changed the chart's Chart.yaml."""
    commits = subprocess.run(
        ["git", "-C", str(charts), "log", "--format=%H", "--", "bitnami/kafka/Chart.yaml"],
        capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    found: dict[str, str] = {}
    for commit in commits:
        shown = subprocess.run(
            ["git", "-C", str(charts), "show", f"{commit}:bitnami/kafka/Chart.yaml"], capture_output=True, text=True
        )
        fields = dict(_FIELD.findall(shown.stdout))
        if shown.returncode == 0 and "version" in fields and "appVersion" in fields:
            found.setdefault(fields["version"], fields["appVersion"])  # newest commit first: its word wins
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    versions = history(Path(argv[0]))
    ordered = dict(sorted(versions.items(), key=lambda item: [int(p) for p in re.findall(r"\d+", item[0])]))
    OUTPUT.write_text(json.dumps({"source": "bitnami/charts: bitnami/kafka/Chart.yaml history", "versions": ordered},
                                 indent=1) + "\n")  # fmt: skip
    print(f"{len(ordered)} chart versions written to {OUTPUT.relative_to(REPO_ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
