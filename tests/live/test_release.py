"""The release a live cluster is judged at: the one its finalized metadata.version names (read
with the feature levels), said as where the version came from; none when the level is unknown."""

from __future__ import annotations

import json
from pathlib import Path

from advisor.catalog.features import metadata_version
from advisor.report.session import LiveTarget, RunRequest, run

BASE = {"format": "kafka-advisor-snapshot", "version": 1, "bootstrap": "k1:9092", "cluster_id": "c1", "controller": 1,
        "brokers": {"1": None, "2": None, "3": None}, "broker_configs": {"2": {}, "3": {},
        # a key Kafka 4.0 removed: its verdict depends on the release that judges it
        "1": {"log.message.format.version": {"value": "3.0", "source": "STATIC_BROKER_CONFIG"}}}}  # fmt: skip


def findings(tmp_path: Path, features: dict[str, int] | None) -> list:  # type: ignore[type-arg]
    path = tmp_path / "c.snapshot.json"
    path.write_text(json.dumps({**BASE, "features": features}))
    report = run(RunRequest(paths=(), live=(LiveTarget(str(path), path=path),)))
    assert not report.problems, report.problems
    return report.findings


def test_the_cluster_is_judged_at_the_release_its_metadata_version_names(tmp_path: Path) -> None:
    level = next(level for level in range(1, 100) if getattr(metadata_version(level), "version", "") == "3.8-IV0")
    versioned = [f for f in findings(tmp_path, {"metadata.version": level}) if f.kafka_version]
    assert versioned, "no finding depends on the release"
    assert {f.kafka_version.rsplit(".", 1)[0] for f in versioned} == {"3.8"}
    assert {f.kafka_version_from for f in versioned} == {
        f"metadata.version {level} (3.8-IV0), the cluster's finalized feature level: its brokers run Kafka 3.8 or later"
    }


def test_an_unknown_level_leaves_the_release_unsaid(tmp_path: Path) -> None:
    versioned = [f for f in findings(tmp_path, {"metadata.version": 999}) if f.kafka_version]
    assert versioned and {f.kafka_version_from for f in versioned} == {"assumed"}  # the newest release, said
