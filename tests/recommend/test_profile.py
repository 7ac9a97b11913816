"""The load profile: the user's numbers win over the goal's preset, the preset over assumptions,
and every assumption is named; impossible profiles and bad files are clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from advisor.recommend.profile import GOALS, LoadProfile, resolve


def test_given_numbers_win_then_the_preset_then_named_assumptions() -> None:
    profile = resolve(LoadProfile(goal="latency", rate_msgs_s=5000, message_bytes_avg=400, p99_ms=20))
    assert profile["p99_ms"] == 20 and profile.origin("p99_ms") == "given"  # not the preset's 50
    assert profile["loss"] == "none" and profile.origin("loss") == "preset"
    assert profile["rate_mb_s"] == pytest.approx(2.0) and profile.origin("rate_mb_s") == "derived"
    assert profile["message_bytes_max"] == 400 and profile.origin("message_bytes_max") == "derived"
    assert profile.origin("brokers") == "assumed" and "brokers" in profile.assumed
    assert "message_bytes_avg" not in profile.assumed and "rate_mb_s" not in profile.assumed


def test_a_rate_in_mb_gives_the_records_and_nothing_given_is_all_said() -> None:
    bare = resolve(LoadProfile())
    assert bare.goal == "balanced"
    assert set(bare.assumed) >= {"message_bytes_avg", "rate_mb_s", "brokers", "replication_factor"}
    assert bare["rate_msgs_s"] == pytest.approx(bare["rate_mb_s"] * 1e6 / bare["message_bytes_avg"])


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"message_bytes_avg": 500, "message_bytes_max": 100}, "message_bytes_max is below"),
        ({"brokers": 2, "replication_factor": 3}, "replication_factor is above"),
        ({"rate_mb_s": -1}, "greater than 0"),
        ({"goal": "fastest"}, "throughput"),
        ({"partitons": 12}, "Extra inputs"),
    ],
)
def test_an_impossible_profile_is_refused(fields: dict, says: str) -> None:
    with pytest.raises(ValidationError, match=says):
        LoadProfile.model_validate(fields)


def test_every_goal_resolves() -> None:
    assert {resolve(LoadProfile(goal=goal)).goal for goal in GOALS} == set(GOALS)


def _recommend(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "advisor", "recommend", *args], capture_output=True, text=True,
                          timeout=60)  # fmt: skip


def test_the_command_reads_a_profile_file_and_flags_win_over_it(tmp_path: Path) -> None:
    load = tmp_path / "orders.yaml"
    load.write_text("goal: throughput\nmessage_bytes_avg: 300\nrate_msgs_s: 50000\nloss: none\n")
    result = _recommend("--load", str(load), "--message-bytes", "600", "--output-format", "json")
    assert result.returncode == 0, result.stderr
    plan = json.loads(result.stdout)
    assert plan["goal"] == "throughput"
    assert plan["profile"]["message_bytes_avg"] == {"value": 600, "origin": "given"}
    assert plan["profile"]["rate_mb_s"]["value"] == pytest.approx(30.0)
    assert {r["key"] for r in plan["recommendations"]} >= {"acks", "batch.size", "linger.ms", "partitions"}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("goal: throughput\nrate_mb_s: [1\n", "orders.yaml:3: not YAML"),
        ('{"goal": "throughput",\n "rate_mb_s": }\n', "orders.yaml:2: not JSON"),
        ("base: &b {rate_mb_s: 1}\nother: *b\n", "orders.yaml:1: anchors and aliases"),
        ("- 1\n- 2\n", "orders.yaml:1: a load profile is a mapping"),
    ],
)
def test_a_bad_profile_file_is_a_path_line_error(tmp_path: Path, text: str, says: str) -> None:
    load = tmp_path / "orders.yaml"
    load.write_text(text)
    result = _recommend("--load", str(load))
    assert result.returncode == 2 and says in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_an_impossible_flag_is_an_error_naming_the_field() -> None:
    result = _recommend("--brokers", "1", "--replication-factor", "3")
    assert result.returncode == 2 and "replication_factor is above the number of brokers" in result.stderr


def test_the_committed_profile_schema_is_the_model_s() -> None:
    script = Path(__file__).resolve().parents[2] / "tools" / "gen_profile_schema.py"
    result = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("path", sorted((Path(__file__).resolve().parents[2] / "fixtures" / "recommend").iterdir()),
                         ids=lambda p: p.name)  # fmt: skip
def test_each_fixture_profile_plans_with_only_the_missing_numbers_assumed(path: Path) -> None:
    from advisor.recommend import load_file
    from advisor.recommend.plan import plan

    fields = load_file.read(str(path))
    result = plan(LoadProfile.model_validate(fields), "librdkafka")
    assert not set(result.profile.assumed) & set(fields)
    assert {r.key for r in result.recommendations} >= {"acks", "enable.idempotence", "min.insync.replicas"}


def test_the_project_config_s_load_table_is_the_base_and_errors_name_its_line(tmp_path: Path) -> None:
    config = tmp_path / ".kafka-advisor.toml"
    config.write_text('[load]\ngoal = "throughput"\nmessage_bytes_avg = 300\nbrokers = 6\n')

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "advisor", "recommend", *args], capture_output=True, text=True,
                              timeout=60, cwd=tmp_path)  # fmt: skip

    plan = json.loads(run("--brokers", "9", "--output-format", "json").stdout)
    assert plan["goal"] == "throughput" and plan["profile"]["message_bytes_avg"]["value"] == 300
    assert plan["profile"]["brokers"]["value"] == 9  # the flag wins over the project config
    config.write_text("[load]\nmessage_bytes_avg = 300\nrate_mb_s = -2\n")
    bad = run()
    assert bad.returncode == 2 and f"{config}:3: rate_mb_s: Input should be greater than 0" in bad.stderr
    config.write_text("load = 3\n")
    assert run().returncode == 2
