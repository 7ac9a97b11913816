"""Every recommended client configuration is one the real client takes and our own lint passes:
each goal, for a small and a large load, spelled for each client — the real Java producer and
consumer (kafka-clients 4.4), librdkafka (confluent-kafka) and kafka-python construct it, and
`lint` gives it no error or warning."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import fetch_kafka  # tools/, on the path through tests/conftest.py
import pytest
from oracles import compile_java, run_batch
from test_client_library_oracle import build_kafka_python, build_librdkafka

from advisor.recommend.plan import plan
from advisor.recommend.profile import GOALS, LoadProfile
from advisor.report.session import lint

REPO_ROOT = Path(__file__).resolve().parents[2]
LOADS = {
    "small": {"message_bytes_avg": 200, "rate_mb_s": 0.5},
    "large": {"message_bytes_avg": 5000, "rate_mb_s": 300.0, "processing_ms": 50, "p99_ms": 200},
    "huge records": {"message_bytes_avg": 400_000, "message_bytes_max": 3_000_000, "rate_mb_s": 20.0},
    "transactions": {"message_bytes_avg": 1000, "rate_mb_s": 5.0, "transactions": True},  # consumers' isolation
}
CASES = [(goal, load) for goal in GOALS for load in LOADS]


def settings(goal: str, load: str, client: str, role: str) -> dict:
    result = plan(LoadProfile(goal=goal, **LOADS[load]), client)
    spelled = (result.spelled(r) for r in result.recommendations if r.component == role)
    return {s.key: s.value for s in spelled if s.key}


@pytest.mark.parametrize("role", ["producer", "consumer"])
def test_the_real_java_client_takes_every_recommendation(tmp_path: Path, role: str) -> None:
    libs = fetch_kafka.classpath(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION))
    classes = compile_java(REPO_ROOT / "tests" / "java" / "ClientOracle.java", tmp_path, libs)
    extra = {"group.id": "recommended"} if role == "consumer" else {}
    cases = [{**extra, **settings(goal, load, "java", role)} for goal, load in CASES]
    outcomes = run_batch(f"{classes}:{libs}", ["ClientOracle", role, "--batch"], cases)
    refused = [(case, outcome) for case, outcome in zip(cases, outcomes, strict=True) if not outcome["ok"]]
    assert refused == []
    if role == "producer":  # idempotence really on, for every goal
        assert all(outcome["idempotent"] is True for outcome in outcomes), outcomes


def _kafka_python(role: str, settings: dict) -> str | None:
    """kafka-python's refusal: a configuration error, or the RuntimeError of a codec whose package is absent."""
    try:
        return build_kafka_python(role, settings)
    except RuntimeError as error:
        return str(error)


@pytest.mark.parametrize(("goal", "load"), CASES)
@pytest.mark.parametrize("role", ["producer", "consumer"])
def test_librdkafka_and_kafka_python_take_every_recommendation(goal: str, load: str, role: str) -> None:
    extra = {"group.id": "recommended"} if role == "consumer" else {}
    assert build_librdkafka(role, {**extra, **settings(goal, load, "librdkafka", role)}) is None
    python_extra = {"group_id": "recommended"} if role == "consumer" else {}
    python = {**python_extra, **settings(goal, load, "kafka-python", role)}
    refusal = _kafka_python(role, python)
    codec = python.get("compression_type")
    if codec == "lz4" and importlib.util.find_spec("lz4") is None:
        # Without the package kafka-python refuses the codec, as the recommendation's note says; the
        # rest of the settings it takes.
        result = plan(LoadProfile(goal=goal, **LOADS[load]), "kafka-python")
        (note,) = [
            result.spelled(r).note
            for r in result.recommendations
            if r.key == "compression.type" and r.component == role
        ]
        assert refusal is not None and "lz4" in refusal and "pip install lz4" in note, (refusal, note)
        refusal = _kafka_python(role, {k: v for k, v in python.items() if k != "compression_type"})
    assert refusal is None, refusal


@pytest.mark.parametrize(("goal", "load"), CASES)
def test_our_lint_passes_every_recommendation(tmp_path: Path, goal: str, load: str) -> None:
    files = []
    for role in ("producer", "consumer"):
        java = tmp_path / f"{role}.properties"
        extra = {"bootstrap.servers": "kafka-1:9092", **({"group.id": "recommended"} if role == "consumer" else {})}
        java.write_text("".join(f"{k}={v}\n" for k, v in {**extra, **settings(goal, load, "java", role)}.items()))
        librdkafka = tmp_path / f"{role}-librdkafka.json"
        librdkafka.write_text(json.dumps({role: {**extra, **settings(goal, load, "librdkafka", role)}}))
        files += [java, librdkafka]
    result = lint(files)
    assert not result.document.errors
    loud = [(f.rule, f.message) for f in result.findings if f.severity in ("error", "warning")]
    assert loud == []
