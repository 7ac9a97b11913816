"""The HTML reports in real headless Chromium (tools/browser_check.py: Debian's chromium, no
network): no console error, no request leaving the page, every chart present and drawn, a
screenshot that is not blank and a PDF to print — with JavaScript on and off; and drawn by real
headless Firefox (Debian's firefox-esr). A hostile corpus
(values holding `<script>`, quotes, long lines, canary secrets) shows as text, never as markup,
and no secret reaches the page or the alerts file."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import browser_check  # tools/, on the path through tests/conftest.py
import pytest

from advisor.output import html_charts, html_page

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "fixtures" / "advise"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "advisor", *args], capture_output=True, text=True, cwd=REPO,
                          timeout=120)  # fmt: skip


def assert_clean(seen: dict, page: Path) -> None:  # type: ignore[type-arg]
    assert seen["errors"] == [], seen["errors"]
    assert seen["failed"] == [], seen["failed"]
    assert seen["requests"] == [page.resolve().as_uri()]  # the page itself, nothing else
    assert seen["scripts"] == 0
    assert seen["screenshot_values"] > 20  # drawn, not a blank page
    assert seen["pdf_pages"] >= 1


@pytest.mark.parametrize("javascript", [True, False])
def test_the_advise_report_opens_clean_with_every_chart_drawn(tmp_path: Path, javascript: bool) -> None:
    page = tmp_path / "report.html"
    result = run("advise", "fixtures/advise", "--no-input", "--html", str(page))
    assert result.returncode == 1, result.stderr
    text = page.read_text()
    anchors = ("read", "profile", "health", "flow", "plan", "check", "alerts")
    assert all(f'id="{anchor}"' in text for anchor in anchors)
    # SCREENSHOT_TO=docs/images/advise-report.png keeps the screenshot: the README's is made here.
    kept = os.environ.get("SCREENSHOT_TO") if javascript else None
    shot = Path(kept) if kept else tmp_path / "shot.png"
    seen = browser_check.check(page, javascript=javascript, screenshot=shot, fragment="flow")
    assert_clean(seen, page)
    # Lag in seconds, in and out of each of the two groups, the three disks' free space.
    assert seen["charts"] == 6 and seen["drawn"] >= seen["charts"]
    assert len(page.read_bytes()) < 1_500_000


def test_firefox_draws_the_advise_report_and_its_charts(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    result = run("advise", "fixtures/advise", "--no-input", "--html", str(page), "--output-format", "json")
    seen = browser_check.firefox_screenshot(page, tmp_path / "firefox.png")
    assert seen["returncode"] == 0, seen["stderr"]
    assert seen["screenshot_values"] > 20  # the summary: drawn, not a blank page
    # The charts alone on a page (Firefox draws the top of a page): their lines in colour.
    flow = json.loads(result.stdout)["flow"]
    charts = [html_charts.lag_seconds(flow["groups"], "lag"), html_charts.disk(flow["disks"][0], "disk")]
    alone = tmp_path / "charts.html"
    alone.write_text(html_page.page("charts", [c for c in charts if c], "test"))
    drawn = browser_check.firefox_screenshot(alone, tmp_path / "charts.png")
    blank = tmp_path / "blank.html"
    blank.write_text(html_page.page("charts", ["<p>no chart</p>"], "test"))
    assert drawn["saturated"] > 3 * browser_check.firefox_screenshot(blank, tmp_path / "blank.png")["saturated"] + 10


COMMANDS = [("lint", ("fixtures/demo",)), ("analyze", (str(FIXTURE / "metrics.prom"),)), ("recommend", ())]


@pytest.mark.parametrize(("command", "args"), COMMANDS)
def test_html_of_lint_analyze_and_recommend_opens_clean(tmp_path: Path, command: str, args: tuple[str, ...]) -> None:
    page = tmp_path / f"{command}.html"
    result = run(command, *args, "-o", f"html={page}")
    assert result.returncode in (0, 1), result.stderr
    seen = browser_check.check(page, javascript=False)
    assert_clean(seen, page)
    if command == "analyze":
        assert seen["charts"] >= 3 and seen["drawn"] >= seen["charts"]


HOSTILE = {
    "producer.properties": ("bootstrap.servers=kafka-1:9092\nacks=1\nclient.id=<script>alert('x')</script>\n"
                            'linger.ms="><img src=x onerror=alert(1)>\n'
                            "ssl.keystore.password=CANARY-h01\n"
                            "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
                            'username="svc" password="CANARY-h02";\n'
                            f"compression.type={'z' * 5000}\n"),
    "server.properties": ("process.roles=broker\nnode.id=1\nmin.insync.replicas=1\n"
                          "listeners=SASL_SSL://</script><script>alert(2)</script>:9092\n"
                          "ssl.key.password=CANARY-h03\n"),
}  # fmt: skip
GROUP, TOPIC = 'consumergroup="<b onmouseover=alert(3)>g"', 'topic="t\\"x"'


def hostile_metrics() -> str:
    """An offset exporter's scrapes whose group and topic names are markup."""
    lines = []
    for i in range(6):
        at = 1764583200000 + 60000 * i
        lines.append(f'kafka_consumergroup_lag{{{GROUP},{TOPIC},partition="0"}} {100 + 50 * i} {at}')
        lines.append(f'kafka_topic_partition_current_offset{{{TOPIC},partition="0"}} {1000 + 100 * i} {at}')
    return "\n".join(lines) + "\n"


def test_a_hostile_corpus_shows_as_text_and_no_secret_reaches_the_page_or_the_alerts(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    for name, text in HOSTILE.items():
        (project / name).write_text(text)
    (project / "lag.prom").write_text(hostile_metrics())
    page, alerts = tmp_path / "report.html", tmp_path / "alerts.yaml"
    result = run("advise", str(project), "--no-input", "--html", str(page), "--alerts", str(alerts))
    assert result.returncode in (1, 2), result.stderr
    text = page.read_text()
    assert "<script>alert" not in text and "<img src=x" not in text and "<b onmouseover" not in text
    assert "&lt;script&gt;alert" in text  # the value is shown, as text
    for output in (text, alerts.read_text(), result.stdout, result.stderr):
        assert not re.search(r"CANARY-h\d\d", output)
    seen = browser_check.check(page, javascript=True)
    assert_clean(seen, page)
