"""A selector that names no rule — in --select, --ignore, the project config or a suppression
comment — is an error where it was written, with the nearest code or name (exit 2): a typo
that runs no rule must never pass a gate. Codes and names match in any case."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
PRODUCER = "bootstrap.servers=kafka-1:9092\nacks=1\n"


def lint(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "advisor", "lint", *args, "--output-format", "json"],
                          capture_output=True, text=True, cwd=cwd, timeout=60,
                          env={"PYTHONPATH": str(REPO_ROOT), "PATH": "/usr/bin:/bin"})  # fmt: skip


def found(result: subprocess.CompletedProcess[str]) -> set[str]:
    return {f["rule"] for f in json.loads(result.stdout)["findings"] if not f["suppressed"]}


@pytest.fixture
def producer(tmp_path: Path) -> Path:
    (tmp_path / "orders.producer.properties").write_text(PRODUCER)
    return tmp_path


@pytest.mark.parametrize(
    ("flag", "selector", "hint"),
    [("--select", "KP999", "did you mean"), ("--select", "acks-not-all", "did you mean producer-acks-not-all?"),
     ("--ignore", "KQ", "")],
)  # fmt: skip
def test_a_flag_naming_no_rule_is_an_error(producer: Path, flag: str, selector: str, hint: str) -> None:
    result = lint(producer, "orders.producer.properties", flag, selector)
    assert result.returncode == 2, result.stderr
    assert f"{flag}: '{selector}' names no rule" in result.stderr and hint in result.stderr
    problems = json.loads(result.stdout)["errors"]
    assert [p["path"] for p in problems] == [flag]


def test_codes_and_names_match_in_any_case(producer: Path) -> None:
    assert found(lint(producer, "orders.producer.properties", "--select", "kp101")) == {"KP101"}
    assert found(lint(producer, "orders.producer.properties", "--select", "Producer-Acks-Not-All")) == {"KP101"}
    assert "KP101" not in found(lint(producer, "orders.producer.properties", "--ignore", "kp"))
    explained = subprocess.run([sys.executable, "-m", "advisor", "explain", "kp101"], capture_output=True, text=True,
                               env={"PYTHONPATH": str(REPO_ROOT)}, timeout=60)  # fmt: skip
    assert explained.returncode == 0 and "KP101" in explained.stdout


def test_the_project_configs_selectors_are_checked_with_their_lines(producer: Path) -> None:
    (producer / ".kafka-advisor.toml").write_text(
        'select = ["KP", "KP1O1"]\n\n[per-file-ignores]\n"*.properties" = ["KB1", "no-such-rule"]\n'
    )
    result = lint(producer, "orders.producer.properties")
    assert result.returncode == 2
    assert ".kafka-advisor.toml:1: 'KP1O1' names no rule" in result.stderr
    assert ".kafka-advisor.toml:4: 'no-such-rule' names no rule" in result.stderr
    assert "'KP'" not in result.stderr and "'KB1'" not in result.stderr  # a prefix of real codes is known
    assert found(result) == {"KP101"}  # the rest of the run still happens


def test_a_suppression_naming_no_rule_is_an_error_at_its_line(producer: Path) -> None:
    (producer / "orders.producer.properties").write_text(
        "bootstrap.servers=kafka-1:9092\n# kafka-advisor: disable-next-line KP10l -- typo\nacks=1\n"
    )
    result = lint(producer, "orders.producer.properties")
    assert result.returncode == 2
    assert "orders.producer.properties:2: `disable-next-line KP10l`: 'KP10l' names no rule" in result.stderr
    assert "KP101" in found(result)  # it suppressed nothing, and says so
