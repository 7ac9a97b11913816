"""Command-line entry point: `kafka-advisor [--version] COMMAND ...`."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from advisor import TYPE_CHECKING, __version__
from advisor.cli.registry import COMMANDS

if TYPE_CHECKING:
    from typing import NoReturn

# Exit codes shared by every command.
EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2  # usage, input or internal error


def _columns() -> int:
    """The terminal's width as shutil.get_terminal_size gives it ($COLUMNS, else the terminal,
    else 80), without importing shutil (and the compression modules it imports) for every run."""
    import os

    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


class _HelpFormatter(argparse.HelpFormatter):
    def __init__(self, prog: str, **options: int) -> None:
        options.setdefault("width", _columns() - 2)  # what HelpFormatter itself takes
        super().__init__(prog, **options)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with `only`, that command's alone (its module the only one imported: a run pays
    for its own command, not for all of them)."""
    parser = argparse.ArgumentParser(
        prog="kafka-advisor",
        description="Kafka tuning advisor and configuration linter.",
        formatter_class=_HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"kafka-advisor {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        if only is not None and command.name != only:
            continue  # a named command needs no other's parser: usage and errors name only it
        sub = subparsers.add_parser(
            command.name, help=command.help, description=command.help, formatter_class=_HelpFormatter
        )
        module = importlib.import_module(command.module)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def _command(argv: Sequence[str]) -> str | None:
    """The command a command line names (its first word, when that is a command)."""
    first = next((word for word in argv if not word.startswith("-")), None)
    return first if any(c.name == first for c in COMMANDS) else None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = _command(argv)
    parser = build_parser(command) if command is not None else build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_usage(sys.stderr)
        print("kafka-advisor: error: a command is required", file=sys.stderr)
        return EXIT_ERROR
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        return EXIT_ERROR
    except BrokenPipeError:  # the reader went away (`| head`): nothing more to say, and nowhere to say it
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # the interpreter's final flush too
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
    """The console script. Once the command is done the process ends without the interpreter's
    teardown — freeing every module and object one by one, about a tenth of a one-file lint —
    after what exit must still do: the exit handlers run and the output is flushed."""
    import atexit
    import gc
    import os

    # A lint allocates millions of small objects that live until it ends (settings, spans,
    # findings) and makes almost no reference cycles: the collector's default thresholds walked
    # them again and again, a tenth of a 10,000-file run. Collections stay, far fewer (mypy's
    # choice too); what memory a cycle holds is still freed.
    gc.set_threshold(200_000, 30, 30)
    code = main()
    atexit._run_exitfuncs()  # none on the lint path; a library's (logging's) still run
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader left before the last buffered line: as in main
        code = EXIT_ERROR
    except Exception:  # noqa: BLE001 - a stream that cannot be flushed has no one to tell
        code = EXIT_ERROR
    os._exit(code)
