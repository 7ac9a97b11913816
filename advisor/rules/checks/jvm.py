"""JVM options of a broker (compose and .env variables, Strimzi jvmOptions, Helm heapOpts).

Each check gets the rule context (rules/context.py) and the config set and returns Violations."""

from __future__ import annotations

from advisor import TYPE_CHECKING, lazy_re
from advisor.model.document import ConfigSet
from advisor.rules.registry import python_check
from advisor.rules.violation import Violation

if TYPE_CHECKING:
    from typing import Any

_PARALLEL_GC = lazy_re.compile(r"-XX:\+UseParallel(Old)?GC\b")


_XMX = lazy_re.compile(r"-Xmx(\d+)([kKmMgGtT]?)\b")


_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}


@python_check()
def jvm_parallel_gc(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """-XX:+UseParallelGC in any JVM variable (-XX:ParallelGCThreads alone is not this collector)."""
    for variable, entry in (config_set.facts.get("jvm") or {}).items():
        if _PARALLEL_GC.search(entry["value"]):
            return [Violation(line=entry["line"], message=f"{variable} selects the Parallel collector")]
    return []


@python_check()
def jvm_heap_too_large(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    for variable, entry in (config_set.facts.get("jvm") or {}).items():
        for number, unit in _XMX.findall(entry["value"]):
            size = int(number) * _UNITS[unit.lower()]
            if size > values["params"]["max_heap_gib"] * 1024**3:
                gib = size / 1024**3
                return [Violation(line=entry["line"], message=f"{variable} gives the broker a {gib:g} GiB heap")]
    return []
