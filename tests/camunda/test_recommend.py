"""`recommend --camunda`: the values' arithmetic, the keys each release reads, the configurations
beside the plan, and snippets that read back, through the pack's own reader, as the values
recommended."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from advisor.recommend.camunda import CamundaProfile, plan
from advisor.report.session import lint

REPO_ROOT = Path(__file__).resolve().parents[2]


def _values(result) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {r.key: r.value for r in result.recommendations}


def _broker(result) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {r.key: r.value for r in result.broker}


def test_the_write_limit_is_the_partition_s_peak_with_headroom() -> None:
    result = plan(CamundaProfile(pi_per_second=50, records_per_instance=40, partitions=6, release="8.9"))
    # 50 × 40 ÷ 6 × 2 (assumed peak factor) × 1.25 = 833.3, rounded up to the hundred
    assert _values(result)["camunda.processing.flow-control.write.limit"] == "900"
    assert "peak_factor" in result.resolved.assumed and "partitions" not in result.resolved.assumed


def test_the_acceptable_backlog_fits_the_disk_or_stays_the_default() -> None:
    key = "camunda.processing.flow-control.write.throttle.acceptable-backlog"
    roomy = plan(CamundaProfile(disk_gb=64, partitions=6, release="8.9"))
    assert _values(roomy)[key] == "100000"  # the default fits
    # (3 GB − 2 GB watermark) × 0.5 ÷ 6 replicas a broker ÷ 1024 bytes = 87,381 records
    tight = plan(CamundaProfile(disk_gb=3, partitions=6, release="8.9"))
    assert _values(tight)[key] == "87381"
    unsized = plan(CamundaProfile(release="8.9"))
    assert _values(unsized)[key] == "100000" and any("--pi-per-second" in note for note in unsized.notes)


def test_the_processing_watermark_lets_a_check_see_the_volume_between_the_two() -> None:
    key = "camunda.data.primary-storage.disk.free-space.processing"
    light = plan(CamundaProfile(pi_per_second=100, records_per_instance=40, release="8.9"))
    # 100 × 40 × 2 × 1024 B × 3 copies ÷ 3 brokers = 7.8 MB/s: 78 MB in ten 1-s checks, within the 1 GB gap
    assert _values(light)[key] == "2GB" and "the default fits" in _recommended(light, key).rationale
    heavy = plan(CamundaProfile(pi_per_second=4000, records_per_instance=50, disk_gb=8, release="8.9"))
    # 4000 × 50 × 2 × 1024 B = 390.6 MB/s: 3906.25 MB in ten checks above the 1 GB replication watermark
    assert _values(heavy)[key] == f"{1024 + 3907}MB"
    assert any("half the 8 GB volume" in note for note in heavy.notes)
    backlog = _recommended(heavy, "camunda.processing.flow-control.write.throttle.acceptable-backlog")
    assert backlog.inputs["processing_watermark"] == "4931MB"  # the backlog is sized above the new watermark
    unsized = plan(CamundaProfile(release="8.9"))
    assert key not in _values(unsized) and any("disk watermarks need" in note for note in unsized.notes)


def _recommended(result, key: str):  # type: ignore[no-untyped-def]
    return next(r for r in result.recommendations if r.key == key)


def test_keys_are_the_ones_each_release_reads() -> None:
    profile = {"pi_per_second": 20, "records_per_instance": 30, "p99_ms": 300}
    older = plan(CamundaProfile(**profile, release="8.7"))
    assert set(_broker(older)) == {"zeebe.broker.flowControl.write.enabled", "zeebe.broker.flowControl.write.limit",
                                   "zeebe.broker.flowControl.write.throttling.enabled",
                                   "zeebe.broker.flowControl.write.throttling.acceptableBacklog",
                                   "zeebe.broker.flowControl.request.aimd.requestTimeout",
                                   "zeebe.broker.data.disk.freeSpace.processing"}  # fmt: skip
    timeout = next(r for r in older.recommendations if r.key.endswith("requestTimeout"))
    assert "replaces zeebe.broker.backpressure whole" in timeout.rationale
    oldest = plan(CamundaProfile(**profile, release="8.5"))
    assert set(_broker(oldest)) == {"zeebe.broker.backpressure.aimd.requestTimeout",
                                    "zeebe.broker.data.disk.freeSpace.processing"}  # fmt: skip
    assert any("arrived in 8.6" in note for note in oldest.notes)


def test_the_snippets_read_back_as_the_values_recommended(tmp_path: Path) -> None:
    """Each snippet, saved as the file it is and read by the pack's reader, sets exactly the keys
    and values of the plan — the same test the Kafka snippets pass."""
    result = plan(CamundaProfile(pi_per_second=40, records_per_instance=25, disk_gb=20, p99_ms=400, release="8.9",
                                 client_wait_ms=2000))  # fmt: skip
    wanted = {r.key: r.value for r in result.broker}
    snippets = result.snippets()
    for name, text in (
        ("application.yaml", snippets["application"]),
        ("broker.env", snippets["env"]),
        ("values.yaml", "orchestration:\n  image:\n    tag: 8.9.1\n" + snippets["helm"].split("\n", 1)[1]),
    ):
        path = tmp_path / name
        path.write_text(text)
        (config_set,) = [cs for cs in lint([path]).document.config_sets if cs.component == "zeebe-broker"]
        assert {key: s.value for key, s in config_set.settings.items()} == wanted, name
    clients = tmp_path / "worker.env"
    clients.write_text(snippets["client_env"])
    (config_set,) = lint([clients]).document.config_sets
    assert config_set.component == "camunda-client"
    assert {key: s.value for key, s in config_set.settings.items()} == {
        r.key: r.value for r in result.recommendations if r.component == "camunda-client"
    }
    assert not [f for f in lint([clients]).findings if f.rule.startswith("ZC")]  # the plan passes its own rules


def test_the_sdk_s_attempts_fit_the_client_s_wait() -> None:
    def attempts(**profile: float) -> str:
        return _values(plan(CamundaProfile(release="8.9", **profile)))["CAMUNDA_SDK_HTTP_RETRY_MAX_ATTEMPTS"]

    assert attempts() == "3"  # the SDK's default without a wait
    # full jitter below min(100 × 2^(n−1), 2000): 100 + 200 + 400 + 800 + 1600 = 3100 ≤ 5000 < 3100 + 2000
    assert attempts(client_wait_ms=5000) == "6"
    assert attempts(client_wait_ms=300) == "3"  # 100 + 200
    assert attempts(client_wait_ms=10) == "2"  # never one attempt: that retries nothing (ZC002)


def test_the_command_line_keeps_the_two_products_apart() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "advisor", "recommend", *args], capture_output=True, text=True,
                              cwd=REPO_ROOT, timeout=120)  # fmt: skip

    mixed = run("--camunda", "--rate-mb-s", "3")
    assert mixed.returncode == 2 and "--rate-mb-s" in mixed.stderr
    for flags in (["--all"], ["--only", "acks"], ["--client", "java"], ["--snippet", "helm"], ["--config", "x.toml"]):
        refused = run("--camunda", *flags)  # a Kafka plan's option is said, never quietly dropped
        assert refused.returncode == 2 and flags[0] in refused.stderr, flags
    assert run("--disk-gb", "10").returncode == 2
    beside = run("--camunda", "--pi-per-second", "30", "--records-per-instance", "20", "--output-format", "json",
                 "fixtures/rules/camunda/broker-upgraded.application.yaml")  # fmt: skip
    assert beside.returncode == 0, beside.stderr
    planned = json.loads(beside.stdout)
    assert planned["release"] == "8.9"  # the configuration's own release
    legacy = {a["key"]: a["spelled"] for a in planned["against"]}
    assert legacy["camunda.processing.flow-control.write.limit"] == "zeebe.broker.flowControl.write.limit"


def test_advise_names_camunda_releases_as_camunda_s_and_points_at_its_plan() -> None:
    values = "fixtures/rules/camunda/values-orchestration.yaml"
    result = subprocess.run([sys.executable, "-m", "advisor", "advise", values, "--output-format", "json"],
                            capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)  # fmt: skip
    advice = json.loads(result.stdout)
    assert advice["found"]["versions"] == [{"product": "camunda", "release": "8.9.4",
                                            "from": "orchestration.image.tag: 8.9.4"}]  # fmt: skip
    assert any("recommend --camunda" in note for note in advice["notes"])
    assert {f["rule"] for group in advice["health"] for f in group["findings"]} >= {"ZB009"}


def test_the_plan_is_written_as_html_and_to_every_o_file_never_over_an_input(tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "advisor", "recommend", "--camunda", "--pi-per-second", "30",
                               "--records-per-instance", "20", *args], capture_output=True, text=True,
                              cwd=REPO_ROOT, timeout=120)  # fmt: skip

    page = run("--output-format", "html")
    assert page.returncode == 0 and page.stdout.startswith("<!DOCTYPE html>")
    planned = json.loads(run("--output-format", "json").stdout)
    for recommendation in planned["recommendations"]:  # every value of the plan is on the page
        assert f"{recommendation['key']} = {recommendation['value']}" in page.stdout
    written = run("-o", f"json={tmp_path / 'plan.json'}", "-o", f"html={tmp_path / 'plan.html'}")
    assert written.returncode == 0, written.stderr
    assert json.loads((tmp_path / "plan.json").read_text())["recommendations"] == planned["recommendations"]
    assert "<h2>Snippets</h2>" in (tmp_path / "plan.html").read_text()
    config = tmp_path / "application.yaml"
    config.write_text("camunda.processing.flow-control.write.enabled: true\n")
    over = run(str(config), "-o", f"json={config}")  # the configuration given is never written over
    assert over.returncode == 2 and config.read_text() == "camunda.processing.flow-control.write.enabled: true\n"
