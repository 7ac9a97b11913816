"""`kafka-advisor init [FOLDER]`: write a commented project config for a repository as it is —
formats read, clusters found, the Kafka release the files name — and today's findings as a
baseline (docs/init.md). Nothing is ever written over: an existing config or baseline is refused."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", nargs="?", type=Path, default=Path("."), help="the repository (default: .)")
    parser.add_argument("--pyproject", action="store_true",
                        help="write a [tool.kafka-advisor] table into the folder's pyproject.toml instead")  # fmt: skip
    parser.add_argument("--no-baseline", action="store_true", help="do not record today's findings as a baseline")
    parser.add_argument("--stdout", action="store_true", help="print the config instead of writing anything")


def run(args: argparse.Namespace) -> int:
    import datetime

    from advisor import project_config, project_init, safe_write
    from advisor.catalog.lookup import releases
    from advisor.output import inert
    from advisor.report import baseline as baselines
    from advisor.report.session import RunRequest, run_with_document

    root: Path = args.folder
    if not root.is_dir():
        print(f"kafka-advisor init: error: {inert(str(root))} is not a folder", file=sys.stderr)
        return 2
    target = root / ("pyproject.toml" if args.pyproject else project_init.CONFIG_NAME)
    existing = project_config.find(root.resolve())
    if not args.stdout:
        if args.pyproject and target.exists() and "[tool.kafka-advisor" in target.read_text(encoding="utf-8"):
            print(f"kafka-advisor init: error: {inert(str(target))} already has [tool.kafka-advisor]", file=sys.stderr)
            return 2
        if not args.pyproject and target.exists():
            print(f"kafka-advisor init: error: {inert(str(target))} exists; nothing was written", file=sys.stderr)
            return 2
    report, document = run_with_document(RunRequest(paths=(root,), source_lines=False))
    for problem in report.problems:
        print(f"kafka-advisor: {inert(str(problem))}", file=sys.stderr)
    found = project_init.survey(root, report, document, releases()[-1])
    baseline = None
    if not args.no_baseline and sum(found.findings.values()):
        baseline = project_init.BASELINE_NAME
        path = root / baseline
        if not args.stdout:
            refused = "exists; nothing was written" if path.exists() else safe_write.refusal(path, [])
            if refused:
                print(f"kafka-advisor init: error: {inert(str(path))}: {inert(refused)}", file=sys.stderr)
                return 2
    text = project_init.render(found, baseline, datetime.date.today().isoformat())
    if existing is not None and existing.parent.resolve() != root.resolve():
        text = f"# Note: {existing} is above this folder; the closest config wins, so this one will.\n" + text
    if args.stdout:
        sys.stdout.write(text)
        return 0
    if baseline is not None:
        baselines.write(root / baseline, report.findings)
    if args.pyproject:
        table = "[tool.kafka-advisor]\n" + _nested(text)
        before = target.read_text(encoding="utf-8") if target.exists() else ""
        safe_write.write_atomically(target, before + ("\n" if before and not before.endswith("\n\n") else "") + table)
    else:
        safe_write.write_atomically(target, text)
    recorded = f", {sum(found.findings.values())} finding(s) in {root / baseline}" if baseline else ""
    print(f"kafka-advisor: wrote {target}{recorded}", file=sys.stderr)
    return 0


def _nested(text: str) -> str:
    """The config's tables under [tool.kafka-advisor] (its [clusters.X] become [tool.kafka-advisor.clusters.X])."""
    return "".join(line.replace("[clusters.", "[tool.kafka-advisor.clusters.", 1) if line.startswith("[clusters.")
                   else line for line in text.splitlines(keepends=True))  # fmt: skip
