"""What a wheel's build already did, so an installed run does not do it again.

A run from a checkout validates the rule files and catalog data with their pydantic models and
remembers each validation in the user's cache, keyed by the content's digest: files there change
under the developer's hands. An installed package's files do not, and a CI runner starts with an
empty cache — every run there would be a first run (~250 ms of YAML parsing and validation). So
the wheel's build hook (hatch_build.py) calls `build`: the rule set is parsed, validated and its
predicates compiled, the catalog data validated — a failure fails the build — and the result ships
as advisor/prebuilt.json. An installed run reads that one file and trusts the data beside it;
a checkout has no such file (it is never committed) and keeps validating.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

PREBUILT = Path(__file__).resolve().parent / "prebuilt.json"
LAYOUT = 1  # bumped when the file's shape changes


@cache
def load() -> dict[str, Any] | None:
    """The build's results, or None in a checkout (or for a file of another layout)."""
    try:
        kept = json.loads(PREBUILT.read_bytes())
    except (OSError, ValueError):
        return None
    return kept if isinstance(kept, dict) and kept.get("layout") == LAYOUT else None


def rule_set() -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Each packaged rule file's validated content and predicate tree, by file name."""
    kept = load()
    return (kept["rules"], kept["trees"]) if kept is not None else None


def validated(data_file: str) -> bool:
    """Whether the build validated this catalog data file (then it is read without validating)."""
    kept = load()
    return kept is not None and data_file in kept["catalog"]


def build(rules_dir: Path) -> dict[str, Any]:
    """Validate and compile what an installed run would otherwise check on its first run; raises
    (LoadError, ValidationError) on anything the models reject."""
    from advisor.catalog import store
    from advisor.rules import registry

    raw_by_path, trees = registry.compile_rule_set(sorted(rules_dir.glob("*.yaml")))
    for data_file in store.MODELS:
        store.validate(data_file)
    return {
        "layout": LAYOUT,
        "rules": {path.name: raw for path, raw in raw_by_path.items()},
        "trees": {path.name: tree for path, tree in trees.items()},
        "catalog": sorted(store.MODELS),
    }
