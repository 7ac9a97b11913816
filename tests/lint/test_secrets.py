"""No secret value ever reaches any output: checked with canaries in every format."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from advisor import catalog
from advisor.report.session import lint
from advisor.secrets import is_secret_key, redact_line

REPO_ROOT = Path(__file__).resolve().parents[2]
CANARIES = ("CANARY-7f3a", "CANARY-91bc", "CANARY-c0de", "CANARY-dead")
SECRET_FILE = (
    "bootstrap.servers=kafka-1:9092\n"
    f"ssl.keystore.password={CANARIES[0]}\n"
    "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
    f'username="svc" password="{CANARIES[1]}";\n'
    f"ssl.keystore.pasword={CANARIES[2]}\n"  # misspelled: flagged by KX100, line shown
    f"sasl.oauthbearer.token.endpoint.secret={CANARIES[3]}\n"
    "acks=1\n"
)


def test_every_password_typed_kafka_key_is_treated_as_secret() -> None:
    for component in catalog.COMPONENTS:
        for key in catalog.known_keys(component):
            if catalog.lookup(key, component).type == "PASSWORD":
                assert is_secret_key(key), key


@pytest.mark.parametrize(
    "line",
    [
        f"ssl.key.password={CANARIES[0]}",
        f'   username="u" password="{CANARIES[0]}";',
        f"KAFKA_SSL_KEYSTORE_PASSWORD: {CANARIES[0]}",
        f"kafka-configs.sh --bootstrap-server x --password {CANARIES[0]}",
        f"schema.registry.url=https://registry-user:{CANARIES[0]}@sr.example:8081",  # URL user info
        f"kafka-topics.sh --bootstrap-server SASL_SSL://svc:{CANARIES[0]}@kafka-1:9093 --list",
        f"basic.auth.user.info=registry-user:{CANARIES[0]}",
        f"ssl.keystore.pssword={CANARIES[0]}",  # misspellings of password keys
        f"  KAFKA_CFG_SSL_KEYSTORE_PSSWORD: {CANARIES[0]}",
        f"sasl_plain_pssword: {CANARIES[0]}",
    ],
)
def test_redacted_lines_keep_no_secret(line: str) -> None:
    assert CANARIES[0] not in redact_line(line)


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "junit", "github"])
def test_no_output_format_shows_a_secret(tmp_path: Path, fmt: str) -> None:
    config = tmp_path / "app.producer.properties"
    config.write_text(SECRET_FILE)
    written = tmp_path / f"report.{fmt}"
    result = subprocess.run(
        [sys.executable, "-m", "advisor", "lint", str(config), "--output-format", fmt, "-o", f"{fmt}={written}"],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=60,
    )
    assert result.returncode == 1, result.stderr  # KP101 and KX100 fire
    assert "ssl.keystore.pasword" in result.stdout  # the misspelled key is reported...
    assert "KX108" in result.stdout  # ...and so are the clear-text passwords...
    for canary in CANARIES:  # ...but no value is shown anywhere
        assert canary not in result.stdout
        assert canary not in result.stderr
        assert canary not in written.read_text()


def test_a_refused_value_of_a_secret_looking_key_is_reported_without_the_value(tmp_path: Path) -> None:
    config = tmp_path / "server.properties"
    config.write_text("process.roles=broker\nnode.id=1\ndelegation.token.expiry.time.ms=CANARY-5e11\n")
    result = subprocess.run(
        [sys.executable, "-m", "advisor", "lint", str(config), "--output-format", "json"],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=60,
    )
    assert "delegation.token.expiry.time.ms is not a whole number" in result.stdout  # KB110 judged it ...
    assert "CANARY-5e11" not in result.stdout + result.stderr  # ... without showing it


SCRAM_SCRIPT = """kafka-configs.sh --bootstrap-server k:9092 --alter --entity-type users --entity-name alice \\
  --add-config 'SCRAM-SHA-256=[iterations=8192,password=CANARY-5c7a]'
kafka-acls.sh --bootstrap-server k:9092 --add --allow-principal User:alice --operation Read --topic t
kafka-acls.sh --bootstrap-server k:9092 --add --allow-principal User:bob --operation Read --topic t
"""


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "junit", "github"])
def test_scram_credentials_in_a_script_are_never_shown(tmp_path: Path, fmt: str) -> None:
    """kafka-configs --add-config carries SCRAM passwords as well as quotas: the shell loader
    keeps only quota names, so a report about the script cannot show the password."""
    script = tmp_path / "onboard.sh"
    script.write_text(SCRAM_SCRIPT)
    result = subprocess.run(
        [sys.executable, "-m", "advisor", "lint", str(script), "--output-format", fmt, "--exit-zero"],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=60,
    )
    assert "KO108" in result.stdout  # the script is read and reported on ...
    assert "CANARY-5c7a" not in result.stdout + result.stderr  # ... without its password


def test_the_shell_loader_keeps_no_add_config_value(tmp_path: Path) -> None:
    from advisor.report.session import lint

    script = tmp_path / "onboard.sh"
    script.write_text(SCRAM_SCRIPT)
    document = lint([script]).document
    assert len(document.config_sets) == 3
    assert not document.config_sets[0].settings  # a users entity: nothing read as a config key
    assert all("CANARY-5c7a" not in repr(cs.facts) for cs in document.config_sets)


def _redact_line_unfiltered(line: str) -> str:
    """redact_line without its substring prefilters: every pattern on every line (the reference)."""
    from advisor import secrets

    line = secrets._URL_CREDENTIALS.sub(lambda m: f"{m['lead']}{secrets.REDACTED}@", line)
    match = secrets._ASSIGNMENT.match(line)
    if match and is_secret_key(match["key"]):
        return f"{match['lead']}{match['key']}{match['sep']}{secrets.REDACTED}"
    line = secrets._INLINE.sub(lambda m: f"{m['key']}{secrets.REDACTED}", line)
    return secrets._FLAG.sub(lambda m: f"{m['flag']}{secrets.REDACTED}", line)


_CRAFTED = [
    'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="p1";',
    "  command: kafka-configs.sh --bootstrap-server b:9092 --sasl-pa\u017fsword hunter22 --alter",
    "ARGS=--TOKEN=abcd1234 --other",
    "url: https://user:s3cr3t@registry.example:8081",
    "SASL_SSL://svc:pa55@broker:9093",
    "  - name: x\n",
    "opts: Secret: shh; Token=tok123, PASSWORD='quoted pw'",
    "client.id=KELVIN-\u212a-Password: k",
    "nothing to see here=1",
    "",
]


def test_the_prefilters_never_change_a_redacted_line() -> None:
    """redact_line skips a pattern when the line lacks the text every match needs: on every line
    of every fixture and on lines made to defeat naive filters (Unicode case variants, flags,
    URLs), it gives what running every pattern gives."""
    lines = list(_CRAFTED)
    for path in sorted((REPO_ROOT / "fixtures").rglob("*")):
        if path.is_file() and path.stat().st_size < 200_000:
            lines += path.read_text(encoding="utf-8", errors="replace").splitlines()
    assert len(lines) > 5000
    for line in lines:
        assert redact_line(line) == _redact_line_unfiltered(line), line


def test_env_entries_are_found_however_the_name_line_is_indented() -> None:
    """`name:` then `value:` (Kubernetes, Helm): after blanks, a dash, or both; a `hostname:`
    line is no env entry."""
    from advisor.secrets import secret_values

    text = ("env:\n  - name: KAFKA_SSL_KEYSTORE_PASSWORD\n    value: hunter2222\n"
            "  -  name: X_TOKEN\n    value: tok-1234\n\t- \tname: Y_SECRET\n   value: abcd1234\n"
            "hostname: kafka-1\n  value: not-a-secret\n")  # fmt: skip
    assert secret_values(text) == {"hunter2222", "tok-1234", "abcd1234"}


@pytest.mark.parametrize(
    ("name", "text", "advice"),
    [
        ("app.producer.properties", "ssl.keystore.password=hunter2hunter2\n", "${file:"),
        (
            "app.producer.properties",
            "# kafka-advisor: client=librdkafka\nsasl.password=hunter2hunter2\n",
            "librdkafka does not resolve",
        ),
        ("worker.json", '{"bootstrap_servers": "k:9092", "sasl_plain_password": "hunter2hunter2"}', "kafka-python"),
        ("application.yml", "spring:\n  kafka:\n    ssl:\n      key-store-password: hunter2hunter2\n", "${KAFKA_"),
    ],
)
def test_the_advice_for_a_clear_text_secret_is_what_that_software_resolves(
    tmp_path: Path, name: str, text: str, advice: str
) -> None:
    config = tmp_path / name
    config.write_text(text)
    found = [f for f in lint([config]).findings if f.rule == "KX108"]
    assert found and all(advice in f.recommended for f in found), [f.recommended for f in found]
    assert not any("hunter2" in f.message + f.recommended for f in found)


@pytest.mark.parametrize(
    ("key", "secret"),
    [
        ("tls.secretName", False),  # a Kubernetes Secret's name: where a secret is, not what
        ("global.elasticsearch.auth.existingSecret", False),
        ("existingSecretPasswordKey", False),
        ("secretKeyRef", False),
        ("TOKEN_SECRET_NAME", False),
        ("zeebe.broker.data.backup.s3.secretKey", True),  # an S3 secret key is the secret itself
        ("camunda.client.auth.client-secret", True),
        ("passwordSecretKey", True),  # not a name nor a reference by its shape: kept hidden
    ],
)
def test_a_reference_to_a_kubernetes_secret_is_no_secret(key: str, secret: bool) -> None:
    assert is_secret_key(key) is secret


def test_a_secret_s_name_elsewhere_does_not_garble_the_report(tmp_path: Path) -> None:
    from advisor.output import render
    from advisor.report.session import RunRequest, run

    path = tmp_path / "values.yaml"  # no release stated: the note names "a camunda-platform chart version"
    path.write_text("global:\n  ingress:\n    tls:\n      secretName: camunda-platform\nzeebe:\n  clusterSize: 3\n")
    text = render(run(RunRequest(paths=(path,))), "json")
    assert "a camunda-platform chart version" in text and "[secret]" not in text


def test_a_password_that_is_a_product_name_is_hidden_where_set_and_garbles_nothing(tmp_path: Path) -> None:
    from advisor.output import render
    from advisor.report.session import RunRequest, run

    (tmp_path / "server.properties").write_text("ssl.keystore.password=kafka\n")
    (tmp_path / "values.yaml").write_text(
        "elasticsearch:\n  auth:\n    password: camunda\nzeebe:\n  clusterSize: 3\n  image:\n    tag: 8.7.4\n"
    )
    report = run(RunRequest(paths=(tmp_path,)))
    text = render(report, "text")
    assert "ssl.keystore.password=[secret]" in text  # the line that sets it: hidden by its key
    assert "kafka=" not in text and "password=kafka" not in text
    for fmt in ("json", "sarif"):
        shown = render(report, fmt)
        assert "kafka-advisor" in shown and "camunda" in shown, fmt  # the report's own words stay whole
        assert "password: camunda" not in shown and "password=kafka" not in shown, fmt


def test_a_lower_case_word_secret_is_hidden_as_a_token_not_inside_longer_names() -> None:
    from advisor.secrets import Redactor

    hide = Redactor({"connector", "web-modeler", "Xq9-rT7k"})
    assert hide("password: connector") == "password: [secret]"
    assert hide('"connector", and connector.') == '"[secret]", and [secret].'
    assert hide("ZC005 not judged on connectors") == "ZC005 not judged on connectors"  # a longer name's part
    assert hide("camunda/web-modeler-restapi:8.9") == "camunda/web-modeler-restapi:8.9"
    assert hide("id-Xq9-rT7k-2") == "id-[secret]-2"  # not a word: hidden wherever it shows


def test_a_password_that_is_a_word_of_the_tools_own_texts_garbles_none_of_them(tmp_path: Path) -> None:
    from advisor.output import render
    from advisor.report.session import RunRequest, run

    # A dev broker whose SASL password is "password": KB rules say "password" in their own sentences.
    (tmp_path / "server.properties").write_text(
        "listeners=SASL_PLAINTEXT://:9092\nsasl.enabled.mechanisms=PLAIN\n"
        "listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule"
        ' required username="admin" password="password" user_admin="password";\n'
    )
    report = run(RunRequest(paths=(tmp_path,)))
    text = render(report, "text")
    assert "jaas.config=[secret]" in text and 'password="password"' not in text  # hidden where it is set
    assert "every client's password cross the network" in text
    assert all("[secret]" not in f.message for f in report.findings)  # the rules' own words stay whole
