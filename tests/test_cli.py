from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from advisor import __version__
from advisor.cli import main
from advisor.cli.registry import COMMANDS

REPO_ROOT = Path(__file__).resolve().parent.parent
DEMO = REPO_ROOT / "fixtures" / "demo"
HEAVY = ("confluent_kafka", "kafka", "pydantic", "rich", "ruamel", "jmespath")


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "advisor", *args], capture_output=True, text=True, cwd=REPO_ROOT, timeout=60
    )


def imported_top_level_modules(*argv: str) -> set[str]:
    """Run the CLI in a fresh interpreter and return the top-level modules it imported."""
    code = (
        "import json, sys\n"
        "from advisor.cli import main\n"
        "try:\n"
        f"    main({list(argv)!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "sys.stdout = sys.__stdout__\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT, timeout=60)
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout.strip().splitlines()[-1]))


def test_version_prints_package_version() -> None:
    result = run_cli("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"kafka-advisor {__version__}"


def test_help_lists_every_registered_command() -> None:
    result = run_cli("--help")
    assert result.returncode == 0
    for command in COMMANDS:
        assert command.name in result.stdout


@pytest.mark.parametrize("argv", [[], ["no-such-command"], ["lint"], ["lint", "--no-such-flag", "x"]])
def test_usage_errors_go_to_stderr_with_exit_2(argv: list[str]) -> None:
    result = run_cli(*argv)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "error" in result.stderr


def test_version_imports_no_heavy_library() -> None:
    loaded = imported_top_level_modules("--version")
    assert not loaded & set(HEAVY), f"--version imported {sorted(loaded & set(HEAVY))}"


def test_one_file_lint_does_not_import_the_kafka_clients() -> None:
    loaded = imported_top_level_modules("lint", str(DEMO / "server.properties"))
    assert "advisor" in loaded
    assert not loaded & {"confluent_kafka", "kafka"}


def test_lint_reports_missing_paths_and_still_reads_the_others(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["lint", "does/not/exist.properties", str(DEMO / "server.properties")])
    captured = capsys.readouterr()
    assert code == 2
    assert "does/not/exist.properties: no such file or directory" in captured.err
    assert "server.properties" in captured.out


def test_lint_walks_a_directory(capsys: pytest.CaptureFixture[str]) -> None:
    from advisor.sources import discover

    readable = discover([DEMO])[0]
    assert readable, "fixtures/demo must hold sample configurations"
    assert main(["lint", str(DEMO)]) == 1  # the demo has warnings
    out = capsys.readouterr().out
    assert f"{len(readable)} file(s) checked" in out
    assert str(DEMO / "server.properties") in out


def test_a_reader_that_leaves_early_ends_the_run_quietly_with_exit_2() -> None:
    """`kafka-advisor lint . | head`: the closed pipe is no traceback, and the run ends without the
    interpreter's teardown yet with its exit code (the console script's entry point)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "advisor", "lint", "fixtures/realworld", "--output-format", "json"],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # before the report (145 kB, more than a pipe holds) is written
    errors = process.stderr.read().decode()
    assert process.wait(timeout=60) == 2
    assert "Traceback" not in errors and "Exception ignored" not in errors, errors[-2000:]


def test_the_entry_point_exits_with_the_command_s_code_and_all_of_its_output(tmp_path: Path) -> None:
    """The report is flushed before the process ends without teardown: every byte, and the exit code."""
    report = tmp_path / "report.json"
    result = run_cli("lint", str(DEMO), "--output-format", "json", "-o", f"json={report}")
    assert result.returncode == 1
    assert json.loads(result.stdout) == json.loads(report.read_text())


def test_a_one_file_lint_imports_nothing_only_writes_or_suggestions_need() -> None:
    """tempfile (with shutil, random, bz2, lzma) is for writing files, difflib for "did you mean"
    and dataclasses (with inspect, ast, dis) for records defined elsewhere (advisor/model/record.py);
    typing is for type checkers (advisor.TYPE_CHECKING): a clean one-file lint pays for none of
    them at start-up."""
    unwanted = {"tempfile", "shutil", "random", "difflib", "bz2", "lzma", "dataclasses", "inspect", "ast", "dis",
                "typing", "pickle"}  # fmt: skip
    for demo in ("producer.properties", "docker-compose.yml"):  # a compose file's brokers run the broker checks
        loaded = imported_top_level_modules("lint", str(DEMO / demo))
        assert not loaded & unwanted, (demo, sorted(loaded & unwanted))


@pytest.mark.parametrize("columns", ["50", "100"])
def test_help_is_wrapped_to_the_terminal_as_argparse_wraps_it(columns: str, monkeypatch) -> None:
    import argparse

    from advisor.cli import build_parser

    monkeypatch.setenv("COLUMNS", columns)
    ours = build_parser("lint")
    theirs = build_parser("lint")
    (commands,) = [a for a in theirs._actions if isinstance(a, argparse._SubParsersAction)]
    for parser in (theirs, *commands.choices.values()):
        parser.formatter_class = argparse.HelpFormatter
    (our_commands,) = [a for a in ours._actions if isinstance(a, argparse._SubParsersAction)]
    assert ours.format_help() == theirs.format_help()
    assert our_commands.choices["lint"].format_help() == commands.choices["lint"].format_help()
    assert max(map(len, our_commands.choices["lint"].format_help().splitlines())) > int(columns) // 2


def test_the_readme_counts_the_configuration_rules_there_are() -> None:
    """The README's figure is a claim: the rules judging files (not metrics, not a running cluster)."""
    import re

    from advisor.rules.registry import load_rules

    judged_files = [r for r in load_rules() if r.definition.scope != "entity" and not r.definition.live]
    readme = (REPO_ROOT / "README.md").read_text()
    (said,) = re.findall(r"with (\d+) configuration rules", readme)
    assert int(said) == len([r for r in judged_files if r.definition.id.startswith("K")])
    (camunda,) = re.findall(r"(\d+) rules of the Camunda pack", readme)
    assert int(camunda) == len([r for r in judged_files if r.definition.id.startswith("Z")])
