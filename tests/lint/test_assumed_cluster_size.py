"""A broker whose files do not count its cluster is judged by the size-dependent durability rules
(KB102, KB104, KB134) as one of several — as a release is assumed when none is named — and every
finding that rests on it says so; a count stated anywhere, or the dev profile, takes its place."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

LONE = """\
broker.id=2
listeners=SSL://kafka2.billing.internal:9093
zookeeper.connect=zk.billing.internal:2181
offsets.topic.replication.factor=1
log.flush.interval.messages=5000
"""
SIZED = {"KB102", "KB104", "KB134"}


def lint(cwd: Path, *args: str) -> list[dict]:
    result = subprocess.run(
        [sys.executable, "-m", "advisor", "lint", ".", "--output-format", "json", *args],
        capture_output=True, text=True, cwd=cwd, check=False,
    )  # fmt: skip
    assert result.returncode in (0, 1), result.stderr
    return json.loads(result.stdout)["findings"]


def _sized(findings: list[dict]) -> dict[str, list[str]]:
    return {f["rule"]: f["assumptions"] for f in findings if f["rule"] in SIZED}


def test_an_uncounted_production_broker_is_judged_as_several_and_says_so(tmp_path: Path) -> None:
    (tmp_path / "server.properties").write_text(LONE)
    sized = _sized(lint(tmp_path))
    assert set(sized) == {"KB104", "KB134"}  # KB102 rests on an unwritten default: too little to go on
    for assumptions in sized.values():
        assert any("do not say how many brokers" in a and "brokers = 1" in a for a in assumptions)


def test_a_stated_count_or_the_dev_profile_replaces_the_assumption(tmp_path: Path) -> None:
    (tmp_path / "server.properties").write_text(LONE)
    assert _sized(lint(tmp_path, "--profile", "dev")) == {}
    (tmp_path / ".kafka-advisor.toml").write_text('[clusters.billing]\npaths = ["server.properties"]\nbrokers = 1\n')
    assert _sized(lint(tmp_path)) == {}
    (tmp_path / ".kafka-advisor.toml").write_text('[clusters.billing]\npaths = ["server.properties"]\nbrokers = 3\n')
    sized = _sized(lint(tmp_path))
    assert set(sized) == SIZED  # counted: the unwritten default counts too, and nothing is assumed
    assert not [a for assumptions in sized.values() for a in assumptions if "how many brokers" in a]


def test_a_per_broker_template_is_evidence_of_several_brokers(tmp_path: Path) -> None:
    (tmp_path / "server.properties").write_text(
        "broker.id=${KAFKA_BROKER_ID}\nlisteners=SSL://kafka.billing.internal:9093\n"
        "zookeeper.connect=zk:2181\ntransaction.state.log.replication.factor=1\n"
    )
    sized = _sized(lint(tmp_path, "--profile", "dev"))  # evidence, not a guess: even under dev
    assert set(sized) == {"KB102", "KB134"}
    assert all(any("broker.id is templated (${KAFKA_BROKER_ID})" in a for a in v) for v in sized.values())
