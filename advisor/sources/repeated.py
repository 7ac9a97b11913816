"""Keys written twice in one place (a .properties file, a custom resource's config mapping): one
of the two never reaches Kafka, and nothing says which was meant. Loaders note them here for KX113."""

from __future__ import annotations

from advisor.model.document import ConfigSet


def repeated(config_set: ConfigSet, key: str, spelling: str, first: int, line: int, *, later_wins: bool) -> None:
    """`later_wins`: the format's reader certainly keeps the later (java.util.Properties); else which
    one a tool keeps, or whether it refuses the file, is the tool's (YAML's spec forbids the repeat)."""
    config_set.facts.setdefault("repeated", []).append(
        {"key": key, "spelling": spelling, "first": first, "line": line, "later_wins": later_wins}
    )
