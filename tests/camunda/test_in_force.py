"""analysis/camunda.py: what a broker of each release runs with, whichever generation's key a
file wrote — the facts the ZB rules stand on."""

from __future__ import annotations

import pytest

from advisor.analysis import camunda as view
from advisor.model.document import ConfigSet, Setting
from advisor.model.provenance import Location

TIMEOUT = "camunda.processing.flow-control.request.aimd.request-timeout"
ALGORITHM = "camunda.processing.flow-control.request.algorithm"


def _set(**written: str) -> ConfigSet:
    config_set = ConfigSet("zeebe-broker", "a.yaml", Location("a.yaml", 1))
    for line, (key, value) in enumerate(written.items(), start=1):
        dotted = key.replace("__", ".")
        config_set.add(Setting(dotted, value, dotted, Location("a.yaml", line)))
    return config_set


def test_release_8_5_reads_backpressure_and_ignores_flow_control() -> None:
    config_set = _set(zeebe__broker__flowControl__request__aimd__requestTimeout="900ms")
    value = view.in_force(config_set, TIMEOUT, "8.5")
    assert value.value == "200ms" and "not a key of Camunda 8.5" in value.note
    old_name = _set(zeebe__broker__backpressure__aimd__requestTimeout="900ms")
    assert view.in_force(old_name, TIMEOUT, "8.5").value == "900ms"


def test_release_8_6_reads_flow_control_request_whole_when_any_of_it_is_written() -> None:
    both = _set(zeebe__broker__backpressure__algorithm="vegas", zeebe__broker__flowControl__request__aimd__minLimit="5")
    algorithm = view.in_force(both, ALGORITHM, "8.6")
    assert algorithm.value == "AIMD" and "not from zeebe.broker.backpressure" in algorithm.note  # LimitCfg's default
    assert view.in_force(_set(zeebe__broker__backpressure__algorithm="vegas"), ALGORITHM, "8.6").value == "vegas"


def test_release_8_9_reads_legacy_keys_by_their_mode() -> None:
    # SUPPORTED_ONLY_IF_VALUES_MATCH: the legacy value is never the one in force
    assert view.in_force(_set(zeebe__broker__backpressure__algorithm="vegas"), ALGORITHM, "8.9").value == "aimd"
    limit = "camunda.processing.flow-control.write.limit"
    # SUPPORTED: alone it sets the value; beside the unified key it loses
    assert view.in_force(_set(zeebe__broker__flowControl__write__limit="700"), limit, "8.9").value == "700"
    both = _set(zeebe__broker__flowControl__write__limit="700", **{limit.replace(".", "__"): "800"})
    assert view.in_force(both, limit, "8.9").value == "800"


def test_defaults_come_from_the_key_each_release_reads() -> None:
    assert view.default(TIMEOUT, "8.4") == view.default(TIMEOUT, "8.9") == "200ms"
    assert view.default("camunda.processing.flow-control.write.limit", "8.6") == "0"  # the flowControl generation
    assert view.default("camunda.processing.flow-control.write.limit", "8.5") is None  # no write limit before 8.6


@pytest.mark.parametrize(
    ("kind", "left", "right", "same"),
    [
        ("Duration", "1s", "1000ms", True),
        ("Duration", "PT0.2S", "200", True),
        ("Duration", "1s", "2s", False),
        ("DataSize", "2GB", "2048MB", True),
        ("DataSize", "2GB", "2", False),
        ("boolean", "TRUE", "true", True),
        ("int", "100", "100.0", True),
        ("String", "AIMD", "aimd", False),  # the unified check compares strings exactly
        ("Duration", "soon", "1s", None),
    ],
)
def test_values_compare_as_spring_converts_them(kind: str, left: str, right: str, same: bool | None) -> None:
    assert view.same_value(kind, left, right) is same


def test_release_8_5_keeps_backpressure_beside_a_flow_control_key_it_does_not_read() -> None:
    both = _set(zeebe__broker__backpressure__algorithm="vegas", zeebe__broker__flowControl__request__aimd__minLimit="5")
    assert view.in_force(both, ALGORITHM, "8.5").value == "vegas"  # flowControl is 8.6's: 8.5 ignores it


def _judged_on(tmp_path, name: str, text: str):  # type: ignore[no-untyped-def]
    from advisor.report.session import RunRequest, run

    path = tmp_path / name
    path.write_text(text)
    report = run(RunRequest(paths=(path,)))
    return report, [p.message for p in report.skipped]


def test_unified_keys_alone_give_their_generations_first_release_as_a_lower_bound(tmp_path) -> None:  # type: ignore[no-untyped-def]
    text = "camunda:\n  data:\n    primary-storage:\n      disk:\n        free-space:\n          processing: 3GB\n"
    report, notes = _judged_on(tmp_path, "application.yaml", text)
    (finding,) = [f for f in report.findings if f.rule == "ZB014"]  # a rule that holds from 8.6 on: judged
    assert finding.release == "8.9" and "Camunda 8.9 or later, from the keys it writes" in " ".join(finding.assumptions)
    assert any(n.startswith("ZB004 not judged") and "8.9 or later" in n for n in notes)  # the exact release: not


def test_an_older_generations_key_gives_no_lower_bound(tmp_path) -> None:  # type: ignore[no-untyped-def]
    for text in (
        "zeebe.broker.backpressure.algorithm: aimd\n",  # 8.4–8.5's (read, mapped, by later releases too)
        "zeebe.broker.backpressure.algorithm: aimd\ncamunda.processing.flow-control.request.algorithm: aimd\n",
    ):
        report, notes = _judged_on(tmp_path, "application.yaml", text)
        assert not [f for f in report.findings if f.rule == "ZB014"], text
        assert any("ZB014" in n and "no Camunda version found" in n for n in notes), notes
