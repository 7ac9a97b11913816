"""`kafka-advisor explain ID`: what a rule checks, why, and what to do (by code or name)."""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("rule", metavar="ID", help="rule code (KB101) or name (min-insync-replicas-one)")


def run(args: argparse.Namespace) -> int:
    from advisor.rules import docs
    from advisor.rules.registry import load_rules

    for rule in load_rules():
        if args.rule in (rule.definition.id, rule.definition.name):
            print(docs.rule_page(rule.definition), end="")
            return 0
    print(f"kafka-advisor explain: error: no rule {args.rule!r} (see `kafka-advisor rules`)", file=sys.stderr)
    return 2
