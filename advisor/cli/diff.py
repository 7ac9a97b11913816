"""`kafka-advisor diff OLD NEW` (or `diff --git REV PATH...`): a configuration change before it is
deployed — keys changed, effective values moved, findings introduced and resolved; exit 1 when the
change introduces a finding at --fail-on or above (docs/diff.md)."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from advisor.cli.lint import EXIT_ERROR, add_run_options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    what = "OLD NEW (two files or two folders); with --git REV, the paths as they are now"
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help=what)
    parser.add_argument("--git", metavar="REV", help="compare the paths with their state at git revision REV")
    add_run_options(parser)


def run(args: argparse.Namespace) -> int:
    from advisor.diff import git

    if args.write_baseline or args.baseline:
        print("kafka-advisor diff: error: a baseline belongs to lint (diff compares two versions)", file=sys.stderr)
        return EXIT_ERROR
    if args.git is None:
        if len(args.paths) != 2:
            print("kafka-advisor diff: error: give OLD and NEW, or --git REV and the paths", file=sys.stderr)
            return EXIT_ERROR
        return _compare(args, [args.paths[0]], [args.paths[1]])
    with tempfile.TemporaryDirectory(prefix="kafka-advisor-diff-") as folder:
        try:
            old = git.checkout(args.git, list(args.paths), Path(folder))
        except git.GitError as error:
            print(f"kafka-advisor diff: error: {error}", file=sys.stderr)
            return EXIT_ERROR
        return _compare(args, old, list(args.paths))


def _compare(args: argparse.Namespace, old_paths: list[Path], new_paths: list[Path]) -> int:
    from advisor.cli import lint
    from advisor.diff import compare
    from advisor.output import RenderOptions, inert, render
    from advisor.report import session
    from advisor.report.diff_report import DiffReport

    for path in new_paths:
        if not path.exists():
            print(f"kafka-advisor diff: error: {inert(str(path))}: no such file or folder", file=sys.stderr)
            return EXIT_ERROR
    prepared = lint.prepare(args, "diff", new_paths)
    if isinstance(prepared, int):
        return prepared
    # Both versions judged whole: a project config's baseline would hide what the change introduces.
    prepared = prepared._replace(request=prepared.request._replace(baseline=None))
    changes, introduced, resolved, problems = [], [], [], []
    new_report = None
    for old, new in zip(old_paths, new_paths, strict=True):
        old_report, old_document = session.run_with_document(prepared.request._replace(paths=(old,) if old.exists()
                                                                     else ()))  # fmt: skip
        new_report, new_document = session.run_with_document(prepared.request._replace(paths=(new,)))
        old_side, new_side = compare.sides(old, new)
        changes += compare.changes(old_document, new_document, old_side, new_side, prepared.request.kafka_version)
        added, gone = compare.introduced_and_resolved(old_report.findings, new_report.findings, old_side, new_side)
        introduced += added
        resolved += gone
        problems += new_report.problems
    assert new_report is not None
    report = DiffReport(changes, new_report._replace(findings=introduced, problems=problems), resolved)
    for problem in problems:
        print(f"kafka-advisor: {inert(str(problem))}", file=sys.stderr)
    sys.stdout.write(render(report, prepared.stdout_format, RenderOptions(docs_url=args.docs_url)))
    return report.exit_code
