"""Secrets written in clear and listeners open without authentication or encryption.

Each check gets the rule context (rules/context.py) and the config set and returns Violations."""

from __future__ import annotations

import re
from typing import Any

from advisor import catalog
from advisor.analysis.values import is_template
from advisor.model.document import ConfigSet
from advisor.rules.registry import python_check
from advisor.rules.violation import Violation

_SECRET_NAME = re.compile(r"(password|secret)$", re.IGNORECASE)


_JAAS_PASSWORD = re.compile(r"password\s*=\s*(?P<value>\"[^\"]*\"|'[^']*'|[^\s;]+)", re.IGNORECASE)


def _is_reference(value: str) -> bool:
    """${file:...}/${env:...} config providers, ${VAR} templates and {{ }} chart values hold no secret."""
    value = value.strip().strip("\"'")
    return value == "" or is_template(value)


@python_check("plaintext-secret", arguments=("key",))
def plaintext_secret(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """Passwords written into the config itself. The value is never read into the finding."""
    outcomes: list[Violation] = []
    for key, setting in config_set.settings.items():
        if not setting.secret:
            continue  # every password-typed key is secret (tests/lint/test_secrets.py): skip the rest cheaply
        if key.endswith("jaas.config"):  # listener.name.<l>.<mechanism>.sasl.jaas.config too
            literal = [m["value"] for m in _JAAS_PASSWORD.finditer(setting.value) if not _is_reference(m["value"])]
            if literal:
                outcomes.append(Violation(keys=(key,), message=f"{setting.spelling} holds a password in clear text"))
            continue
        facts = catalog.lookup(key, config_set.component, kafka_version=values["kafka_version"])
        is_password = (facts is not None and facts.type == "PASSWORD") or bool(_SECRET_NAME.search(key))
        if is_password and not _is_reference(setting.value):
            outcomes.append(Violation(keys=(key,), message=f"{setting.spelling} is written in clear text"))
    return outcomes


_LISTENER = re.compile(r"^\s*(?P<name>[A-Za-z0-9_]+)://(?P<host>\[[^\]]*\]|[^:]*):(?P<port>\d+)\s*$")


_LOOPBACK = re.compile(r"^(localhost|127(\.\d+){3}|\[?::1\]?)$", re.IGNORECASE)


def _protocol_map(text: str | None) -> dict[str, str]:
    pairs = (item.split(":", 1) for item in (text or "").split(",") if ":" in item)
    return {name.strip().upper(): protocol.strip().upper() for name, protocol in pairs}


@python_check("plaintext-listener-beyond-loopback")
def plaintext_listener_beyond_loopback(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """Client-facing PLAINTEXT listeners bound to anything but loopback (controller listeners aside)."""
    effective = values["effective"]
    listeners = values["set"].get("listeners")  # the written value: a partial file says nothing of the default
    if not listeners or is_template(str(listeners)) or "listeners" in config_set.facts.get("strimzi_forbidden", []):
        return []  # Strimzi builds listeners from spec.kafka.listeners, not from config (KB109)
    protocols = _protocol_map(effective.get("listener.security.protocol.map"))
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
    message = f"PLAINTEXT listener {', '.join(exposed)} accepts unauthenticated, unencrypted clients"
    return [Violation(keys=("listeners",), message=message)]
