"""What docker compose reads beside a compose file: the project's `.env` for ${VAR} interpolation
(never a broker of its own) and each service's `env_file:` (the service's variables, below its
`environment:`), bounded to the project and never silent when one is not read."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.report.session import lint
from advisor.sources.compose import interpolate

VARIABLES = {"TAG": "3.7.1", "EMPTY": ""}


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("apache/kafka:${TAG}", "apache/kafka:3.7.1"),
        ("apache/kafka:$TAG", "apache/kafka:3.7.1"),
        ("${UNSET:-4.0.0}", "4.0.0"),
        ("${EMPTY:-fallback}", "fallback"),  # `:-` also covers set-but-empty
        ("${EMPTY-fallback}", ""),  # `-` only unset
        ("${TAG:+pinned}", "pinned"),
        ("${UNSET:+pinned}", ""),
        ("${UNSET}", "${UNSET}"),  # the shell may set it: left a template
        ("cost: $$5", "cost: $5"),
        ("${UNSET:?must be set}", "${UNSET:?must be set}"),
    ],
)
def test_interpolation_follows_compose(written: str, expected: str) -> None:
    assert interpolate(written, VARIABLES) == expected


COMPOSE = """services:
  kafka:
    image: apache/kafka:${KAFKA_TAG:-4.0.0}
    env_file:
      - ./broker.env
    environment:
      KAFKA_NODE_ID: 1
      KAFKA_HEAP_OPTS: ${HEAP}
      KAFKA_MIN_INSYNC_REPLICAS: 2
"""
BROKER_ENV = """KAFKA_PROCESS_ROLES=broker,controller
KAFKA_CONTROLLER_QUORUM_VOTERS=1@kafka:9093
KAFKA_UNCLEAN_LEADER_ELECTION_ENABLE=true
KAFKA_MIN_INSYNC_REPLICAS=1
"""


def test_env_file_and_dot_env_are_read_as_compose_reads_them(tmp_path: Path) -> None:
    folder = tmp_path / "stack"
    folder.mkdir()
    (folder / ".env").write_text("KAFKA_TAG=3.7.1\nHEAP=-Xms10g -Xmx10g\n")
    (folder / "broker.env").write_text(BROKER_ENV)
    (folder / "stack.yml").write_text(COMPOSE)
    result = lint([folder / "stack.yml", folder / "broker.env", folder / ".env"])
    # one broker: the env files are part of the service, not brokers of their own
    (broker,) = result.document.config_sets
    assert broker.kafka_version == "3.7.1" and broker.kafka_version_from == "image apache/kafka:3.7.1"
    assert broker.settings["min.insync.replicas"].value == "2"  # environment: wins over env_file:
    assert broker.facts["jvm"]["KAFKA_HEAP_OPTS"]["value"] == "-Xms10g -Xmx10g"
    unclean = next(f for f in result.findings if f.rule == "KB103")
    assert (unclean.path, unclean.line) == (str(folder / "broker.env"), 3)  # where the value is written
    assert {f.rule for f in result.findings} >= {"KB103", "KB107"}


def test_a_folder_walk_reads_the_stack_once_and_skips_nothing_it_read(tmp_path: Path) -> None:
    folder = tmp_path / "stack"
    folder.mkdir()
    (folder / ".env").write_text("KAFKA_TAG=3.7.1\n")
    (folder / "broker.env").write_text(BROKER_ENV)
    with_missing = COMPOSE.replace("      - ./broker.env\n", "      - ./broker.env\n      - gone.env\n")
    (folder / "stack.yml").write_text(with_missing)
    run = subprocess.run(
        [sys.executable, "-m", "advisor", "lint", str(folder), "--output-format", "json"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    report = json.loads(run.stdout)
    assert run.returncode == 1, run.stderr  # findings; a missing env_file is a note, not an error
    assert [s["message"] for s in report["skipped"]] == [
        "env_file gone.env of service kafka was not read (missing, too large, unreadable, or outside the project):"
        " its variables are not judged"
    ]
    assert len([f for f in report["findings"] if f["rule"] == "KB103"]) == 1


def test_an_env_file_outside_the_project_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere" / "secret.env"
    outside.parent.mkdir()
    outside.write_text("KAFKA_UNCLEAN_LEADER_ELECTION_ENABLE=true\n")
    project = tmp_path / "project"
    project.mkdir()
    compose = project / "stack.yml"
    compose.write_text(COMPOSE.replace("./broker.env", f"{outside}"))
    cwd = Path.cwd()
    os.chdir(project)  # the working directory is the project: elsewhere/ is beyond it
    try:
        result = lint([compose])
    finally:
        os.chdir(cwd)
    assert "KB103" not in {f.rule for f in result.findings}
    assert [n.message.split(" of ")[0] for n in result.document.notes] == [f"env_file {outside}"]


def test_env_files_that_do_not_decode_are_not_read_and_said(tmp_path: Path) -> None:
    """A project .env and an env_file of bytes that are no text: the compose file is still
    judged (without them), the required env_file said — never an internal error."""
    folder = tmp_path / "stack"
    folder.mkdir()
    (folder / ".env").write_bytes(b"KAFKA_TAG=\xff\xfe\x00bad\n")
    (folder / "broker.env").write_bytes(b"KAFKA_MIN_INSYNC_REPLICAS=\x80\x81\n")
    (folder / "stack.yml").write_text(COMPOSE)
    result = lint([folder / "stack.yml"])
    assert not result.document.errors
    (note,) = result.document.notes
    assert note.message.startswith("env_file ./broker.env of service kafka was not read")
    assert result.document.config_sets  # the broker is judged from what could be read
