"""ZC005's facts, asked of the real Camunda Spring Boot starter (Apache-2.0, from Maven Central):
tests/java/CamundaCompleteRetryProbe.java binds a configuration as Spring Boot does, builds a
@JobWorker's value as the starter does, and sends the job's completion through the starter's own
command wrapper and exception handler to a stand-in gateway on localhost that refuses every
completion as a gateway under backpressure does. The stand-in is the one mock here: the Zeebe
broker and gateway are under the vendor's licence and are not run.

For each configuration: the rule's verdict is the one the starter's own bound values give, and
where the rule fires the starter sent no completion again."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tools"))

import fetch_kafka  # noqa: E402

from advisor.catalog import camunda as catalog  # noqa: E402
from advisor.rules.checks import camunda as checks  # noqa: E402

PROBE = REPO_ROOT / "tests" / "java" / "CamundaCompleteRetryProbe.java"
FIXTURES = REPO_ROOT / "fixtures" / "rules" / "camunda"
# Each a starter release whose behaviour the rule's text states (docs/camunda.md).
STARTERS = ("8.8.0", "8.8.5", "8.8.14")
# The HTTP client sends a refused request once more by itself: two arrivals, no retry of the starter's.
HTTP_CLIENT_REPEAT = 2

CASES = {
    "nothing-set.yaml": "camunda:\n  client:\n    worker:\n      defaults:\n        max-jobs-active: 32\n",
    "retries-over-rest.properties": "camunda.client.worker.defaults.max-retries=4\n",
    "one-attempt-grpc.properties": (
        "camunda.client.prefer-rest-over-grpc=false\ncamunda.client.worker.defaults.max-retries=1\n"
    ),
    "legacy-retries.properties": (
        "camunda.client.zeebe.defaults.max-retries=3\ncamunda.client.worker.defaults.timeout=PT1M\n"
    ),
    "no-auto-complete.yaml": "camunda:\n  client:\n    worker:\n      defaults:\n        auto-complete: false\n",
    "worker.env": (
        "CAMUNDA_CLIENT_PREFERRESTOVERGRPC=false\nCAMUNDA_CLIENT_WORKER_DEFAULTS_MAXRETRIES=0\n"
        "CAMUNDA_CLIENT_WORKER_DEFAULTS_TIMEOUT=45s\n"
    ),
    "override.yaml": (  # the probe's worker type has its own count; the defaults' would be retried
        "camunda:\n  client:\n    prefer-rest-over-grpc: false\n    worker:\n      defaults:\n        max-retries: 5\n"
        "      override:\n        probe:\n          max-retries: 1\n"
    ),
    "retries-over-grpc.yaml": (
        "camunda:\n  client:\n    prefer-rest-over-grpc: false\n    worker:\n      defaults:\n        max-retries: 6\n"
    ),
}
FIXTURE_FILES = (
    "order-service.application.yaml",
    "payment-worker.application.properties",
    "fulfilment.application.yaml",
)


def _probe(starter: Path, path: Path) -> dict:  # type: ignore[type-arg]
    classpath = fetch_kafka.classpath(starter)
    result = subprocess.run(["java", "-Dprobe.wait.ms=2500", "-cp", classpath, str(PROBE), str(path)],
                            capture_output=True, text=True, timeout=180)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def _findings(paths: list[Path]) -> dict[str, list[dict]]:  # type: ignore[type-arg]
    """ZC005's findings per file name, from one run over them all."""
    result = subprocess.run([sys.executable, "-m", "advisor", "lint", *map(str, paths), "--select", "ZC005",
                             "--output-format", "json", "--exit-zero"],
                            capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)  # fmt: skip
    found: dict[str, list[dict]] = {path.name: [] for path in paths}  # type: ignore[type-arg]
    for finding in json.loads(result.stdout)["findings"]:
        if finding["rule"] == "ZC005":
            found[Path(finding["path"]).name].append(finding)
    return found


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("starter")
    written = []
    for name, text in CASES.items():
        (folder / name).write_text(text)
        written.append(folder / name)
    return written + [FIXTURES / name for name in FIXTURE_FILES]


@pytest.mark.parametrize("release", STARTERS)
def test_the_rule_says_what_the_starter_does(release: str, inputs: list[Path], tmp_path: Path) -> None:
    starter = fetch_kafka.camunda_spring_starter(release)
    # The gRPC case again, with the starter's release stated as a build would state it: judged then.
    stated = tmp_path / "retries-over-grpc-stated.yaml"
    stated.write_text(f"# kafka-advisor: camunda-version={release}\n" + CASES["retries-over-grpc.yaml"])
    inputs = [*inputs, stated]
    with ThreadPoolExecutor(max_workers=2) as pool:  # each probe waits seconds for retries that may come
        probed = dict(zip(inputs, pool.map(lambda path: _probe(starter, path), inputs), strict=True))
    fired = _findings(inputs)
    verdicts = {}
    for path, ran in probed.items():
        assert ran["useDefaultRetryPolicy"] is False  # the starter's client: no gRPC retry policy
        # The rule's condition, from the values the starter itself bound (gRPC with attempts to spare
        # only where the file states a release the rule knows):
        grpc_known = path == stated and checks._grpc_unretried(_stated_set(release)) is not None
        expected = ran["autoComplete"] and (ran["maxRetries"] <= 1 or ran["transport"] == "rest" or grpc_known)
        # The probe's worker is of type `probe`: where an override names it, the finding is that worker's;
        # else the defaults' (a finding naming no worker), other types' overrides aside.
        mine = "worker probe:" if "override:\n        probe:" in path.read_text() else None
        findings = [f for f in fired[path.name] if (f["message"].startswith(mine) if mine
                                                    else not f["message"].startswith("worker "))]  # fmt: skip
        assert bool(findings) == expected, (path.name, ran, findings)
        if findings:  # and there, nothing sent the refused completion again
            arrived = ran["restCompletions"] + ran["grpcCompletions"]
            assert arrived == (HTTP_CLIENT_REPEAT if ran["transport"] == "rest" else 1), (path.name, ran)
            assert str(ran["maxRetries"]) in findings[0]["message"] or ran["transport"] == "rest"
        verdicts[path.name] = (ran, findings)
    # What the rule assumes where nothing is set is what the starter runs with.
    bare, _ = verdicts["nothing-set.yaml"]
    assert str(bare["maxRetries"]) == checks.ANNOTATION_MAX_RETRIES
    assert str(bare["autoComplete"]).lower() == checks.ANNOTATION_AUTO_COMPLETE
    assert bare["transport"] == ("rest" if catalog.spring_properties()[checks.PREFER_REST]["default"] else "grpc")
    assert bare["timeout"] == catalog.spring_properties()[checks.WORKER_TIMEOUT]["default"]
    # A legacy spelling and an environment variable are read as the starter reads them.
    assert verdicts["legacy-retries.properties"][0]["maxRetries"] == 3
    assert "is 3" in verdicts["legacy-retries.properties"][1][0]["message"]
    assert verdicts["worker.env"][0] == {**verdicts["worker.env"][0], "maxRetries": 0, "timeout": "PT45S"}
    # The case the rule leaves to the release: gRPC with attempts to spare. These starters send the
    # completion once anyway (their handler throws on retriable codes), which the rule's text says.
    assert verdicts["override.yaml"][0]["maxRetries"] == 1 and len(fired["override.yaml"]) == 1
    grpc, findings = verdicts["retries-over-grpc.yaml"]
    assert not findings and grpc["maxRetries"] == 6 and grpc["grpcCompletions"] == 1
    # Stated to the patch, a measured release is judged: the rule fires, and the starter sent once.
    grpc, findings = verdicts["retries-over-grpc-stated.yaml"]
    assert grpc["grpcCompletions"] == 1 and len(findings) == 1 and f"starter {release}" in findings[0]["message"]


def _stated_set(release: str):  # type: ignore[no-untyped-def]
    from advisor.model.document import ConfigSet
    from advisor.model.provenance import Location

    config_set = ConfigSet("camunda-client", "application.yaml", Location("application.yaml", 1))
    config_set.kafka_version = release
    return config_set


def test_the_range_the_rule_judges_over_grpc_has_both_ends_measured() -> None:
    low, high = checks.GRPC_UNRETRIED
    assert {".".join(map(str, low)), ".".join(map(str, high))} <= set(STARTERS)
