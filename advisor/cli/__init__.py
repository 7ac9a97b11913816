"""Command-line entry point: `kafka-advisor [--version] COMMAND ...`."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from advisor import __version__
from advisor.cli.registry import COMMANDS

# Exit codes shared by every command.
EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2  # usage, input or internal error


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kafka-advisor",
        description="Kafka tuning advisor and configuration linter.",
    )
    parser.add_argument("--version", action="version", version=f"kafka-advisor {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        module = importlib.import_module(command.module)
        sub = subparsers.add_parser(command.name, help=command.help, description=command.help)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_usage(sys.stderr)
        print("kafka-advisor: error: a command is required", file=sys.stderr)
        return EXIT_ERROR
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        return EXIT_ERROR
    except Exception as error:  # noqa: BLE001 - any crash is reported as exit 2, never a traceback
        # Named by its type and place only: an exception's text may quote an input value (a secret).
        import os
        import traceback

        frame = traceback.extract_tb(error.__traceback__)[-1]
        where = f"{os.path.basename(frame.filename)}:{frame.lineno}"
        print(f"kafka-advisor: internal error: {type(error).__name__} at {where}; please report it", file=sys.stderr)
        return EXIT_ERROR


def entrypoint() -> NoReturn:
    sys.exit(main())
