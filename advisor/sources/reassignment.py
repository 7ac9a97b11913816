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


_BROKER_ID_MAX = 2**31 - 1  # Kafka reads broker ids and partitions as Java ints


def _count(value: Any) -> int | None:
    """A JSON whole number Kafka reads as an int (0 … 2^31-1), else None."""
    text = value if isinstance(value, str) else None
    if text is None or not (text.isascii() and text.isdigit()) or int(text) > _BROKER_ID_MAX:
        return None
    return int(text)


def load(path: str, text: str, data: Any, options) -> tuple[SourceFile, list[ConfigSet]]:  # type: ignore[no-untyped-def]
    moves = []
    for move in data["partitions"]:
        line = move.position("replicas")[0]
        replicas = move.get("replicas")
        if not isinstance(replicas, list) or any(_count(r) is None for r in replicas):
            raise LoadError(path, line, "replicas must be a list of broker ids (whole numbers from 0 to 2147483647)")
        topic, partition = move.get("topic"), move.get("partition")
        if not isinstance(topic, str) or not topic:
            where = move.position("topic")[0] if "topic" in move else line
            raise LoadError(path, where, "each move needs a topic name (a string)")
        if _count(partition) is None:
            where = move.position("partition")[0] if "partition" in move else line
            raise LoadError(path, where, "each move needs a partition (a whole number from 0 to 2147483647)")
        moves.append({"topic": topic, "partition": partition, "replicas": [str(r) for r in replicas], "line": line})
    config_set = ConfigSet(
        component="admin",
        path=path,
        anchor=Location(path, data.position("partitions")[0]),
        name=Path(path).name,
        facts={"plan": moves},
    )
    return SourceFile(path, text, FORMAT), [config_set]
