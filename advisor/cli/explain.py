"""`kafka-advisor explain ID`: what a rule checks, why, and what to do (by code or name)."""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("rule", metavar="ID", help="rule code (KB101) or name (min-insync-replicas-one)")


def run(args: argparse.Namespace) -> int:
    from advisor.report.selection import nearest
    from advisor.rules import docs
    from advisor.rules.registry import load_rules

    for rule in load_rules():  # a code or a name, in any case
        if args.rule.upper() == rule.definition.id or args.rule.lower() == rule.definition.name:
            print(docs.rule_page(rule.definition), end="")
            return 0
    rules = [(r.definition.id, r.definition.name) for r in load_rules()]
    near = nearest(args.rule, rules)
    hint = f"did you mean {near}?" if near else "see `kafka-advisor rules`"
    print(f"kafka-advisor explain: error: no rule {args.rule!r} ({hint})", file=sys.stderr)
    return 2
