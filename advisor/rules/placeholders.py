"""Placeholders in a rule's `message` and `recommended` texts, checked when the rule set is
validated: a misspelled `{min.insync.replica}` would otherwise render "(unset)" silently.

A placeholder names a config key (its effective value), a context field (`{kafka_version}`),
or a field of one section of the rule context: `{set.K}`, `{effective.K}`, `{defaults.K}`
(a config key), `{cluster.F}` (analysis/cluster_facts.py FIELDS), `{peers.F}`
(analysis/peers.py FIELDS), `{facts.F}` (model/document.py FACTS), or a message argument
that the rule's Python check declares (`{key}` for the key-by-key checks).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from advisor import lazy_re

PLACEHOLDER = lazy_re.compile(r"\{([A-Za-z0-9_.\-]+)\}")
TEMPLATED = ("message", "recommended")


def _known_key(key: str, components: list[str]) -> bool:
    from advisor import catalog
    from advisor.model.vocabulary import CLIENT_COMPONENTS, Client

    for component in components:
        if catalog.history(key, component):  # any Kafka release
            return True
        clients = Client.values() if component in CLIENT_COMPONENTS else ("java",)
        if any(catalog.exists(key, component, client=client) for client in clients):
            return True
    return False


@cache
def _load_checks() -> None:
    from advisor.rules import checks

    checks.load_all()  # their registrations name the arguments a check's messages may use


def _sections() -> dict[str, Any]:
    from advisor.analysis import cluster_facts, peers
    from advisor.model.document import FACTS

    return {"cluster": cluster_facts.FIELDS, "peers": peers.FIELDS, "facts": tuple(FACTS)}


def _param_names(raw: dict[str, Any]) -> tuple[str, ...]:
    return tuple(raw.get("params") or {})


def unknown(raw: dict[str, Any]) -> list[tuple[str, str]]:
    """(field, placeholder) for each placeholder of one rule definition (as read from YAML)
    that names nothing."""
    from advisor.rules import context
    from advisor.rules.registry import CHECK_ARGUMENTS

    _load_checks()

    arguments = CHECK_ARGUMENTS.get(raw.get("python") or "", ())
    components = list(raw.get("applies_to", {}).get("components", []))
    sections = _sections()
    bad = []
    for field in TEMPLATED:
        for name in PLACEHOLDER.findall(str(raw.get(field) or "")):
            section, _, rest = name.partition(".")
            if name in arguments or (section == "params" and rest in _param_names(raw)):
                known = True
            elif section in sections and rest:
                known = rest in sections[section]
            elif section in ("set", "effective", "defaults") and rest:
                known = _known_key(rest, components)
            else:
                known = name in context.FIELDS or _known_key(name, components)
            if not known:
                bad.append((field, f"{{{name}}}"))
    return bad
