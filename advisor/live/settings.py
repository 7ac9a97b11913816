"""A `--command-config` file (the client properties Kafka's own tools take) as settings for the
audit's two clients: librdkafka (confluent-kafka) and kafka-python. Only the connection's security
is taken — protocol, SASL mechanism and credentials (from `sasl.jaas.config` or librdkafka's
`sasl.username`/`sasl.password`), PEM trust and client certificates; every other key is said as
not used. Credentials go into the clients' settings only, never into a message."""

from __future__ import annotations

import re

JAAS_OPTION = re.compile(r"""(\w+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([^\s;"']+))""")
PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")
# librdkafka names its own keys as Java does for these; kafka-python spells them its own way.
SHARED = {"ssl.ca.location": "ssl_cafile", "ssl.certificate.location": "ssl_certfile",
          "ssl.key.location": "ssl_keyfile", "ssl.key.password": "ssl_password"}  # fmt: skip


class Security:
    """The connection settings one command config states, each client's spelling derived from it."""

    def __init__(self, entries: dict[str, str]) -> None:
        self.protocol = entries.get("security.protocol", "PLAINTEXT").strip().upper()
        self.mechanism = (entries.get("sasl.mechanism") or entries.get("sasl.mechanisms") or "GSSAPI").strip().upper()
        jaas = _jaas_options(entries.get("sasl.jaas.config", ""))
        self.username = entries.get("sasl.username") or jaas.get("username")
        self.password = entries.get("sasl.password") or jaas.get("password")
        self.files = {key: entries[key] for key in SHARED if entries.get(key)}
        if entries.get("ssl.truststore.location") and entries.get("ssl.truststore.type", "JKS").upper() == "PEM":
            self.files.setdefault("ssl.ca.location", entries["ssl.truststore.location"])
        self.identify = entries.get("ssl.endpoint.identification.algorithm", "https").strip().lower() == "https"
        self.refused = self._refusal(entries)
        used = {"security.protocol", "sasl.mechanism", "sasl.mechanisms", "sasl.jaas.config", "sasl.username",
                "sasl.password", "ssl.truststore.location", "ssl.truststore.type",
                "ssl.endpoint.identification.algorithm", *SHARED}  # fmt: skip
        self.unused = sorted(set(entries) - used)

    def _refusal(self, entries: dict[str, str]) -> str | None:
        if self.protocol not in PROTOCOLS:
            return f"security.protocol {self.protocol!r} is not one of {', '.join(PROTOCOLS)}"
        if self.protocol.startswith("SASL") and self.mechanism not in MECHANISMS:
            return f"sasl.mechanism {self.mechanism} is not one the audit speaks ({', '.join(MECHANISMS)})"
        if self.protocol.startswith("SASL") and not (self.username and self.password):
            return "SASL needs a username and password (sasl.jaas.config, or sasl.username and sasl.password)"
        store = entries.get("ssl.truststore.location")
        if store and entries.get("ssl.truststore.type", "JKS").upper() != "PEM":
            return "a JKS or PKCS12 truststore cannot be read by the audit's clients: give ssl.truststore.type=PEM"
        if entries.get("ssl.keystore.location"):
            return (
                "a keystore cannot be read by the audit's clients: give ssl.certificate.location and ssl.key.location"
            )
        return None

    def librdkafka(self) -> dict[str, str]:
        config = {"security.protocol": self.protocol, **self.files}
        if self.protocol.startswith("SASL"):
            config |= {"sasl.mechanism": self.mechanism, "sasl.username": self.username or "",
                       "sasl.password": self.password or ""}  # fmt: skip
        if self.protocol.endswith("SSL") and not self.identify:
            config["ssl.endpoint.identification.algorithm"] = "none"
        return config

    def kafka_python(self) -> dict[str, object]:
        options: dict[str, object] = {"security_protocol": self.protocol}
        options |= {SHARED[key]: value for key, value in self.files.items()}
        if self.protocol.startswith("SASL"):
            options |= {"sasl_mechanism": self.mechanism, "sasl_plain_username": self.username,
                        "sasl_plain_password": self.password}  # fmt: skip
        if self.protocol.endswith("SSL"):
            options["ssl_check_hostname"] = self.identify
        return options


def _jaas_options(text: str) -> dict[str, str]:
    """`username="…" password="…"` of a JAAS line (PlainLoginModule, ScramLoginModule)."""
    found = {}
    for match in JAAS_OPTION.finditer(text.split(" ", 1)[1] if " " in text.strip() else ""):
        quoted = match.group(2)
        found[match.group(1)] = (re.sub(r"\\(.)", r"\1", quoted) if quoted is not None
                                 else match.group(3) if match.group(3) is not None else match.group(4))  # fmt: skip
    return found


def kafka_python(entries: dict[str, str]) -> dict[str, object] | str:
    """kafka-python's keyword arguments, or why the settings cannot be used."""
    security = Security(entries)
    return security.refused or security.kafka_python()
