"""The librdkafka and kafka-python rules against the installed clients: each case builds the
real client in-process with the same settings the linter reads, and the verdicts must agree.
Construction only — no broker is needed (nothing listens on the bootstrap address)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.report.session import lint

RULES = {
    "KP109",
    "KP110",
    "KP111",
    "KP112",
    "KP113",
    "KP114",
    "KC106",
    "KC107",
    "KC108",
    "KC109",
    "KC114",
    "KC115",
}
NOWHERE = "127.0.0.1:1"


def build_librdkafka(role: str, settings: dict) -> str | None:
    """None when confluent-kafka accepts the settings, else its error text."""
    from confluent_kafka import Consumer, KafkaException, Producer

    config = {"bootstrap.servers": NOWHERE, **settings}
    try:
        client = Producer(config) if role == "producer" else Consumer(config)
    except KafkaException as error:
        return str(error)
    if role == "consumer":
        client.close()
    return None


def build_kafka_python(role: str, settings: dict) -> str | None:
    from kafka import KafkaConsumer, KafkaProducer
    from kafka.errors import KafkaConfigurationError

    kind = KafkaProducer if role == "producer" else KafkaConsumer
    try:  # api_version given, so the constructor does not probe a broker
        client = kind(bootstrap_servers=NOWHERE, api_version=(3, 9), **settings)
    except KafkaConfigurationError as error:
        return str(error)
    client.close()
    return None


def verdicts(tmp_path: Path, role: str, settings: dict) -> set[str]:
    config = tmp_path / "client.json"
    config.write_text(json.dumps({role: settings}))
    result = lint([config])
    assert not result.document.errors
    return {f.rule for f in result.findings if f.rule in RULES}


LIBRDKAFKA_CASES = [
    # (role, settings, fragment of librdkafka's refusal or None for accepted, rules that must fire)
    ("producer", {"enable.idempotence": True, "max.in.flight": 6}, "`max.in.flight` must be set <= 5", {"KP109"}),
    ("producer", {"transactional.id": "t", "max.in.flight": 6}, "`max.in.flight` must be set <= 5", {"KP109"}),
    ("producer", {"max.in.flight": 6}, None, set()),
    ("producer", {"enable.idempotence": True, "max.in.flight": 5}, None, set()),
    ("producer", {"enable.idempotence": True, "acks": "1"}, "`acks` must be set to `all`", {"KP110"}),
    ("producer", {"transactional.id": "t", "request.required.acks": 1}, "`acks` must be set to `all`", {"KP110"}),
    ("producer", {"enable.idempotence": True, "acks": "all"}, None, set()),
    ("producer", {"enable.idempotence": True, "retries": 0}, "`retries` must be set >= 1", {"KP111"}),
    ("producer", {"transactional.id": "t", "retries": 0}, "`retries` must be set >= 1", {"KP111"}),
    ("producer", {"retries": 0}, None, set()),
    (
        "producer",
        {"transactional.id": "t", "enable.idempotence": False},
        "requires `enable.idempotence=true`",
        {"KP112"},
    ),
    ("producer", {"transactional.id": "t"}, None, set()),
    ("producer", {"message.timeout.ms": 5, "linger.ms": 5}, "must be greater than `linger.ms`", {"KP113"}),
    ("producer", {"delivery.timeout.ms": 3, "queue.buffering.max.ms": 5}, "greater than `linger.ms`", {"KP113"}),
    ("producer", {"message.timeout.ms": 2}, None, set()),  # checked only when both are written
    ("producer", {"linger.ms": 400000}, None, set()),
    ("producer", {"message.timeout.ms": 6, "linger.ms": 5}, None, set()),
    ("producer", {"message.timeout.ms": 0, "linger.ms": 5}, None, set()),
    ("producer", {"transactional.id": "t", "message.timeout.ms": 120000}, "<= `transaction.timeout.ms`", {"KP114"}),
    ("producer", {"transactional.id": "t", "transaction.timeout.ms": 10000}, None, set()),
    ("producer", {"transactional.id": "t", "message.timeout.ms": 60000}, None, set()),
    (
        "consumer",
        {"group.id": "g", "group.protocol": "consumer", "session.timeout.ms": 30000},
        "`session.timeout.ms` is not supported for `group.protocol=consumer`",
        {"KC114"},
    ),
    (
        "consumer",
        {"group.id": "g", "group.protocol": "consumer", "heartbeat.interval.ms": 1000},
        "`heartbeat.interval.ms` is not supported for `group.protocol=consumer`",
        {"KC114"},
    ),
    (
        "consumer",
        {"group.id": "g", "group.protocol": "consumer", "partition.assignment.strategy": "range"},
        "Use `group.remote.assignor` instead",
        {"KC114"},
    ),
    ("consumer", {"group.id": "g", "group.protocol": "consumer"}, None, set()),
    ("consumer", {"group.id": "g", "session.timeout.ms": 30000}, None, set()),
    # KX107's rationale: librdkafka spells "no hostname check" as none and refuses an empty value.
    ("producer", {"ssl.endpoint.identification.algorithm": ""}, "cannot be set to empty value", set()),
    ("producer", {"ssl.endpoint.identification.algorithm": "none"}, None, set()),
    ("consumer", {"group.id": "g", "max.poll.interval.ms": 10000}, "must be >= `session.timeout.ms`", {"KC106"}),
    ("consumer", {"group.id": "g", "session.timeout.ms": 400000}, "must be >= `session.timeout.ms`", {"KC106"}),
    ("consumer", {"group.id": "g", "group.protocol": "consumer", "max.poll.interval.ms": 1000}, None, set()),
    (
        "consumer",
        {"group.id": "g", "fetch.max.bytes": 999999},
        "`fetch.max.bytes` must be >= `message.max.bytes`",
        {"KC107"},
    ),
    ("consumer", {"group.id": "g", "message.max.bytes": 60000000}, None, set()),
    ("consumer", {"group.id": "g", "fetch.max.bytes": 1000000}, None, set()),
    ("consumer", {"group.id": "g", "receive.message.max.bytes": 52428800}, "`fetch.max.bytes` + 512", {"KC108"}),
    ("consumer", {"group.id": "g", "receive.message.max.bytes": 52429312}, None, set()),
    (
        "consumer",
        {"group.id": "g", "fetch.max.bytes": 104857600, "receive.message.max.bytes": 80000000},
        "`fetch.max.bytes` + 512",
        {"KC108"},
    ),
    ("consumer", {"group.id": "g", "fetch.max.bytes": 104857600}, None, set()),
    (
        "consumer",
        {"group.id": "g", "queued.max.messages.kbytes": 2000, "receive.message.max.bytes": 2000000},
        "`fetch.max.bytes` + 512",
        {"KC108"},
    ),
    (
        "consumer",
        {"group.id": "g", "queued.max.messages.kbytes": 1000, "receive.message.max.bytes": 2000000},
        None,
        set(),
    ),
    (
        "consumer",
        {"group.id": "g", "queued.max.messages.kbytes": 500, "receive.message.max.bytes": 1000000},
        "`fetch.max.bytes` + 512",
        {"KC108"},
    ),
    (
        "consumer",
        {"group.id": "g", "queued.max.messages.kbytes": 500, "receive.message.max.bytes": 1000600},
        None,
        set(),
    ),
]

KAFKA_PYTHON_CASES = [
    ("producer", {"enable_idempotence": True, "max_in_flight_requests_per_connection": 6}, "max_in_flight", {"KP109"}),
    ("producer", {"transactional_id": "t", "max_in_flight_requests_per_connection": 6}, "max_in_flight", {"KP109"}),
    ("producer", {"acks": 1, "max_in_flight_requests_per_connection": 6}, None, set()),
    ("producer", {"enable_idempotence": True, "acks": 1}, "user-provided acks=1", {"KP110"}),
    ("producer", {"transactional_id": "t", "acks": 1}, "user-provided acks=1", {"KP110"}),
    ("producer", {"enable_idempotence": True, "acks": "all"}, None, set()),
    ("producer", {"acks": 1}, None, set()),
    ("producer", {"enable_idempotence": True, "retries": 0}, "user-provided retries=0", {"KP111"}),
    ("producer", {"retries": 0}, None, set()),
    ("producer", {"transactional_id": "t", "enable_idempotence": False}, "Cannot set transactional_id", {"KP112"}),
    ("consumer", {"group_id": "g", "request_timeout_ms": 600000}, "must be larger than request_timeout_ms", {"KC109"}),
    ("consumer", {"group_id": "g", "request_timeout_ms": 400}, "must be larger than fetch_max_wait_ms", {"KC109"}),
    (
        "consumer",
        {"group_id": "g", "connections_max_idle_ms": 30000},
        "must be larger than request_timeout_ms",
        {"KC109"},
    ),
    ("consumer", {"group_id": "g", "request_timeout_ms": 40000}, None, set()),
]


@pytest.mark.parametrize(("role", "settings", "refusal", "rules"), LIBRDKAFKA_CASES)
def test_rules_match_the_real_librdkafka(tmp_path: Path, role: str, settings: dict, refusal, rules: set) -> None:
    outcome = build_librdkafka(role, settings)
    if refusal is None:
        assert outcome is None, outcome
    else:
        assert outcome is not None and refusal in outcome, outcome
    assert verdicts(tmp_path, role, settings) == rules


@pytest.mark.parametrize(("role", "settings", "refusal", "rules"), KAFKA_PYTHON_CASES)
def test_rules_match_the_real_kafka_python(tmp_path: Path, role: str, settings: dict, refusal, rules: set) -> None:
    outcome = build_kafka_python(role, settings)
    if refusal is None:
        assert outcome is None, outcome
    else:
        assert outcome is not None and refusal in outcome, outcome
    assert verdicts(tmp_path, role, settings) == rules


@pytest.mark.parametrize(("group_id", "aborts"), [("", True), ("billing", False)])
def test_an_empty_group_id_aborts_the_python_process(tmp_path: Path, group_id: str, aborts: bool) -> None:
    """confluent-kafka's Consumer() with group.id="" fails a C assertion: run it in a child process."""
    script = (
        "from confluent_kafka import Consumer\n"
        f"Consumer({{'bootstrap.servers': '{NOWHERE}', 'group.id': {group_id!r}}}).close()\n"
    )
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (child.returncode == -signal.SIGABRT) is aborts, (child.returncode, child.stderr[-500:])
    assert ("KC115" in verdicts(tmp_path, "consumer", {"group.id": group_id})) is aborts
