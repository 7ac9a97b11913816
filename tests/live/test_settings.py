"""A `--command-config` (the client properties Kafka's tools take) as the audit's two clients'
settings: SASL credentials from the JAAS line, PEM trust, the rest said as not used; what neither
client can read (a JKS truststore, a keystore, GSSAPI) refused with the reason, never passed on."""

from __future__ import annotations

import pytest

from advisor.live.settings import Security

SCRAM = {
    "security.protocol": "SASL_SSL",
    "sasl.mechanism": "SCRAM-SHA-512",
    "sasl.jaas.config": 'org.apache.kafka.common.security.scram.ScramLoginModule required username="auditor" '
    'password="pa\\"ss;word";',
    "ssl.truststore.type": "PEM",
    "ssl.truststore.location": "/etc/kafka/ca.pem",
    "request.timeout.ms": "30000",
}


def test_a_scram_command_config_becomes_both_clients_settings() -> None:
    security = Security(SCRAM)
    assert security.refused is None
    assert security.librdkafka() == {"security.protocol": "SASL_SSL", "ssl.ca.location": "/etc/kafka/ca.pem",
                                     "sasl.mechanism": "SCRAM-SHA-512", "sasl.username": "auditor",
                                     "sasl.password": 'pa"ss;word'}  # fmt: skip
    python = security.kafka_python()
    assert python["sasl_plain_username"] == "auditor" and python["sasl_plain_password"] == 'pa"ss;word'
    assert python["ssl_cafile"] == "/etc/kafka/ca.pem" and python["ssl_check_hostname"] is True
    assert security.unused == ["request.timeout.ms"]


def test_no_command_config_is_plaintext() -> None:
    assert Security({}).librdkafka() == {"security.protocol": "PLAINTEXT"}


@pytest.mark.parametrize(
    ("entries", "said"),
    [
        ({"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "GSSAPI"}, "GSSAPI is not one"),
        ({"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN"}, "needs a username and password"),
        ({"security.protocol": "SSL", "ssl.truststore.location": "/x.jks"}, "JKS or PKCS12 truststore"),
        ({"security.protocol": "SSL", "ssl.keystore.location": "/k.p12"}, "a keystore cannot be read"),
        ({"security.protocol": "TLS"}, "'TLS' is not one of"),
    ],
)
def test_what_the_clients_cannot_use_is_refused_with_why(entries: dict[str, str], said: str) -> None:
    refused = Security(entries).refused
    assert refused is not None and said in refused
