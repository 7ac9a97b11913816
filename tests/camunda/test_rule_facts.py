"""Every default a Camunda rule's text states, and every key move it relies on, checked against the
generated catalog (what Camunda's own classes say), in every release the catalog read that has
the setting: a rule's words cannot drift from the source."""

from __future__ import annotations

import pytest

from advisor.analysis import camunda as view
from advisor.catalog import camunda as catalog
from advisor.rules.registry import load_rules

RULES = {rule.definition.id: rule.definition for rule in load_rules()}
DISK = "camunda.data.primary-storage.disk."
WRITE = "camunda.processing.flow-control.write."
REQUEST = "camunda.processing.flow-control.request."

# (rule, the words in its text, the setting, the default those words state)
STATED = [
    ("ZB006", "The defaults (2GB and 1GB)", DISK + "free-space.processing", "2GB"),
    ("ZB006", "The defaults (2GB and 1GB)", DISK + "free-space.replication", "1GB"),
    ("ZB007", "Use the default algorithm (aimd)", REQUEST + "algorithm", "aimd"),
    ("ZB009", "its default of 0", WRITE + "limit", "0"),
    ("ZB014", "the Self-Managed default", WRITE + "throttle.enabled", "false"),
    ("ZM002", "the write\n  throttle's acceptable backlog", WRITE + "throttle.acceptable-backlog", "100000"),
]


@pytest.mark.parametrize(("rule", "words", "setting", "default"), STATED, ids=[f"{s[0]}-{s[2]}" for s in STATED])
def test_a_default_a_rule_states_is_the_catalog_s(rule: str, words: str, setting: str, default: str) -> None:
    definition = RULES[rule]
    text = " ".join(str(getattr(definition, f)) for f in ("rationale", "message", "recommended", "params"))
    assert " ".join(words.split()) in " ".join(text.split()), f"{rule} no longer says {words!r}"
    releases = [r for r in catalog.releases() if view.default(setting, r) is not None]
    assert releases, setting
    newest = view.default(setting, releases[-1])
    assert newest is not None and newest.lower() == default.lower(), (setting, newest)


def test_the_threshold_defaults_that_are_camunda_s_follow_the_catalog() -> None:
    backlog = RULES["ZM002"].params["threshold"]["default"]
    assert str(backlog) == view.default(WRITE + "throttle.acceptable-backlog", catalog.releases()[-1])
    timeout = view.default(REQUEST + "aimd.request-timeout", catalog.releases()[-1])
    assert timeout == "200ms"  # ZB008 multiplies it; docs/camunda.md and the rationale say 200 ms


def test_the_key_moves_the_rules_rely_on_are_the_source_s() -> None:
    newest = catalog.releases()[-1]
    # ZB001: the request limiter's legacy spellings are accepted only when the values match
    timeout = catalog.lookup(REQUEST + "aimd.request-timeout", newest)
    assert timeout is not None and timeout.legacy_mode == "SUPPORTED_ONLY_IF_VALUES_MATCH"
    assert set(timeout.legacy) == {"zeebe.broker.flowControl.request.aimd.requestTimeout",
                                   "zeebe.broker.backpressure.aimd.requestTimeout"}  # fmt: skip
    # ZB002/ZB003: the write limit's and the disk's legacy spellings are still read as values
    for key in (WRITE + "limit", WRITE + "throttle.enabled", DISK + "free-space.processing"):
        facts = catalog.lookup(key, newest)
        assert facts is not None and facts.legacy_mode == "SUPPORTED", key
    # ZB004/ZB005: flowControl arrives in 8.6; 8.5 reads backpressure only
    assert catalog.lookup("zeebe.broker.flowControl.request.algorithm", "8.5") is None
    assert catalog.lookup("zeebe.broker.flowControl.request.algorithm", "8.6") is not None
    assert catalog.lookup("zeebe.broker.backpressure.algorithm", "8.6") is not None
    # ZB012: the setters' refusals the example relies on
    ratio = catalog.lookup("zeebe.broker.backpressure.aimd.backoffRatio", "8.5")
    assert ratio is not None and set(ratio.refuses_unless) == {"< 1.0", ">= 0.5"}
