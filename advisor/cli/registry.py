"""The one place where subcommands are registered.

Each entry names a module that defines ``add_arguments(parser)`` and
``run(args) -> int``. Command modules keep their top level light (argparse
only) and import heavy libraries inside ``run``, so building the parser, or
answering ``--version``/``--help``, never pays for the Kafka clients.
"""

from __future__ import annotations

from advisor.named_tuple import NamedTuple


class Command(NamedTuple):
    name: str
    module: str
    help: str


COMMANDS: tuple[Command, ...] = (
    Command("lint", "advisor.cli.lint", "check Kafka configuration files"),
    Command("analyze", "advisor.cli.analyze", "judge broker metrics (scrapes, files), with their configuration"),
    Command(
        "advise", "advisor.cli.advise", "a guided session: health, flow, a plan of single steps, how to check each"
    ),
    Command("audit", "advisor.cli.audit", "a running cluster, read-only: its configuration, topics and groups judged"),
    Command("diff", "advisor.cli.diff", "compare two versions of a configuration before deploying the change"),
    Command(
        "recommend", "advisor.cli.recommend", "values for a load profile, with formulas and the metric that proves each"
    ),
    Command("verify", "advisor.cli.verify", "compare metrics before and after a change for the numbers that prove it"),
    Command("bench", "advisor.cli.bench", "before and after on a real cluster with kafka-producer-perf-test"),
    Command("catalog", "advisor.cli.catalog", "what a config key is: type, default, validation, history"),
    Command("rules", "advisor.cli.rules", "list the rules"),
    Command("explain", "advisor.cli.explain", "explain one rule"),
    Command("init", "advisor.cli.init", "write a project config for a repository as it is, with a baseline"),
)
