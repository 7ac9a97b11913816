"""`kafka-advisor rules`: list every rule (text, json or markdown)."""

from __future__ import annotations

import argparse
import json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("text", "json", "markdown"), default="text")


def run(args: argparse.Namespace) -> int:
    from advisor.rules import docs
    from advisor.rules.registry import load_rules

    definitions = [rule.definition for rule in load_rules()]
    if args.format == "json":
        print(json.dumps([d.to_dict() for d in definitions], indent=2))
    elif args.format == "markdown":
        print(docs.index_page(definitions), end="")
    else:
        for d in definitions:
            print(f"{d.id}  {d.severity:<7}  {d.category:<13}  {d.name}: {d.summary}")
    return 0
