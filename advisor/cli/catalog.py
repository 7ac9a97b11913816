"""`kafka-advisor catalog KEY`: what a configuration key is, per version and client.

Exit codes: 0 the key exists for that component/client/version; 1 it does not
(its history and "did you mean" suggestions are still printed); 2 usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from advisor.model.vocabulary import Client, Component

CLIENTS = Client.values()
COMPONENTS = Component.values()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("key", metavar="KEY", help="configuration key, e.g. linger.ms")
    parser.add_argument("--kafka-version", metavar="V", help="Kafka version (default: newest in the catalog)")
    parser.add_argument("--client", choices=CLIENTS, default="java", help="client library (default: java)")
    parser.add_argument("--component", choices=COMPONENTS, help="default: the first component that defines KEY")
    parser.add_argument("--format", choices=("text", "json"), default="text")


def _pick_component(catalog: Any, key: str, client: str, version: str | None) -> str:
    if client != "java":
        for component in catalog.CLIENT_COMPONENTS:
            if catalog.exists(key, component, kafka_version=version, client=client):
                return component
        # Unknown to this client: judge it where Kafka itself uses the key (a consumer key stays a consumer key).
        java_owners = [c for c in catalog.owners(key, kafka_version=version) if c in catalog.CLIENT_COMPONENTS]
        return java_owners[0] if java_owners else "producer"
    owners = catalog.owners(key, kafka_version=version)
    if owners:
        return owners[0]
    # Not defined in this version: pick a component whose history knows the key.
    for component in COMPONENTS:
        if catalog.history(key, component):
            return component
    return "producer"


def describe(key: str, client: str, component: str | None, version: str | None) -> dict[str, Any]:
    """The JSON object `catalog --format json` prints."""
    from advisor import catalog

    component = component or _pick_component(catalog, key, client, version)
    facts = catalog.lookup(key, component, kafka_version=version, client=client)
    history_key = facts.java_key if facts and facts.java_key else key
    result: dict[str, Any] = {
        "key": key,
        "component": component,
        "client": client,
        "kafka_version": catalog.resolve_version(version),
        "requested_kafka_version": version,
        "exists": facts is not None,
    }
    fields = facts._asdict() if facts else {}
    for name in ("type", "default", "default_text", "required", "valid", "min", "max", "choices", "importance"):
        result[name] = fields.get(name)
    result["dynamic"] = fields.get("dynamic")
    for name in ("doc", "alias_of", "java_key", "broker_synonyms", "client_version", "deprecated", "internal", "roles"):
        result[name] = fields.get(name)
    result["applies"] = fields.get("applies", False)
    result["owners"] = catalog.owners(history_key, kafka_version=version)
    # Release history is known for Kafka's own definitions (Java, and kafka-python keys that map to one).
    has_history = client == "java" or (facts is not None and facts.java_key is not None)
    result["history"] = [e._asdict() for e in catalog.history(history_key, component)] if has_history else []
    if facts is None:
        result["suggestions"] = catalog.suggest(key, component, kafka_version=version, client=client)
    return result


def _render_text(info: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console(highlight=False)
    # Catalog text such as "[all, -1, 0, 1]" would otherwise be read as rich markup.
    title = escape(f"{info['key']} — {info['client']} {info['component']}, Kafka {info['kafka_version']}")
    if not info["exists"]:
        console.print(f"[bold red]{title}: not a known key[/]")
        if info["suggestions"]:
            console.print(escape("did you mean: " + ", ".join(info["suggestions"])))
    else:
        table = Table(title=title, show_header=False)
        table.add_column("field", style="bold")
        table.add_column("value")
        shown = ("type", "default_text", "required", "valid", "importance", "dynamic", "alias_of", "java_key")
        for name in shown:
            if info.get(name) not in (None, False, [], ()):
                table.add_row(name.replace("_text", ""), escape(str(info[name])))
        if info.get("broker_synonyms"):
            table.add_row("broker synonyms", escape(", ".join(info["broker_synonyms"])))
        if info["owners"]:
            table.add_row("defined for", ", ".join(info["owners"]))
        table.add_row("doc", escape(info.get("doc") or ""))
        console.print(table)
    if info["history"]:
        history = Table(title=escape(f"history of {info['key']} ({info['component']}, Apache Kafka)"))
        for column in ("first seen in", "after", "event", "default", "what changed"):
            history.add_column(column)
        for event in info["history"]:
            history.add_row(
                event["version"],
                event["previous"] or "",
                event["event"],
                escape(event["default"] or ""),
                ", ".join(event["changes"]),
            )
        console.print(history)


def run(args: argparse.Namespace) -> int:
    from advisor.catalog import UnknownVersionError

    try:
        info = describe(args.key, args.client, args.component, args.kafka_version)
    except (UnknownVersionError, ValueError) as error:
        print(f"kafka-advisor catalog: error: {error}", file=sys.stderr)
        return 2
    if args.format == "json":
        print(json.dumps(info, indent=2, sort_keys=True))
    else:
        _render_text(info)
    return 0 if info["exists"] else 1
