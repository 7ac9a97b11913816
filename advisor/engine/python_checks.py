"""Checks that a JMESPath predicate cannot express, registered by name for rule files.

Each takes the rule context (see engine/context.py) and the config set and returns
None or a dict overriding the rule's message/keys/recommended for this finding.
"""

from __future__ import annotations

from typing import Any

from advisor import catalog
from advisor.document import ConfigSet
from advisor.engine.registry import python_check


def _release_minor(release: str) -> str:
    return ".".join(release.split(".")[:2])


@python_check("unknown-key")
def unknown_key(values: dict[str, Any], config_set: ConfigSet) -> list[dict[str, Any]]:
    """One finding per key this component/client/version does not know: a removed key
    names its release, a wrong-place key its owner, others get the closest spelling."""
    component, client, release = config_set.component, config_set.client, values["kafka_version"]
    outcomes = []
    for key, setting in config_set.settings.items():
        # Clients other than Java are judged by the name as written (snake_case, aliases).
        name = key if client == "java" else setting.spelling
        if catalog.exists(name, component, kafka_version=release, client=client):
            continue
        what = f"{setting.spelling} is not a {client} {component} setting in Kafka {_release_minor(release)}"
        removed = [e for e in catalog.history(name, component) if e.event == "removed"] if client == "java" else []
        owners = [o for o in catalog.owners(name, kafka_version=release) if o != component]
        hint = catalog.suggest(name, component, kafka_version=release, client=client)
        if removed:
            what = f"{setting.spelling} was removed in Kafka {_release_minor(removed[-1].version)}"
            recommended = "remove it"
        elif hint:
            what += f" (did you mean {hint[0]}?)"
            recommended = hint[0]
        elif owners:
            what += f"; it is a {'/'.join(owners)} setting"
            recommended = f"set it on the {owners[0]}"
        else:
            recommended = "remove it or correct the spelling"
        outcomes.append({"keys": [key], "message": what, "recommended": recommended})
    return outcomes


@python_check("never-per-config-set")
def never(values: dict[str, Any], config_set: ConfigSet) -> list[dict[str, Any]]:
    """For rules reported outside config-set evaluation (KO001 comes from advisor/suppress.py)."""
    return []
