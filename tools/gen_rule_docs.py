#!/usr/bin/env python3
"""Generate docs/rules/<ID>.md, docs/rules/index.md and rules/rule.schema.json from the rules.

.venv/bin/python tools/gen_rule_docs.py [--check]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from advisor.rules import docs  # noqa: E402
from advisor.rules.definition import RuleDefinition  # noqa: E402
from advisor.rules.registry import load_rules  # noqa: E402

DOCS = REPO_ROOT / "docs" / "rules"
SCHEMA = REPO_ROOT / "rules" / "rule.schema.json"


def outputs() -> dict[Path, str]:
    definitions = [rule.definition for rule in load_rules(REPO_ROOT / "rules")]
    files = {DOCS / f"{d.id}.md": docs.rule_page(d) for d in definitions}
    files[DOCS / "index.md"] = docs.index_page(definitions)
    files[SCHEMA] = json.dumps(RuleDefinition.model_json_schema(), indent=2, sort_keys=True) + "\n"
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if a generated file is stale or extra")
    args = parser.parse_args(argv)
    wanted = outputs()
    stale = [path for path, text in wanted.items() if not path.exists() or path.read_text() != text]
    extra = [path for path in DOCS.glob("*.md") if path not in wanted]
    if args.check:
        for path in stale + extra:
            print(f"{path.relative_to(REPO_ROOT)} is stale: run tools/gen_rule_docs.py", file=sys.stderr)
        return 1 if stale or extra else 0
    DOCS.mkdir(parents=True, exist_ok=True)
    for path in stale:
        path.write_text(wanted[path])
    for path in extra:
        path.unlink()
    print(f"{len(stale)} written, {len(extra)} removed", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
