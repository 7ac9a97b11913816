"""advise in a real pseudo-terminal (pexpect): the questions pre-filled with what the inputs say,
a bad answer said and asked again, a default kept with Enter, then the report's sections in order;
Ctrl-C and end of input end it with nothing written."""

from __future__ import annotations

import sys
from pathlib import Path

import pexpect
import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "fixtures" / "advise"


def spawn(*args: str) -> pexpect.spawn:
    child = pexpect.spawn(sys.executable, ["-m", "advisor", "advise", *args], cwd=str(REPO), encoding="utf-8",
                          timeout=60, dimensions=(50, 200), env={"PATH": "/usr/bin:/bin", "TERM": "dumb"})  # fmt: skip
    return child


def test_the_questions_re_ask_a_bad_answer_keep_a_default_and_lead_to_the_report(tmp_path: Path) -> None:
    html = tmp_path / "report.html"
    child = spawn(str(FIXTURE), "--color", "never")
    child.expect("What was read")
    child.expect(r"Goal \(throughput.*\[balanced — the default\]: ")
    child.sendline("thr")
    child.expect(r"Average record size .*\[800 B — from .*metrics.prom.*\]: ")
    child.sendline("abc")
    child.expect("'abc' is not a number")
    child.expect(r"Average record size .*: ")  # asked again
    child.sendline("1.5 KiB")
    child.expect(r"Largest record size \[1,536 B — derived\]: ")  # follows the answer just given
    child.sendline("")  # Enter keeps it
    child.expect(r"Average rate in .*\[12 MB/s — from .*BytesInPerSec.*\]: ")
    child.sendline("10 parsecs")
    child.expect("unknown rate unit 'parsecs'")
    child.sendline("40MB/s")
    child.expect(r"End-to-end p99 target .*\[none — .*\]: ")
    child.sendline("10ms")
    child.expect(r"May acknowledged records be lost\? .*\[none — preset\]: ")
    child.sendline("")
    child.expect(pexpect.EOF)
    screen = child.before
    child.close()
    assert child.exitstatus == 1  # findings at warning, as lint
    sections = ["1. Health now", "2. Flow", "3. The plan", "4. How to check it"]
    positions = [screen.index(section) for section in sections]
    assert positions == sorted(positions)
    assert "goal throughput" in screen
    assert "message bytes avg: 1536 (given)" in screen and "message bytes max: 1536 (derived)" in screen
    assert "rate mb s: 40 (given)" in screen and "p99 ms: 10 (given)" in screen
    steps = [line for line in screen.splitlines() if line.startswith(" Step ")]
    assert steps[0].startswith(" Step 1: producer acks") and any("batch.size" in s for s in steps[1:])
    assert not html.exists()


@pytest.mark.parametrize("stop", ["intr", "eof"])
def test_ctrl_c_or_end_of_input_ends_cleanly_with_nothing_written(tmp_path: Path, stop: str) -> None:
    html, alerts = tmp_path / "report.html", tmp_path / "alerts.yaml"
    child = spawn(str(FIXTURE), "--html", str(html), "-o", f"json={tmp_path / 'r.json'}")
    child.expect(r"Goal .*: ")
    child.sendline("latency")
    child.expect(r"Average record size .*: ")
    child.sendintr() if stop == "intr" else child.sendeof()
    child.expect(pexpect.EOF)
    output = child.before
    child.close()
    assert child.exitstatus == 130
    assert "stopped; nothing written" in output and "Traceback" not in output
    assert not html.exists() and not alerts.exists() and not (tmp_path / "r.json").exists()
