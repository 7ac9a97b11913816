"""`kafka-advisor diff`: a change compared before it is deployed — written keys, effective values a
new release moves without a written change, findings introduced and resolved, exit 1 when the
change introduces one at --fail-on; folders, git revisions, every output; secrets never shown."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BROKER = (
    "process.roles=broker,controller\nnode.id=1\ncontroller.quorum.voters=1@kafka-1:9093\n"
    "listeners=PLAINTEXT://:9092,CONTROLLER://:9093\ncontroller.listener.names=CONTROLLER\n"
)
SECRET = "s3cr3t-never-shown"


def diff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "advisor", "diff", *args], capture_output=True, text=True,
                          timeout=120)  # fmt: skip


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_an_upgrade_moves_defaults_the_text_never_mentions(tmp_path: Path) -> None:
    old = write(tmp_path / "old" / "server.properties", BROKER + "# kafka-advisor: kafka-version=3.9\n")
    new = write(tmp_path / "new" / "server.properties", BROKER + "# kafka-advisor: kafka-version=4.0\n")
    result = diff(str(old), str(new), "--output-format", "json")
    assert result.returncode == 0, result.stderr
    effective = {c["key"]: (c["old"], c["new"]) for c in json.loads(result.stdout)["changes"]
                 if c["kind"] == "effective"}  # fmt: skip
    assert effective["num.recovery.threads.per.data.dir"] == ("1", "2")  # Kafka 4.0's new default
    producer_old = write(tmp_path / "old" / "producer.properties", "acks=all\n# kafka-advisor: kafka-version=3.9\n")
    producer_new = write(tmp_path / "new" / "producer.properties", "acks=all\n# kafka-advisor: kafka-version=4.0\n")
    moved = json.loads(diff(str(producer_old), str(producer_new), "--output-format", "json").stdout)["changes"]
    assert {"key": "linger.ms", "old": "0", "new": "5"}.items() <= next(
        c for c in moved if c["key"] == "linger.ms"
    ).items()


def test_a_change_that_introduces_a_warning_exits_1_and_says_which(tmp_path: Path) -> None:
    old = write(tmp_path / "a" / "server.properties", BROKER + "unclean.leader.election.enable=false\n")
    new = write(tmp_path / "b" / "server.properties", BROKER + "unclean.leader.election.enable=true\n"
                f"ssl.keystore.password={SECRET}\n")  # fmt: skip
    result = diff(str(old), str(new))
    assert result.returncode == 1, result.stderr
    assert "changed   unclean.leader.election.enable: false → true" in result.stdout
    assert "Introduced by the change: 2 finding(s)" in result.stdout and "KB103" in result.stdout
    assert SECRET not in result.stdout + result.stderr
    back = diff(str(new), str(old), "--output-format", "json")  # the reverse change resolves them
    assert back.returncode == 0, back.stderr
    undone = json.loads(back.stdout)
    assert undone["introduced"] == [] and {f["rule"] for f in undone["resolved"]} >= {"KB103"}
    assert SECRET not in back.stdout


def test_folders_pair_files_by_their_place_and_count_added_and_removed_files(tmp_path: Path) -> None:
    write(tmp_path / "v1" / "brokers" / "kafka-1.properties", BROKER + "num.io.threads=8\n")
    write(tmp_path / "v1" / "clients" / "gone.properties", "acks=all\nlinger.ms=5\n")
    write(tmp_path / "v2" / "brokers" / "kafka-1.properties", BROKER + "num.io.threads=16\n")
    write(tmp_path / "v2" / "clients" / "new.properties", "acks=1\n")
    result = diff(str(tmp_path / "v1"), str(tmp_path / "v2"), "--output-format", "json")
    changes = json.loads(result.stdout)["changes"]
    by = {(c["path"], c["kind"], c["key"]) for c in changes}
    assert ("brokers/kafka-1.properties", "changed", "num.io.threads") in by
    assert ("clients/gone.properties", "removed", "linger.ms") in by
    assert ("clients/new.properties", "added", "acks") in by
    assert result.returncode == 1  # acks=1 is a warning the change brings


def _rules_reported(fmt: str, text: str) -> set[str]:
    """The rules a report's findings name (not the rule metadata SARIF carries alongside)."""
    if fmt == "sarif":
        return {result["ruleId"] for result in json.loads(text)["runs"][0]["results"]}
    if fmt == "github":
        import re

        return set(re.findall(r"^::\w+ .*?title=(K[A-Z]\d+) ", text, flags=re.MULTILINE))
    import xml.etree.ElementTree as ElementTree

    root = ElementTree.fromstring(text)
    return {case.get("name", "").split()[0] for case in root.iter("testcase") if case.find("failure") is not None}


@pytest.mark.parametrize("fmt", ["sarif", "junit", "github"])
def test_ci_formats_carry_only_what_the_change_introduces(tmp_path: Path, fmt: str) -> None:
    old = write(tmp_path / "old" / "producer.properties", "acks=1\n")
    new = write(tmp_path / "new" / "producer.properties", "acks=1\nretries=0\n")
    before = subprocess.run([sys.executable, "-m", "advisor", "lint", str(new), "--output-format", fmt],
                            capture_output=True, text=True, timeout=120).stdout  # fmt: skip
    result = diff(str(old), str(new), "--output-format", fmt)
    assert result.returncode == 1, result.stderr
    everything, introduced = _rules_reported(fmt, before), _rules_reported(fmt, result.stdout)
    assert "KP101" in everything and "KP101" not in introduced  # acks=1 was there before the change
    assert introduced and introduced < everything, (everything, introduced)


@pytest.mark.skipif(shutil.which("git") is None, reason="no git on this machine")
def test_a_git_revision_is_the_old_side(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    config = write(repo / "kafka" / "producer.properties", "acks=all\nlinger.ms=5\n")

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, timeout=60)

    git("init", "-q")
    git("-c", "user.email=t@example.invalid", "-c", "user.name=t", "add", ".")
    git("-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-qm", "one")
    config.write_text("acks=1\nlinger.ms=20\n")
    result = diff("--git", "HEAD", str(repo / "kafka"), "--output-format", "json")
    assert result.returncode == 1, result.stderr
    kinds = {(c["key"], c["old"], c["new"]) for c in json.loads(result.stdout)["changes"]}
    assert ("acks", "all", "1") in kinds and ("linger.ms", "5", "20") in kinds
    assert config.read_text() == "acks=1\nlinger.ms=20\n"  # the working tree untouched
    bad = diff("--git", "no-such-revision", str(repo / "kafka"))
    assert bad.returncode == 2 and "no-such-revision" in bad.stderr and "Traceback" not in bad.stderr
    option = diff("--git=--output=/tmp/x", str(repo / "kafka"))
    assert option.returncode == 2 and "not a revision" in option.stderr


def test_wrong_arguments_are_usage_errors(tmp_path: Path) -> None:
    only = write(tmp_path / "a.properties", "acks=all\n")
    assert diff(str(only)).returncode == 2
    missing = diff(str(only), str(tmp_path / "nope.properties"))
    assert missing.returncode == 2 and "no such file" in missing.stderr


def test_two_files_of_different_names_are_one_config_compared(tmp_path: Path) -> None:
    old = write(tmp_path / "producer.properties.orig", "acks=1\nlinger.ms=5\n")
    new = write(tmp_path / "producer.properties", "acks=1\nlinger.ms=20\n")
    result = json.loads(diff(str(old), str(new), "--format", "properties", "--as", "producer", "--output-format",
                             "json").stdout)  # fmt: skip
    assert [(c["kind"], c["key"]) for c in result["changes"]] == [("changed", "linger.ms")]
    assert result["introduced"] == [] and result["resolved"] == []  # acks=1 on both sides
