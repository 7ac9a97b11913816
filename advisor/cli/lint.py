"""`kafka-advisor lint PATH...`: check configuration files against the rules.

Exit codes: 0 nothing at or above --fail-on; 1 findings at or above it; 2 a usage,
input or internal error (other files are still checked and reported).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

from advisor import TYPE_CHECKING
from advisor.model.vocabulary import Client, Component, InputFormat, Profile, Severity
from advisor.named_tuple import NamedTuple
from advisor.output import formats
from advisor.rules.dev_profile import DEV_QUIETS

if TYPE_CHECKING:
    from typing import Any

EXIT_OK, EXIT_ERROR = 0, 2

COMPONENTS = Component.values()
CLIENTS = Client.values()
FORMATS = formats("lint")  # lint, analyze and diff write every one


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from advisor.cli.cluster_options import add_cluster_options

    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="files or directories to check")
    add_run_options(parser)
    add_cluster_options(parser, required=False)  # the cluster the files are judged against (plans, topics)
    parser.add_argument(
        "--diff", action="store_true", help="print the safe fixes as a unified diff (nothing is written); exit 1 if any"
    )
    parser.add_argument("--fix", action="store_true",
                        help="write the safe fixes into the files (with --diff: only show them); the report is "
                             "what is left")  # fmt: skip
    parser.add_argument("--unsafe-fixes", action="store_true",
                        help="with --fix or --diff: the unsafe fixes too (they change behaviour: "
                             "review them)")  # fmt: skip


def _applicability(args: argparse.Namespace) -> tuple[str, ...]:
    return ("safe", "unsafe") if getattr(args, "unsafe_fixes", False) else ("safe",)


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """What lint and analyze share: how configs are read and judged, and where reports go."""
    parser.add_argument("--as", dest="component", choices=COMPONENTS, help="treat the files as this component")
    parser.add_argument("--client", choices=CLIENTS, help="client library of client configs (default: java)")
    parser.add_argument(
        "--format",
        dest="input_format",
        choices=InputFormat.values(),
        help="read the files named as this format, whatever their name (folders: [overrides] in the project config)",
    )
    parser.add_argument("--kafka-version", metavar="V", help="Kafka version (default: from the files, else newest)")
    parser.add_argument(
        "--profile",
        choices=Profile.values(),
        help=f"dev: a development setup; quiets {', '.join(DEV_QUIETS)} (default: a file's or cluster's own,"
        " else dev where clients reach the brokers on loopback only, else prod, said on the findings dev would quiet)",
    )
    parser.add_argument(
        "--output-format", choices=FORMATS, help="format printed on stdout (default: text; github under GitHub Actions)"
    )
    parser.add_argument(
        "-o", dest="outputs", action="append", default=[], metavar="FORMAT=PATH", help="also write FORMAT to PATH"
    )
    parser.add_argument("--fail-on", choices=tuple(reversed(Severity.values())), help="default: warning")
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even with findings (not on errors)")
    parser.add_argument("--select", metavar="CODES", help="only these rules (codes, prefixes or names)")
    parser.add_argument("--ignore", metavar="CODES", help="skip these rules (codes, prefixes or names)")
    parser.add_argument("--config", type=Path, metavar="FILE", help="settings file (default: the closest one)")
    parser.add_argument("--baseline", type=Path, metavar="FILE", help="accept the findings recorded in FILE")
    parser.add_argument("--write-baseline", type=Path, metavar="FILE", help="record current findings in FILE, exit 0")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    parser.add_argument("--docs-url", metavar="URL", help="base URL of the rule pages for SARIF helpUri")
    parser.add_argument(
        "--follow-links", action="store_true", help="in folders, also read links that lead outside the folder"
    )
    unknown = "pass over files named that no reader claims, as a folder walk does (for pre-commit and file lists)"
    parser.add_argument("--ignore-unknown", action="store_true", help=unknown)
    parser.add_argument("--unread", choices=("note", "error"),
                        help="a file that mentions Kafka but that no reader claims, or a run that read no "
                        "configuration: a note (default) or an error, exit 2 (project config: unread)")  # fmt: skip


def _parse_outputs(specs: list[str]) -> list[tuple[str, Path]]:
    outputs = []
    for spec in specs:
        fmt, sep, path = spec.partition("=")
        if not sep or fmt not in FORMATS or not path:
            raise ValueError(f"-o expects FORMAT=PATH with FORMAT one of {', '.join(FORMATS)}, got {spec!r}")
        outputs.append((fmt, Path(path)))
    return outputs


class Prepared(NamedTuple):
    request: Any  # session.RunRequest
    config: Any  # project_config.ProjectConfig
    outputs: list[tuple[str, Path]]
    stdout_format: str


def prepare(args: argparse.Namespace, command: str, paths: list[Path]) -> Prepared | int:
    """The run the arguments and the project config ask for; an exit code on a usage error."""
    from advisor import project_config
    from advisor.catalog import UnknownVersionError
    from advisor.model.document import LoadError
    from advisor.report import selection, session

    try:
        outputs = _parse_outputs(args.outputs)
        config_path = args.config or project_config.find(paths[0] if paths else Path.cwd())
        config = project_config.load(config_path) if config_path else project_config.ProjectConfig()
        kafka_version = args.kafka_version or config.kafka_version
        if kafka_version:
            from advisor import catalog

            catalog.resolve_version(kafka_version)
    except (ValueError, UnknownVersionError, LoadError, OSError) as error:
        print(f"kafka-advisor {command}: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    stdout_format = args.output_format or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    request = session.RunRequest(
        paths=tuple(paths),
        component=args.component,
        client=args.client,
        kafka_version=kafka_version,
        profile=args.profile or config.profile,
        selection=selection.Selection(
            select=tuple(selection.parse(args.select) if args.select is not None else config.select),
            ignore=tuple(selection.parse(args.ignore) if args.ignore is not None else config.ignore),
            ignored_for=config.ignored_for,
            stated=(
                *[selection.Stated(s, "--select") for s in selection.parse(args.select)],
                *[selection.Stated(s, "--ignore") for s in selection.parse(args.ignore)],
                *config.stated(("per-file-ignores", *(f for f in ("select", "ignore") if getattr(args, f) is None))),
            ),
        ),
        fail_on=args.fail_on or config.fail_on or "warning",
        exit_zero=args.exit_zero,
        baseline=None if args.write_baseline else (args.baseline or config.baseline_path),
        clusters=config.clusters,
        overrides=config.overrides,
        format=args.input_format,
        base=config.base,
        params=config.params,
        config_path=config.path,
        fixes=_applicability(args) if getattr(args, "diff", False) or getattr(args, "fix", False) else (),
        limits=config.limits,
        follow_links=args.follow_links,
        ignore_unknown=args.ignore_unknown,
        unread=args.unread or config.unread or "note",
        source_lines=bool({"text", "sarif"} & {stdout_format, *(fmt for fmt, _ in outputs)}),
    )
    return Prepared(request, config, outputs, stdout_format)


def configs_request(paths: list[Path], config_file: Path | None, command: str, **fields: Any) -> Any:
    """A RunRequest that only reads configuration (recommend's and bench's): the project config's
    clusters, overrides, limits and release, as lint reads the same paths; an exit code (2) after
    saying why when the project config cannot be read."""
    from advisor import project_config
    from advisor.model.document import LoadError
    from advisor.report import session

    try:
        found = config_file or project_config.find(paths[0] if paths else Path.cwd())
        config = project_config.load(found) if found else project_config.ProjectConfig()
    except (ValueError, LoadError, OSError) as error:
        print(f"kafka-advisor {command}: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    return session.RunRequest(
        paths=tuple(paths),
        kafka_version=fields.pop("kafka_version", None) or config.kafka_version,
        clusters=config.clusters,
        overrides=config.overrides,
        base=config.base,
        limits=config.limits,
        config_path=config.path,
        **fields,
    )


def run(args: argparse.Namespace) -> int:
    prepared = prepare(args, "lint", list(args.paths))
    if isinstance(prepared, int):
        return prepared
    from advisor.cli.cluster_options import with_metrics
    from advisor.report import session

    request, named = with_metrics(args, "lint", prepared.request), [p for p in args.paths if p.is_file()]
    if isinstance(request, int):
        return request
    named += list(request.metric_files)
    if args.bootstrap_server is not None or args.snapshot is not None:  # the cluster the files are judged against
        from advisor.cli.cluster_options import read_now, target_of

        target = target_of(args, "lint")
        if isinstance(target, int):
            return target
        target = read_now(target) if args.snapshot is None else target
        request = request._replace(live=(target._replace(context_only=True),))
        named += [p for p in (args.command_config, args.snapshot) if p is not None]
    if args.unsafe_fixes and not (args.fix or args.diff):
        print("kafka-advisor lint: error: --unsafe-fixes needs --fix or --diff", file=sys.stderr)
        return EXIT_ERROR
    if args.fix and not args.diff:
        from advisor.cli.fixing import fixed

        return emit(args, "lint", prepared, fixed(request, list(args.paths), args.unsafe_fixes), named)
    return emit(args, "lint", prepared, session.run(request), named)


def write_outputs(command: str, writes: list[tuple[str, Path, Callable[[], str]]], inputs: list[Path]) -> bool:
    """Each (flag, path, text) written atomically, never over an input; False when all were written,
    True (after saying why) when one was refused or failed — the others are still written."""
    from advisor import safe_write
    from advisor.output import inert

    failed = False
    for flag, path, text in writes:
        shown = flag if flag.endswith("=") else f"{flag} "
        refused = safe_write.refusal(path, inputs)
        if refused:
            print(f"kafka-advisor {command}: error: {shown}{inert(refused)}", file=sys.stderr)
            failed = True
            continue
        try:
            safe_write.write_atomically(path, text())
        except OSError as error:
            print(f"kafka-advisor {command}: error: {shown}{inert(str(path))}: {error.strerror}", file=sys.stderr)
            failed = True
    return failed


def emit(args: argparse.Namespace, command: str, prepared: Prepared, report: Any, named: list[Path]) -> int:
    """Problems on stderr, then the report: a baseline, a diff, or each format asked for."""
    from advisor import safe_write
    from advisor.output import RenderOptions, inert, render

    config, outputs, stdout_format = prepared.config, prepared.outputs, prepared.stdout_format
    # Every file the run read, and the ones named: no output may replace any of them.
    inputs = [Path(f.path) for f in report.files] + named
    inputs += [p for p in (args.baseline, config.baseline_path, config.path) if p is not None]
    for problem in [*report.problems, *report.skipped]:
        print(f"kafka-advisor: {inert(str(problem))}", file=sys.stderr)
    if args.write_baseline:
        from advisor.report import baseline

        refused = safe_write.refusal(args.write_baseline, inputs)
        if refused:
            print(f"kafka-advisor {command}: error: --write-baseline {inert(refused)}", file=sys.stderr)
            return EXIT_ERROR
        baseline.write(args.write_baseline, report.findings)
        recorded = sum(1 for f in report.findings if not f.suppressed)
        print(f"kafka-advisor: recorded {recorded} finding(s) in {args.write_baseline}", file=sys.stderr)
        return EXIT_ERROR if report.problems else EXIT_OK
    if getattr(args, "diff", False):
        sys.stdout.write(report.diff)
        return EXIT_ERROR if report.problems else (1 if report.diff else EXIT_OK)
    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    options = RenderOptions(color=color, docs_url=args.docs_url or config.docs_url)
    rendered: dict[str, str] = {}

    def text_of(fmt: str) -> str:
        if fmt not in rendered:
            rendered[fmt] = render(report, fmt, RenderOptions(docs_url=options.docs_url))
        return rendered[fmt]

    def later(fmt: str) -> Callable[[], str]:
        return lambda: text_of(fmt)

    writes = [(f"-o {fmt}=", path, later(fmt)) for fmt, path in outputs]
    failed = write_outputs(command, writes, inputs)
    sys.stdout.write(render(report, stdout_format, options) if color else text_of(stdout_format))
    return EXIT_ERROR if failed else report.exit_code
