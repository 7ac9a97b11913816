"""`kafka-advisor advise [PATH|URL...] [--metrics FILE|URL...] [--profile-file F]`: one guided
session from the inputs to a plan (docs/advise.md).

Reads and judges what lint and analyze read (one session), infers what it can of the load
profile, asks — in a terminal — for the goal and the four numbers it was not given, pre-filled
with what the inputs say, then shows health now, the flow view, the plan as single steps with
the edit of each file, and the command that checks each step. Without a terminal (CI, a pipe,
`--no-input`) it never waits: it uses what was given and says what was assumed.
Exit codes as lint's: 0, 1 for findings at or above --fail-on, 2 for an input error; 130 when
the questions are interrupted (Ctrl-C, end of input), with nothing written.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from advisor.cli import analyze
from advisor.cli.recommend import FIELDS

EXIT_INTERRUPTED = 130


def add_arguments(parser: argparse.ArgumentParser) -> None:
    analyze.add_arguments(parser)  # inputs, metrics options and the run options lint and analyze share
    parser.set_defaults(output_format=None)
    parser.add_argument("--metrics", action="append", default=[], metavar="FILE|URL",
                        help="a metrics file or exporter endpoint (repeatable; positional inputs are split by "
                        "content too)")  # fmt: skip
    parser.add_argument("--profile-file", metavar="FILE", help="a load profile (JSON or YAML; docs/recommend.md)")
    parser.add_argument("--goal", choices=("throughput", "latency", "durability", "availability", "balanced"))
    for flag, field, kind, text in FIELDS:
        parser.add_argument(flag, dest=field, type=kind, help=text)
    parser.add_argument("--loss", choices=("none", "some"), help="may acknowledged records be lost?")
    parser.add_argument("--ordering", choices=("per-key", "none"), help="must a key's records stay ordered?")
    parser.add_argument("--transactions", action="store_true", default=None, help="producers write in transactions")
    parser.add_argument("--no-input", action="store_true", help="never ask: use what is given and say what is assumed")
    parser.add_argument(
        "--html", type=Path, metavar="FILE", help="also write the report as one self-contained HTML file"
    )
    parser.add_argument("--alerts", type=Path, metavar="FILE",
                        help="also write Prometheus alerting rules for the metrics the plan relies on")  # fmt: skip
    parser.add_argument("--alerts-format", choices=("rules", "prometheusrule"), default="rules",
                        help="a rules file (default) or a Kubernetes PrometheusRule")  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from advisor.advise import advice as advising
    from advisor.output import inert

    if args.output_format not in (None, "text", "json"):
        print("kafka-advisor advise: error: --output-format is text or json", file=sys.stderr)
        return 2
    given = _given(args)
    if isinstance(given, int):
        return given
    built = analyze.prepare(args, "advise", tuple(args.metrics), need_metrics=False)
    if isinstance(built, int):
        return built
    prepared, named = built
    prepared = prepared._replace(request=prepared.request._replace(source_lines=True))  # every report shows them
    gathered = advising.gather(prepared.request)
    for problem in [*gathered.report.problems, *gathered.report.skipped]:
        print(f"kafka-advisor: {inert(str(problem))}", file=sys.stderr)
    # A closed stdin (`<&-`) is None: no terminal to ask on, as a pipe or CI.
    interactive = not args.no_input and all(s is not None and s.isatty() for s in (sys.stdin, sys.stdout))
    if interactive:
        from advisor.cli import advise_prompts

        try:
            given = advise_prompts.ask(gathered, given, input, print)
        except (KeyboardInterrupt, EOFError):
            print("\nkafka-advisor advise: stopped; nothing written", file=sys.stderr)
            return EXIT_INTERRUPTED
    result = advising.advise(gathered, given, args.client, interactive)
    return _emit(args, prepared, result, named)


def _given(args: argparse.Namespace) -> dict[str, Any] | int:
    """The profile fields given by the project config's [load], --profile-file and the flags."""
    from pydantic import ValidationError

    from advisor import project_config
    from advisor.model.document import LoadError
    from advisor.recommend import load_file
    from advisor.recommend.profile import LoadProfile

    flags = {field: getattr(args, field) for _, field, _, _ in FIELDS if getattr(args, field) is not None}
    for name in ("goal", "loss", "ordering", "transactions"):
        if getattr(args, name) is not None:
            flags[name] = getattr(args, name)
    try:
        found = args.config or project_config.find(Path.cwd())
        config = project_config.load(found) if found else None
        fields, where = load_file.gather(args.profile_file, flags, config)
        LoadProfile.model_validate(fields)
    except (load_file.ProfileError, LoadError, ValueError, OSError) as error:
        if isinstance(error, ValidationError):
            for problem in error.errors():
                name = ".".join(str(part) for part in problem["loc"])
                said = f"{where[name]}: {name}" if name in where else name or "profile"
                print(f"kafka-advisor advise: error: {said}: {problem['msg']}", file=sys.stderr)
        else:
            print(f"kafka-advisor advise: error: {error}", file=sys.stderr)
        return 2
    return dict(fields)


def _emit(args: argparse.Namespace, prepared: Any, result: Any, named: list[Path]) -> int:
    """The report on stdout; the lint formats (-o), the HTML and the alerts file where asked,
    never over an input."""
    from advisor.cli.lint import write_outputs
    from advisor.output import RenderOptions, render

    report = result.report
    inputs = [Path(f.path) for f in report.files if not str(f.path).startswith(("http://", "https://"))] + named
    inputs += [p for p in (args.baseline, prepared.config.baseline_path, prepared.config.path) if p is not None]
    if args.profile_file:
        inputs.append(Path(args.profile_file))

    def lint_format(fmt: str) -> Callable[[], str]:
        return lambda: render(report, fmt, RenderOptions(docs_url=args.docs_url))

    writes: list[tuple[str, Path, Callable[[], str]]] = [(f"-o {f}", p, lint_format(f)) for f, p in prepared.outputs]
    if args.html:
        writes.append(("--html", args.html, lambda: render(result, "html")))
    if args.alerts:
        kind = "alerts" if args.alerts_format == "rules" else "prometheusrule"
        writes.append(("--alerts", args.alerts, lambda: render(result, kind)))
    failed = write_outputs("advise", writes, inputs)
    sys.stdout.write(render(result, args.output_format or "text"))
    return 2 if failed else result.exit_code
