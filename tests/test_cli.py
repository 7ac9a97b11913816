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
