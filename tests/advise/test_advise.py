"""`kafka-advisor advise`: the inputs read and judged as lint and analyze judge them, the profile
inferred from them, the plan as ordered single steps, and a run without a terminal never waits."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from advisor.advise import advice as advising
from advisor.cli.lint import configs_request

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "fixtures" / "advise"
SECTIONS = ("What was read", "Load profile", "1. Health now", "2. Flow", "3. The plan", "4. How to check it")


def advise(
    *args: str, stdin: int | None = subprocess.DEVNULL, shell_tail: str = ""
) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "advisor", "advise", *args]
    if shell_tail:  # a redirection the shell makes: `<&-` closes stdin
        quoted = " ".join(f"'{part}'" for part in command)
        return subprocess.run(f"{quoted} {shell_tail}", shell=True, capture_output=True, text=True, cwd=REPO,
                              timeout=120)  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, cwd=REPO, stdin=stdin, timeout=120)


def gathered() -> advising.Gathered:
    request = configs_request([FIXTURE], None, "advise", metric_files=(FIXTURE / "metrics.prom",), source_lines=True)
    request = request._replace(paths=tuple(p for p in FIXTURE.iterdir() if p.suffix == ".properties"))
    return advising.gather(request)


def test_the_fixture_metrics_are_what_their_script_writes() -> None:
    result = subprocess.run([sys.executable, "tools/gen_advise_metrics.py", "--check"], cwd=REPO, capture_output=True,
                            text=True)  # fmt: skip
    assert result.returncode == 0, result.stderr


def test_the_profile_is_inferred_from_the_metrics_and_the_broker_configuration() -> None:
    fields = gathered().inferred.fields
    assert fields["rate_mb_s"][0] == 12.0  # 3 brokers x 5000 records/s x 800 bytes
    assert "BytesInPerSec over 10 min, 3 brokers" in fields["rate_mb_s"][1]
    assert fields["message_bytes_avg"][0] == 800
    assert fields["brokers"][0] == 3
    assert fields["replication_factor"] == (3, f"{FIXTURE / 'server.properties'}:15")
    assert fields["retention_hours"][0] == 72


def test_given_numbers_win_and_an_inferred_one_that_contradicts_them_is_said_and_dropped() -> None:
    found = gathered()
    resolved, notes = advising.resolved_profile({"message_bytes_max": 500}, found.inferred)
    assert resolved.origin("message_bytes_max") == "given"
    assert resolved["message_bytes_avg"] != 800  # 800 B average above a 500 B largest record: not used
    assert any("message_bytes_avg" in note for note in notes)
    resolved, _ = advising.resolved_profile({}, found.inferred)
    assert resolved.origin("rate_mb_s").startswith("from ") and resolved["rate_msgs_s"] == 15000  # derived again


def test_the_plan_is_single_steps_correctness_first_each_with_its_edit_and_check() -> None:
    result = advising.advise(gathered(), {}, None)
    keys = [[r.key for r in step.recommendations] for step in result.steps]
    assert keys[0] == ["acks", "enable.idempotence"]  # moved together
    assert result.steps[0].together
    first_speed = next(i for i, k in enumerate(keys) if "batch.size" in k)
    assert first_speed > next(i for i, k in enumerate(keys) if "unclean.leader.election.enable" in k)
    assert all(len(k) == 1 for k in keys if "batch.size" in k or "linger.ms" in k)  # one at a time
    step = result.steps[0]
    assert "-acks=1" in step.edit and "+acks=all" in step.edit
    linger = next(s for s in result.steps if s.recommendations[0].key == "linger.ms")
    assert linger.check.startswith("kafka-advisor verify --before") and "--expect linger.ms" in linger.check
    already = {r.key for r in result.already}
    assert "default.replication.factor" in already  # server.properties writes 3


def test_without_a_terminal_it_never_waits_and_says_what_it_assumed() -> None:
    for kwargs in ({"stdin": subprocess.PIPE}, {"shell_tail": "<&-"}, {"stdin": subprocess.DEVNULL}):
        result = advise(str(FIXTURE), **kwargs)  # type: ignore[arg-type]
        assert result.returncode == 1, result.stderr  # warnings at or above the default fail-on, as lint
        positions = [result.stdout.index(section) for section in SECTIONS]
        assert positions == sorted(positions)
        assert "(assumed)" in result.stdout and "Assumed (give these numbers to refine)" in result.stdout
        assert "rate mb s: 12 (from " in result.stdout


def test_a_secret_never_reaches_the_output() -> None:
    result = advise(str(FIXTURE), "--output-format", "json")
    assert "changeit-broker-1" not in result.stdout + result.stderr
    plain = advise(str(FIXTURE))
    assert "changeit-broker-1" not in plain.stdout + plain.stderr


def test_json_carries_the_steps_and_the_profile() -> None:
    result = advise(str(FIXTURE), "--output-format", "json", "--rate-mb-s", "40")
    document = json.loads(result.stdout)
    assert document["plan"]["profile"]["rate_mb_s"] == {"value": 40.0, "origin": "given"}
    assert document["steps"][0]["changes"][0]["key"] == "acks"
    assert next(g["group"] for g in document["health"]) == "metrics"  # the error: a disk full in hours
    assert document["exit_code"] == 1


def test_an_output_over_an_input_is_refused_and_the_input_kept(tmp_path: Path) -> None:
    target = tmp_path / "producer.properties"
    target.write_text((FIXTURE / "producer.properties").read_text())
    before = target.read_text()
    result = advise(str(tmp_path), "--metrics", str(FIXTURE / "metrics.prom"), "-o", f"json={target}")
    assert result.returncode == 2 and "-o json" in result.stderr
    assert target.read_text() == before


def test_a_bad_profile_flag_is_a_usage_error() -> None:
    result = advise(str(FIXTURE), "--max-message-bytes", "10", "--message-bytes", "100")
    assert result.returncode == 2 and "message_bytes_max is below message_bytes_avg" in result.stderr


def test_the_command_is_registered_in_help() -> None:
    result = subprocess.run([sys.executable, "-m", "advisor", "--help"], capture_output=True, text=True, cwd=REPO,
                            env={**os.environ, "COLUMNS": "200"})  # fmt: skip
    assert "advise" in result.stdout
