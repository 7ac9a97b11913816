"""Secrets written in clear and listeners open without authentication or encryption.

Each check gets the rule context (rules/context.py) and the config set and returns Violations."""

from __future__ import annotations

import re

from advisor import TYPE_CHECKING, catalog, lazy_re
from advisor.analysis.listeners import protocol_map
from advisor.analysis.values import is_template
from advisor.model.document import ConfigSet
from advisor.model.provenance import Location
from advisor.rules.registry import python_check
from advisor.rules.violation import Violation

if TYPE_CHECKING:
    from typing import Any

_SECRET_NAME = lazy_re.compile(r"(password|secret)$", re.IGNORECASE)


# JAAS options that hold a secret: PLAIN/SCRAM password, OAuth client secrets (Kafka's own
# clientSecret, Strimzi's oauth.client.secret, client_secret in vendor login modules).
_JAAS_PASSWORD = lazy_re.compile(
    r"(?P<name>password|clientSecret|client_secret|oauth\.client\.secret)\s*=\s*(?P<value>\"[^\"]*\"|'[^']*'|[^\s;]+)",
    re.IGNORECASE,
)


def _is_reference(value: str) -> bool:
    """${file:...}/${env:...} config providers, ${VAR} templates and {{ }} chart values hold no secret."""
    value = value.strip().strip("\"'")
    return value == "" or is_template(value)


def _secret_source(config_set: ConfigSet) -> str | None:
    """Where the secret should come from for this software (None: the rule's own text, a Java
    config provider). librdkafka and kafka-python do not resolve ${file:...} providers: a
    reference of that shape reaches the broker as the password itself."""
    if config_set.facts.get("spring"):
        return "a Spring placeholder resolved from the environment or a secret store, e.g. ${KAFKA_PASSWORD}"
    if config_set.client in ("librdkafka", "kafka-python"):
        return (
            f"read it in the application from the environment or a secret store ({config_set.client} does not "
            "resolve Kafka's ${file:...} config providers)"
        )
    return None


@python_check(arguments=("key",))
def plaintext_secret(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """Passwords written into the config itself. The value is never read into the finding."""
    outcomes: list[Violation] = []
    instead = _secret_source(config_set)
    for key, setting in config_set.settings.items():
        if not setting.secret:
            continue  # every password-typed key is secret (tests/lint/test_secrets.py): skip the rest cheaply
        if key.endswith("jaas.config"):  # listener.name.<l>.<mechanism>.sasl.jaas.config too
            literal = [m["name"] for m in _JAAS_PASSWORD.finditer(setting.value) if not _is_reference(m["value"])]
            if literal:
                what = "a password" if all(name.lower() == "password" for name in literal) else "a client secret"
                message = f"{setting.spelling} holds {what} in clear text"
                outcomes.append(Violation(keys=(key,), message=message, recommended=instead))
            continue
        facts = catalog.lookup(key, config_set.component, kafka_version=values["kafka_version"])
        is_password = (facts is not None and facts.type == "PASSWORD") or bool(_SECRET_NAME.search(key))
        if is_password and not _is_reference(setting.value):
            message = f"{setting.spelling} is written in clear text"
            outcomes.append(Violation(keys=(key,), message=message, recommended=instead))
    for secret in config_set.facts.get("chart_secrets") or []:  # Helm values: the chart's own password values
        message = f"{secret['name']} holds a password in clear text in the chart values"
        where = Location(secret.get("path") or config_set.path, secret["line"])  # a helm_release's set: its .tf
        outcomes.append(Violation(keys=(), location=where, message=message))
    return outcomes


_LISTENER = lazy_re.compile(r"^\s*(?P<name>[A-Za-z0-9_]+)://(?P<host>\[[^\]]*\]|[^:]*):(?P<port>\d+)\s*$")


_LOOPBACK = lazy_re.compile(r"^(localhost|127(\.\d+){3}|\[?::1\]?)$", re.IGNORECASE)


@python_check()
def plaintext_listener_beyond_loopback(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """Client-facing PLAINTEXT listeners bound to anything but loopback (controller listeners aside)."""
    effective = values["effective"]
    listeners = values["set"].get("listeners")  # the written value: a partial file says nothing of the default
    key, derived = "listeners", ""
    if not listeners and _binds_advertised(config_set, values):
        listeners = _ANY_HOST.sub(r"\g<name>://0.0.0.0:", str(values["set"]["advertised.listeners"]))
        key, derived = "advertised.listeners", " (the image binds the advertised listeners' ports on 0.0.0.0)"
    if not listeners or is_template(str(listeners)) or "listeners" in config_set.facts.get("strimzi_forbidden", []):
        return []  # Strimzi builds listeners from spec.kafka.listeners, not from config (KB109)
    protocols = protocol_map(effective.get("listener.security.protocol.map"))
    controllers = {n.strip().upper() for n in str(effective.get("controller.listener.names") or "").split(",")}
    exposed = []
    for item in str(listeners).split(","):
        match = _LISTENER.match(item)
        if not match or match["name"].upper() in controllers:
            continue
        name = match["name"].upper()
        if protocols.get(name, name) == "PLAINTEXT" and not _LOOPBACK.match(match["host"]):
            exposed.append(f"{match['name']}://{match['host'] or '(all interfaces)'}:{match['port']}")
    if not exposed:
        return []
    message = f"PLAINTEXT listener {', '.join(exposed)}{derived} accepts unauthenticated, unencrypted clients"
    return [Violation(keys=(key,), message=message)]


# Confluent's images set listeners, when KAFKA_LISTENERS is unset, to the advertised listeners with
# every host replaced by 0.0.0.0 (kafka-images: etc/confluent/docker/configure, `cub listeners`).
_ANY_HOST = lazy_re.compile(r"(?P<name>[A-Za-z0-9_]+)://(?:\[[^\]]*\]|[^:,]*):")


def _binds_advertised(config_set: ConfigSet, values: dict[str, Any]) -> bool:
    image = str(config_set.facts.get("image") or "")
    return "confluentinc/" in image and bool(values["set"].get("advertised.listeners"))


def _listeners(values: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """(name, host, port, protocol) of each client-facing listener written in `listeners`."""
    effective = values["effective"]
    protocols = protocol_map(effective.get("listener.security.protocol.map"))
    controllers = {n.strip().upper() for n in str(effective.get("controller.listener.names") or "").split(",")}
    found = []
    for item in str(values["set"].get("listeners") or "").split(","):
        match = _LISTENER.match(item)
        if match and match["name"].upper() not in controllers:
            name = match["name"].upper()
            found.append((match["name"], match["host"], match["port"], protocols.get(name, name)))
    return found


@python_check()
def sasl_plaintext_listener(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """Client-facing SASL_PLAINTEXT listeners bound beyond loopback: authenticated, not encrypted."""
    listeners = values["set"].get("listeners")
    if not listeners or is_template(str(listeners)) or "listeners" in config_set.facts.get("strimzi_forbidden", []):
        return []
    exposed = [
        f"{name}://{host or '(all interfaces)'}:{port}"
        for name, host, port, protocol in _listeners(values)
        if protocol == "SASL_PLAINTEXT" and not _LOOPBACK.match(host)
    ]
    if not exposed:
        return []
    mechanisms = {m.strip().upper() for m in str(values["effective"].get("sasl.enabled.mechanisms") or "").split(",")}
    plain = " and, with the PLAIN mechanism enabled, every client's password" if "PLAIN" in mechanisms else ""
    message = (
        f"SASL_PLAINTEXT listener {', '.join(exposed)} authenticates clients but encrypts nothing: "
        f"records{plain} cross the network in clear"
    )
    return [Violation(keys=("listeners",), message=message)]


_ANONYMOUS = lazy_re.compile(r"(^|;)\s*User:ANONYMOUS\s*(;|$)")


@python_check()
def super_users_anonymous(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """super.users naming the principal every unauthenticated connection gets."""
    setting = config_set.settings.get("super.users")
    if setting is None or not _ANONYMOUS.search(setting.value):
        return []
    return [Violation(keys=("super.users",))]


_LISTENER_PREFIX = lazy_re.compile(r"^listener\.name\.(?P<listener>[^.]+)\.")


@python_check(arguments=("key", "listener"))
def listener_override_for_unknown_listener(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """`listener.name.X.*` for a listener X the broker does not define: the override does nothing.
    Judged only where the listener names are written (listeners or the protocol map)."""
    effective = values["effective"]
    written = values["set"]
    if written.get("listeners") is None and written.get("listener.security.protocol.map") is None:
        return []
    texts = [str(effective.get(k) or "") for k in ("listeners", "advertised.listeners", "controller.listener.names")]
    if any(is_template(text) for text in texts):
        return []
    known = set(protocol_map(effective.get("listener.security.protocol.map")))
    for item in texts[0].split(",") + texts[1].split(","):
        name, separator, _ = item.strip().partition("://")
        if separator:
            known.add(name.upper())
    known |= {name.strip().upper() for name in texts[2].split(",") if name.strip()}
    if config_set.facts.get("strimzi_forbidden"):
        return []  # Strimzi defines its listeners outside config
    outcomes = []
    for key in config_set.settings:
        match = _LISTENER_PREFIX.match(key)
        if match and match["listener"].upper() not in known:
            listener = match["listener"].upper()
            outcomes.append(Violation(keys=(key,), arguments={"key": key, "listener": listener}))
    return outcomes


# Authorizer classes a release removed: (release that removed it, what replaces it). Checked
# against the class files of Kafka 2.8.2, 3.9.1 and 4.4.0 by tests/integration/test_broker_start_oracle.py.
REMOVED_AUTHORIZERS = {
    "kafka.security.auth.SimpleAclAuthorizer": (
        (3, 0, 0),
        "kafka.security.authorizer.AclAuthorizer (ZooKeeper mode) or "
        "org.apache.kafka.metadata.authorizer.StandardAuthorizer (KRaft)",
    ),
    "kafka.security.authorizer.AclAuthorizer": ((4, 0, 0), "org.apache.kafka.metadata.authorizer.StandardAuthorizer"),
}


@python_check(arguments=("removed_in", "replacement"))
def removed_authorizer_class(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """authorizer.class.name naming a class the judged release no longer ships."""
    setting = config_set.settings.get("authorizer.class.name")
    if setting is None or setting.value.strip() not in REMOVED_AUTHORIZERS:
        return []
    removed_in, replacement = REMOVED_AUTHORIZERS[setting.value.strip()]
    if catalog.versions.parse(values["kafka_version"]) < removed_in:
        return []
    release = ".".join(map(str, removed_in[:2]))
    return [Violation(keys=("authorizer.class.name",), arguments={"removed_in": release, "replacement": replacement})]


@python_check(arguments=("listener", "missing"))
def strimzi_external_listener_unprotected(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """Strimzi listeners that reach beyond Kubernetes (nodeport, loadbalancer, route, ingress)
    without TLS or without client authentication."""
    outcomes = []
    for listener in config_set.facts.get("listeners") or []:
        if not listener["external"]:
            continue
        missing = [
            word
            for word, absent in (("TLS", not listener["tls"]), ("authentication", not listener["authentication"]))
            if absent
        ]
        if not missing:
            continue
        where = Location(config_set.path, listener["line"], listener["column"])
        arguments = {"listener": f"{listener['name']} ({listener['type']})", "missing": " or ".join(missing)}
        outcomes.append(Violation(keys=(), location=where, arguments=arguments))
    return outcomes


_REAUTH = "connections.max.reauth.ms"
REAUTH_FLOOR_MS = 60_000  # below a minute a session lifetime reads as seconds written for milliseconds


@python_check(arguments=("key", "value", "seconds"))
def reauthentication_in_seconds(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """connections.max.reauth.ms, broker-wide or per listener and mechanism, positive and under a minute."""
    found = []
    for key, setting in config_set.settings.items():
        if not (key == _REAUTH or (key.startswith("listener.name.") and key.endswith("." + _REAUTH))):
            continue
        text = setting.value.strip()
        if not text.isdigit() or not 0 < int(text) < REAUTH_FLOOR_MS:
            continue  # 0 (the default) turns re-authentication off; templates and typos are KB110's
        seconds = f"{int(text) / 1000:g}"
        found.append(Violation(keys=(key,), arguments={"key": setting.spelling, "value": text, "seconds": seconds}))
    return found
