"""Truth check 4: the generated history shows the documented default changes
(../shared/knowledge/kafka-facts.md §1). The data came from Kafka's own classes,
so these tests check the generator against independent, sourced facts."""

from __future__ import annotations

import itertools

import pytest

from advisor import catalog


def minor(version: str) -> str:
    return ".".join(version.split(".")[:2])


def defaults_by_release(key: str, component: str) -> dict[str, object]:
    return {
        release: catalog.default(key, component, kafka_version=release)
        for release in catalog.releases()
        if catalog.exists(key, component, kafka_version=release)
    }


def change_points(key: str, component: str) -> list[tuple[str, object, object]]:
    """(minor version, old, new) for each default change between consecutive catalog releases."""
    values = defaults_by_release(key, component)
    releases = list(values)
    return [
        (minor(after), values[before], values[after])
        for before, after in itertools.pairwise(releases)
        if values[before] != values[after]
    ]


@pytest.mark.parametrize(
    ("key", "component", "expected"),
    [
        ("acks", "producer", [("3.0", "1", "all")]),
        ("enable.idempotence", "producer", [("3.0", False, True)]),
        ("linger.ms", "producer", [("4.0", 0, 5)]),
        ("num.recovery.threads.per.data.dir", "broker", [("4.0", 1, 2)]),
        ("session.timeout.ms", "consumer", [("3.0", 10000, 45000)]),
        ("log.message.timestamp.after.max.ms", "broker", [("4.0", 9223372036854775807, 3600000)]),
        ("metadata.recovery.strategy", "consumer", [("4.0", "none", "rebootstrap")]),
    ],
)
def test_documented_default_changes(key: str, component: str, expected: list[tuple[str, object, object]]) -> None:
    assert change_points(key, component) == expected


@pytest.mark.parametrize(("key", "component"), [("message.max.bytes", "broker"), ("max.message.bytes", "topic")])
def test_message_max_bytes_is_1048588_in_every_release(key: str, component: str) -> None:
    values = defaults_by_release(key, component)
    assert list(values) == catalog.releases()
    assert set(values.values()) == {1048588}


def test_retry_backoff_max_ms_added_in_3_7() -> None:
    for component in ("producer", "consumer"):
        events = catalog.history("retry.backoff.max.ms", component)
        assert [(minor(e.version), e.event, e.default) for e in events] == [("3.7", "added", "1000")]
        assert not catalog.exists("retry.backoff.max.ms", component, kafka_version="3.6")


@pytest.mark.parametrize(
    ("key", "component"),
    [
        ("log.message.format.version", "broker"),
        ("message.format.version", "topic"),
        ("zookeeper.connect", "broker"),
        ("offsets.commit.required.acks", "broker"),
    ],
)
def test_removed_in_4_0(key: str, component: str) -> None:
    events = catalog.history(key, component)
    assert events[-1].event == "removed"
    assert minor(events[-1].version) == "4.0"
    assert catalog.exists(key, component, kafka_version="3.9")
    assert not catalog.exists(key, component, kafka_version="4.0")


def test_log_segment_bytes_minimum_raised_to_1_mib_in_4_0() -> None:
    assert catalog.lookup("log.segment.bytes", "broker", kafka_version="3.9").min == 14
    assert catalog.lookup("log.segment.bytes", "broker", kafka_version="4.0").min == 1048576


def test_bootstrap_servers_became_required_in_4_2() -> None:
    assert catalog.lookup("bootstrap.servers", "producer", kafka_version="4.1").required is False
    facts = catalog.lookup("bootstrap.servers", "producer", kafka_version="4.2")
    assert facts.required is True
    assert facts.default is None
