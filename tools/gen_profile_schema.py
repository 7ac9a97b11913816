#!/usr/bin/env python3
"""Generate docs/profile.schema.json, the JSON schema of a load profile (advisor/recommend/profile.py).
--check fails when the committed file is stale (tests/recommend/test_profile_schema.py runs it)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "tools"))

from generated import run  # noqa: E402

from advisor.recommend.profile import LoadProfile  # noqa: E402

SCHEMA = REPO_ROOT / "docs" / "profile.schema.json"


def produce() -> dict[Path, str]:
    return {SCHEMA: json.dumps(LoadProfile.model_json_schema(), indent=2, sort_keys=True) + "\n"}


if __name__ == "__main__":
    sys.exit(run("Generate the load profile's JSON schema.", produce, "tools/gen_profile_schema.py"))
