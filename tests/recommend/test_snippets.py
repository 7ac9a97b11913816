"""The snippets read back as what was recommended: Spring's application.yml through our own Spring
loader (generated from Boot's jars) runs with every recommended value and lints clean; every
broker key's compose variable turns back into the key under both images' rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor import catalog
from advisor.catalog.surfaces import env_to_property
from advisor.recommend import snippets
from advisor.recommend.against import compare
from advisor.recommend.plan import plan
from advisor.recommend.profile import GOALS, LoadProfile
from advisor.report.session import lint
from advisor.sources import LoadOptions, load


@pytest.mark.parametrize("goal", GOALS)
def test_the_spring_snippet_runs_with_every_recommended_client_value(tmp_path: Path, goal: str) -> None:
    result = plan(LoadProfile(goal=goal, rate_mb_s=40, message_bytes_avg=200, processing_ms=2000))
    application = tmp_path / "application.yml"
    application.write_text(snippets.spring(result.recommendations).replace(
        "spring:\n  kafka:\n", "spring:\n  kafka:\n    bootstrap-servers: kafka-1:9092\n"))  # fmt: skip
    document = load([application], LoadOptions())
    assert {c.component for c in document.config_sets} >= {"producer"}
    against = compare(result.recommendations, document, None)
    client_keys = {r.key for r in result.recommendations if r.component in ("producer", "consumer")}
    assert {a.key for a in against} == client_keys
    assert [(a.key, a.current, a.value) for a in against if a.change] == []
    assert [f.rule for f in lint([application]).findings if f.severity in ("error", "warning")] == []


def test_every_broker_key_s_variable_is_read_back_as_the_key() -> None:
    for key in catalog.known_keys("broker"):
        variable = snippets.property_to_env(key)
        if variable is None:
            assert "kafka" in key.lower()
            continue
        assert env_to_property("apache", variable) == key, (key, variable)
        assert env_to_property("confluent", variable) == key, (key, variable)


@pytest.mark.parametrize("goal", ["durability", "availability"])
def test_the_helm_snippet_is_read_back_by_our_chart_loader(tmp_path: Path, goal: str) -> None:
    result = plan(LoadProfile(goal=goal))
    values = tmp_path / "values.yaml"
    values.write_text("image:\n  repository: bitnami/kafka\n  tag: 4.0.0-debian-12-r0\ncontroller:\n  replicaCount: 3\n"
                      + snippets.helm(result.recommendations))  # fmt: skip
    document = load([values], LoadOptions())
    assert [c.component for c in document.config_sets] == ["broker"]
    against = {a.key: a for a in compare(result.recommendations, document, None)}
    assert {"min.insync.replicas", "unclean.leader.election.enable"} <= set(against)
    assert [(a.key, a.current) for a in against.values() if a.change] == []
