"""Partition reassignment plans (the JSON that kafka-reassign-partitions reads and writes):
{"version": 1, "partitions": [{"topic": ..., "partition": ..., "replicas": [...]}]}.

A plan is one config set (component admin) with its moves as `facts.plan`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from advisor.model.document import ConfigSet, LoadError, SourceFile
from advisor.model.provenance import Location
from advisor.sources.structured import Located, read_json

FORMAT = "reassignment-plan"


def sniff(path: Path, text: str) -> Any:
    if path.suffix != ".json" or '"partitions"' not in text or '"replicas"' not in text:
        return None
    try:
        data = read_json(text, str(path))
    except LoadError:
        return None
    partitions = data.get("partitions") if isinstance(data, Located) else None
    if (
        isinstance(partitions, list)
        and partitions
        and all(isinstance(p, Located) and "replicas" in p for p in partitions)
    ):
        return data
    return None


def load(path: str, text: str, data: Any, options) -> tuple[SourceFile, list[ConfigSet]]:  # type: ignore[no-untyped-def]
    moves = []
    for move in data["partitions"]:
        replicas = move.get("replicas")
        if not isinstance(replicas, list):
            raise LoadError(path, move.position("replicas")[0], "replicas must be a list of broker ids")
        moves.append(
            {
                "topic": move.get("topic"),
                "partition": move.get("partition"),
                "replicas": [str(r) for r in replicas],
                "line": move.position("replicas")[0],
            }
        )
    config_set = ConfigSet(
        component="admin",
        path=path,
        anchor=Location(path, data.position("partitions")[0]),
        name=Path(path).name,
        facts={"plan": moves},
    )
    return SourceFile(path, text, FORMAT), [config_set]
