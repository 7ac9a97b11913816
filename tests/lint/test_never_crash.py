"""One file or config set that cannot be judged never costs the others their verdicts, and
never shows an exception's text (it may quote a value from the input, which may be a secret)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from advisor.report.session import RunRequest, lint, run

REPO_ROOT = Path(__file__).resolve().parents[2]
CANARY = "canary-s3cr3t-value"


def test_a_version_older_than_the_catalog_is_judged_with_the_oldest_release_and_says_so(tmp_path: Path) -> None:
    compose = tmp_path / "docker-compose.yml"
    compose.write_text(
        "services:\n  kafka:\n    image: bitnami/kafka:2.7.0\n    environment:\n"
        '      KAFKA_CFG_UNCLEAN_LEADER_ELECTION_ENABLE: "true"\n'
    )
    producer = tmp_path / "p.producer.properties"
    producer.write_text("acks=1\n")
    sarif = tmp_path / "out.sarif"
    result = subprocess.run(
        [sys.executable, "-m", "advisor", "lint", str(tmp_path), "--output-format", "json", "-o", f"sarif={sarif}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1, result.stderr  # findings, no error: nothing went wrong
    report = json.loads(result.stdout)
    (unclean,) = [f for f in report["findings"] if f["rule"] == "KB103"]
    assert unclean["assumptions"] == [
        "judged as Kafka 2.8.2, the oldest release the catalog knows: image bitnami/kafka:2.7.0 names Kafka 2.7.0"
    ]
    assert any(f["rule"] == "KP101" for f in report["findings"])  # the other file as ever
    assert json.loads(sarif.read_text())["runs"][0]["results"]


def test_a_bug_in_a_loader_is_a_problem_of_that_file_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from advisor.sources import compose

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError(f"cannot handle {CANARY}")

    monkeypatch.setattr(compose, "load", broken)
    (tmp_path / "docker-compose.yml").write_text("services:\n  kafka:\n    image: apache/kafka:4.0.0\n")
    (tmp_path / "p.producer.properties").write_text("acks=1\n")
    report = run(RunRequest(paths=(tmp_path,)))
    (problem,) = report.problems
    assert (problem.path, problem.kind) == (str(tmp_path / "docker-compose.yml"), "internal")
    assert "RuntimeError" in problem.message and CANARY not in json.dumps(report.to_dict())
    assert [f.rule for f in report.findings] == ["KP101"] and report.exit_code == 2


def test_a_bug_in_a_check_is_a_problem_of_that_config_set_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from advisor.rules import checks, registry

    checks.load("security:plaintext_secret")

    def broken(values: object, config_set: object) -> list:
        raise KeyError(CANARY)

    monkeypatch.setitem(registry.PYTHON_CHECKS, "security:plaintext_secret", broken)
    (tmp_path / "a.producer.properties").write_text("acks=1\n")
    (tmp_path / "server.properties").write_text(
        "process.roles=broker\nnode.id=1\nunclean.leader.election.enable=true\n"
    )
    report = run(RunRequest(paths=(tmp_path,)))
    assert {p.kind for p in report.problems} == {"internal"} and len(report.problems) == 2  # both sets hit it
    assert all("KeyError" in p.message for p in report.problems)
    assert CANARY not in json.dumps(report.to_dict())
    assert report.findings == []  # a set judged in part gives no findings: they could be misleading


_LAUGHS = "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 9) if prev else ', '.join(['x'] * 9)}]\n"
    for prev, name in zip(["", "a", "b", "c", "d", "e", "f", "g"], "abcdefgh", strict=True)
)  # 9**8 = 43 million nodes once expanded, in about 250 bytes


@pytest.mark.parametrize(
    ("name", "body"),
    [
        ("docker-compose.yml", "services:\n  kafka:\n    image: apache/kafka:3.9.0\n    environment:\n      X: *h\n"),
        ("application.yml", "spring:\n  kafka:\n    producer:\n      properties: *h\n"),
        (
            "kafka.yaml",
            "apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata: {name: k}\nspec:\n  kafka:\n"
            "    config: {x: *h}\n",
        ),
        ("values.yaml", "controller:\n  replicaCount: 3\nextraEnvVars: *h\n"),
        ("client.yaml", "bootstrap.servers: k:9092\nacks: all\nextra: *h\n"),
    ],
)
def test_a_yaml_alias_bomb_is_refused_at_once_and_the_other_files_are_linted(
    name: str, body: str, tmp_path: Path
) -> None:
    bomb = tmp_path / name
    bomb.write_text(_LAUGHS + body)
    other = tmp_path / "app.producer.properties"
    other.write_text("acks=1\n")
    started = time.monotonic()
    result = lint([bomb, other])
    assert time.monotonic() - started < 10
    (problem,) = result.document.errors
    assert problem.path == str(bomb) and "alias bomb" in problem.message
    assert [f.rule for f in result.findings if f.path == str(other)] == ["KP101"]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("services: &s\n  kafka: *s\n", "contains it"),  # a recursive alias
        ("services:\n  x: " + "[" * 300 + "]" * 300 + "\n", "deeper than"),
    ],
)
def test_recursive_aliases_and_deep_nesting_are_load_errors(text: str, said: str, tmp_path: Path) -> None:
    path = tmp_path / "docker-compose.yml"
    path.write_text(text)
    (problem,) = lint([path]).document.errors
    assert said in problem.message and problem.kind == "input"


def test_deeply_nested_toml_is_a_load_error_not_an_internal_one(tmp_path: Path) -> None:
    config = tmp_path / "client.toml"
    config.write_text("a = " + "[" * 3000 + "]" * 3000 + "\n")
    (problem,) = lint([config]).document.errors
    assert problem.kind == "input" and "nested too deeply" in problem.message


COMPOSE = (
    "services:\n  kafka:\n    image: apache/kafka:3.9.0\n    environment:\n      KAFKA_NODE_ID: 1\n"
    '      KAFKA_UNCLEAN_LEADER_ELECTION_ENABLE: "true"\n'
)


def test_utf8_with_a_bom_and_utf16_are_read_like_utf8_and_other_bytes_are_said(tmp_path: Path) -> None:
    plain, bom, utf16, binary = (tmp_path / f"{n}.yml" for n in ("plain", "bom", "utf16", "binary"))
    plain.write_text(COMPOSE)
    bom.write_bytes(b"\xef\xbb\xbf" + COMPOSE.encode())
    utf16.write_bytes(COMPOSE.encode("utf-16"))
    binary.write_bytes(b"services:\n  \xff\xfe\x00kafka: 1\n")

    def found(path: Path) -> set[tuple[str, int]]:
        return {(f.rule, f.line) for f in lint([path]).findings}

    assert found(bom) == found(utf16) == found(plain) and ("KB103", 6) in found(plain)
    (problem,) = lint([binary]).document.errors
    assert problem.kind == "input" and "undecodable byte at offset 12" in problem.message
    walked = run(RunRequest(paths=(tmp_path,)))
    assert not walked.problems  # a folder's undecodable file is skipped and said, not an error
    assert [s.message for s in walked.skipped if s.path == str(binary)] == [
        "skipped: not UTF-8 or UTF-16 text (undecodable byte at offset 12)"
    ]


def test_paths_that_are_not_files_are_said_for_what_they_are(tmp_path: Path) -> None:
    import os

    config = tmp_path / "app.producer.properties"
    config.write_text("acks=1\n")
    fifo = tmp_path / "pipe.properties"
    os.mkfifo(fifo)
    (tmp_path / "loop-a").symlink_to(tmp_path / "loop-b")
    (tmp_path / "loop-b").symlink_to(tmp_path / "loop-a")
    report = run(RunRequest(paths=(config, fifo, tmp_path / "loop-a"), baseline=tmp_path))
    said = {Path(p.path).name: (p.kind, p.message) for p in report.problems}
    assert said["pipe.properties"] == ("missing", "not a regular file (a pipe, a device or a socket): not read")
    assert said["loop-a"] == ("missing", "a link to nothing (broken, or a loop of links)")
    assert said[tmp_path.name][1] == "baseline file cannot be read: Is a directory"
    assert [f.rule for f in report.findings] == ["KP101"]  # the readable file is still judged


def test_an_escaped_bug_is_named_by_type_and_place_never_by_its_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The last net (cli.main): an exception's text may quote a value from the input."""
    from advisor import cli
    from advisor.report import session

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError(f"cannot handle {CANARY}")

    monkeypatch.setattr(session, "run", broken)
    (tmp_path / "p.producer.properties").write_text("acks=1\n")
    assert cli.main(["lint", str(tmp_path / "p.producer.properties")]) == 2
    printed = capsys.readouterr().err
    assert "internal error: RuntimeError at test_never_crash.py:" in printed and CANARY not in printed


@pytest.mark.parametrize(
    ("move", "said"),
    [
        ('{"topic": ["orders"], "partition": 0, "replicas": [1, 2]}', ":3: each move needs a topic name"),
        ('{"topic": "orders", "partition": 1e400, "replicas": [1, 2]}', ":3: each move needs a partition"),
        ('{"topic": "orders", "partition": -1, "replicas": [1, 2]}', ":3: each move needs a partition"),
        ('{"topic": "orders", "partition": 0, "replicas": [1, 99999999999]}', ":3: replicas must be a list"),
        ('{"topic": "orders", "partition": 0, "replicas": [1.5, null]}', ":3: replicas must be a list"),
        ('{"topic": "orders", "partition": 0, "replicas": {"a": 1}}', ":3: replicas must be a list"),
    ],
)
def test_a_plan_of_wrong_json_types_is_an_input_problem_at_its_line(tmp_path: Path, move: str, said: str) -> None:
    plan = tmp_path / "reassignment.json"
    plan.write_text('{"version": 1,\n "partitions": [\n  ' + move + "\n ]\n}\n")
    good = tmp_path / "orders.producer.properties"
    good.write_text("bootstrap.servers=kafka-1:9092\nacks=1\n")
    report = run(RunRequest(paths=(plan, good)))
    (problem,) = report.problems  # no internal error: the plan's line and what is wrong there
    assert problem.kind == "input" and str(problem).startswith(f"{plan}{said}")
    assert any(f.rule == "KP101" for f in report.findings)  # the other file is still judged
    assert report.exit_code == 2


def test_a_heap_flag_of_thousands_of_digits_is_judged_not_converted(tmp_path: Path) -> None:
    """Python refuses to make an int of more than 4,300 digits; the JVM refuses such a heap: KB138 says so."""
    script = tmp_path / "start.sh"
    script.write_text(
        f'#!/bin/sh\nexport KAFKA_HEAP_OPTS="-Xms1g -Xmx{"9" * 5000}g"\nexec kafka-server-start.sh s.properties\n'
    )
    report = run(RunRequest(paths=(script,)))
    assert not report.problems
    (finding,) = report.findings
    assert finding.rule == "KB138" and finding.line == 2 and "(5005 characters)" in finding.message
