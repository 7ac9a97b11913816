"""Canary secrets planted in every input format and every place a secret hides — misspelled
keys, URL user info, basic-auth user info, JAAS, flow-style maps, Helm env entries, script
flags and bootstrap URLs, PEM blocks, a directive comment, values a reader refuses — and looked
for in every output: each format on stdout, every `-o` file, the baseline, the `--diff` of the
safe fixes, stderr. One occurrence anywhere fails the test."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
FORMATS = ("text", "json", "sarif", "junit", "github", "html")

PROJECT = {
    "orders.producer.properties": (
        "bootstrap.servers=kafka-1:9092\n"
        "acks=1\n"
        "ssl.keystore.pssword=CANARY-a01\n"
        "schema.registry.url=https://registry-user:CANARY-a02@registry.example:8081\n"
        "basic.auth.user.info=registry-user:CANARY-a03\n"
        "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
        'username="svc" password="CANARY-a04";\n'
        "ssl.keystore.key=-----BEGIN PRIVATE KEY----- CANARY-a05 -----END PRIVATE KEY-----\n"
    ),
    "payments.json": (
        '{"bootstrap.servers": "kafka-1:9092", "acks": "1", "sasl_plain_pssword": "CANARY-b01",\n'
        ' "sasl.password": "CANARY-b02", "sasl.username": "svc"}\n'
    ),
    "billing.toml": '[producer]\n"bootstrap.servers" = "kafka-1:9092"\n"acks" = "1"\n"sasl.password" = "CANARY-c01"\n',
    "docker-compose.yml": (
        "services:\n"
        "  kafka:\n"
        "    image: apache/kafka:4.0.0\n"
        "    environment: {KAFKA_NODE_ID: 1, KAFKA_PROCESS_ROLES: 'broker,controller', KAFKA_MIN_INSYNC_REPLICAS: 1,"
        " KAFKA_SSL_KEYSTORE_KEY: CANARY-d01, KAFKA_CFG_SSL_KEYSTORE_PSSWORD: CANARY-d02,"
        " KAFKA_DEFAULT_REPLICATION_FACTOR: 1}\n"
    ),
    "values.yaml": (
        "image:\n  tag: 3.7.0\n"
        "extraEnvVars:\n"
        "  - name: KAFKA_CFG_SSL_KEYSTORE_PSSWORD\n"
        "    value: CANARY-e01\n"
        "  - name: KAFKA_CFG_UNCLEAN_LEADER_ELECTION_ENABLE\n"
        '    value: "true"\n'
        "  - name: KAFKA_CFG_SASL_JAAS_CONFIG\n"
        "    value: 'org.apache.kafka.common.security.scram.ScramLoginModule required"
        ' username="a" password="CANARY-e02";\'\n'
    ),
    "application.yml": (
        "spring:\n  kafka:\n    bootstrap-servers: kafka-1:9092\n"
        "    ssl:\n      key-store-password: CANARY-f01\n"
        "    producer:\n      acks: 1\n"
        "      properties:\n"
        "        sasl.jaas.config: org.apache.kafka.common.security.plain.PlainLoginModule required"
        ' username="u" password="CANARY-f02";\n'
    ),
    "topics.sh": (
        "#!/bin/sh\n"
        "kafka-topics.sh --bootstrap-server SASL_SSL://svc:CANARY-g01@kafka-1:9093 --create --topic orders"
        " --partitions 3 --replication-factor 1\n"
        "kafka-configs.sh --bootstrap-server kafka-1:9092 --alter --entity-type users --entity-name alice"
        " --add-config 'SCRAM-SHA-512=[password=CANARY-g02]'\n"
    ),
    "kafka.yaml": (
        "apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata:\n  name: main\nspec:\n  kafka:\n"
        "    replicas: 3\n    config: {min.insync.replicas: 1, ssl.keystore.password: CANARY-h01}\n"
    ),
    "directive.consumer.properties": (
        "# kafka-advisor: token=CANARY-i01\nbootstrap.servers=kafka-1:9092\ngroup.id=g\n"
    ),
    "escape.consumer.properties": "bootstrap.servers=kafka-1:9092\nssl.truststore.password=CANARY-j01\\u00ZZ\n",
    "broken-compose.yml": (
        "services:\n  kafka:\n    image: apache/kafka:4.0.0\n    environment:\n"
        '      KAFKA_SSL_KEY_PASSWORD: "CANARY-k01\n      KAFKA_NODE_ID: 1\n'
    ),
}
CANARY = re.compile(r"CANARY-[a-z]\d\d")


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    project = tmp_path_factory.mktemp("project")
    for name, text in PROJECT.items():
        (project / name).write_text(text)
    planted = {m.group() for text in PROJECT.values() for m in CANARY.finditer(text)}
    assert len(planted) == 20
    reports = tmp_path_factory.mktemp("reports")
    seen: dict[str, str] = {}

    def lint(label: str, *args: str) -> None:
        result = subprocess.run(
            [sys.executable, "-m", "advisor", "lint", str(project), *args],
            capture_output=True, text=True, cwd=REPO_ROOT, timeout=120,
        )  # fmt: skip
        seen[f"{label} stdout"] = result.stdout
        seen[f"{label} stderr"] = result.stderr

    for fmt in FORMATS:
        lint(fmt, "--output-format", fmt)
    lint("-o", *(arg for fmt in FORMATS for arg in ("-o", f"{fmt}={reports / fmt}")))
    lint("baseline", "--write-baseline", str(reports / "baseline.json"))
    lint("diff", "--diff")
    for fmt in ("text", "json"):  # advise: its own page, alerts and plan steps' edits too
        result = subprocess.run(
            [sys.executable, "-m", "advisor", "advise", str(project), "--no-input", "--output-format", fmt,
             "--html", str(reports / f"advise-{fmt}.html"), "--alerts", str(reports / f"alerts-{fmt}.yaml")],
            capture_output=True, text=True, cwd=REPO_ROOT, timeout=120,
        )  # fmt: skip
        seen[f"advise {fmt} stdout"], seen[f"advise {fmt} stderr"] = result.stdout, result.stderr
    for written in reports.iterdir():
        seen[f"file {written.name}"] = written.read_text()
    return seen


def test_the_planted_secrets_are_read_and_reported_on(outputs: dict[str, str]) -> None:
    """The canaries sit where the run looks: the files are read, findings and errors come."""
    shown = outputs["json stdout"]
    for expected in ("KP101", "KX108", "ssl.keystore.pssword", "KAFKA_CFG_SSL_KEYSTORE_PSSWORD", "KB109",
                     "directive.consumer.properties", "escape.consumer.properties", "broken-compose.yml"):  # fmt: skip
        assert expected in shown, expected
    assert "[secret]" in outputs["text stdout"]  # lines with secrets are shown, their values hidden
    assert "KAFKA_SSL_KEYSTORE_KEY: [secret]" in outputs["text stdout"]  # a flow-style map, by context


def test_no_canary_in_any_output(outputs: dict[str, str]) -> None:
    leaks = {label: sorted(set(CANARY.findall(text))) for label, text in outputs.items() if CANARY.search(text)}
    assert leaks == {}
