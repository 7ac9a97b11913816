"""ZC005 (a Spring job worker whose refused completion nothing sends again) judges the 8.8
starter's `camunda.client.worker.*`. A Spring client file without it is said as not judged, with
why, in every output; a file of only the TypeScript SDK's variables is none of its business."""

from __future__ import annotations

import json
from pathlib import Path

from advisor.output import render
from advisor.report.session import RunRequest, run


def _notes(tmp_path: Path, name: str, text: str) -> tuple[list[str], object]:
    path = tmp_path / name
    path.write_text(text)
    report = run(RunRequest(paths=(path,)))
    return [p.message for p in report.skipped if p.message.startswith("ZC005")], report


def test_a_spring_client_without_worker_settings_is_said_not_judged(tmp_path: Path) -> None:
    text = "camunda:\n  client:\n    mode: self-managed\n    rest-address: http://orchestration:8080\n"
    (note,), report = _notes(tmp_path, "application.yaml", text)
    assert "writes no camunda.client.worker.* setting" in note
    assert not [f for f in report.findings if f.rule == "ZC005"]  # type: ignore[attr-defined]
    for fmt in ("json", "sarif", "junit", "github"):
        assert "ZC005 not judged" in render(report, fmt), fmt  # never a silent pass, in any output
    assert "1 note(s)" in render(report, "text")  # the text report counts it; the CLI says it on stderr
    assert json.loads(render(report, "json"))["summary"]["notes"] >= 1


def test_worker_settings_only_in_legacy_names_are_said_not_judged(tmp_path: Path) -> None:
    (note,), _ = _notes(tmp_path, "application.properties", "zeebe.client.job.timeout=30s\n")
    assert "legacy names (zeebe.client.job.timeout)" in note and "starter's release is not in the file" in note


def test_a_worker_setting_in_the_starters_names_is_judged_and_no_note_said(tmp_path: Path) -> None:
    notes, report = _notes(tmp_path, "application.yaml", "camunda.client.worker.defaults.max-retries: 1\n")
    assert notes == []
    assert [f.rule for f in report.findings if f.rule == "ZC005"] == ["ZC005"]  # type: ignore[attr-defined]


def test_the_sdks_variables_alone_are_none_of_its_business(tmp_path: Path) -> None:
    text = "CAMUNDA_REST_ADDRESS=http://orchestration:8080/v2\nCAMUNDA_SDK_HTTP_RETRY_MAX_ATTEMPTS=4\n"
    notes, _ = _notes(tmp_path, "worker.env", text)
    assert notes == []


def test_a_connectors_release_before_the_starter_keeps_its_own_names(tmp_path: Path) -> None:
    def compose(tag: str) -> str:
        return (f"services:\n  connectors:\n    image: camunda/connectors-bundle:{tag}\n    environment:\n"
                "      - ZEEBE_CLIENT_BROKER_GATEWAY-ADDRESS=zeebe:26500\n")  # fmt: skip

    notes, report = _notes(tmp_path, "docker-compose.yml", compose("8.7.3"))
    assert not [f for f in report.findings if f.rule == "ZC004"]  # 8.7's own name: nothing to move
    assert notes and "older than 8.8's" in notes[0]
    _, report = _notes(tmp_path, "docker-compose.yml", compose("8.8.2"))
    (finding,) = [f for f in report.findings if f.rule == "ZC004"]  # the 8.8 starter maps it
    assert "camunda.client.grpc-address" in finding.message
