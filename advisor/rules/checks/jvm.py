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
_HEAP_FLAG = lazy_re.compile(r"(?<!\S)-Xm([sx])(\d+)([kKmMgGtT]?)(?!\S)")
# The order kafka-run-class.sh passes them to java (`$KAFKA_HEAP_OPTS $KAFKA_JVM_PERFORMANCE_OPTS
# $KAFKA_GC_LOG_OPTS ... $KAFKA_OPTS`): of a flag given twice, the JVM keeps the last.
_RUN_CLASS_ORDER = ("KAFKA_HEAP_OPTS", "KAFKA_JVM_PERFORMANCE_OPTS", "KAFKA_GC_LOG_OPTS", "KAFKA_OPTS")


_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}
_JVM_SIZE_LIMIT = 2**64  # HotSpot parses sizes as 64-bit unsigned: at or past it, "Invalid maximum heap size"


def _bytes(number: str, unit: str) -> int:
    """The bytes a heap flag asks for; _JVM_SIZE_LIMIT for any number too long to be a size (its
    digits counted first: a 5,000-digit number is no int to convert)."""
    if len(number.lstrip("0")) > 20:
        return _JVM_SIZE_LIMIT
    return min(int(number) * _UNITS[unit.lower()], _JVM_SIZE_LIMIT)


def _size(number: str, unit: str) -> int | None:
    """The bytes an -Xmx asks for, or None for one no JVM starts with (0, or too large to parse)."""
    size = _bytes(number, unit)
    return size if 0 < size < _JVM_SIZE_LIMIT else None


def _at(entry: dict[str, Any]) -> dict[str, Any]:
    """Where a JVM entry is written: a line of the config set's file, or of the file named
    (a helm_release's `set` of heapOpts over the values file it names: its .tf)."""
    if entry.get("path"):
        from advisor.model.provenance import Location

        return {"location": Location(entry["path"], entry["line"])}
    return {"line": entry["line"]}


def _in_run_order(jvm: dict[str, dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """The JVM entries in the order java receives them (Strimzi's and the charts' first, as written)."""
    rank = {name: index for index, name in enumerate(_RUN_CLASS_ORDER)}
    return sorted(jvm.items(), key=lambda item: rank.get(item[0], -1))


@python_check()
def jvm_heap_refused(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """Options the JVM refuses as it parses them — any -Xmx of 0, any -Xmx or -Xms past 64 bits of
    bytes (each occurrence is checked, not only the last) — or a final -Xms above the final -Xmx
    (of a flag given twice the last counts). Only what is written: the start script's default
    (-Xmx1G -Xms1G without KAFKA_HEAP_OPTS) is not assumed."""
    last: dict[str, tuple[int, str, str, dict[str, Any]]] = {}  # s/x → (bytes, flag as written, variable, entry)
    for variable, entry in _in_run_order(config_set.facts.get("jvm") or {}):
        for which, number, unit in _HEAP_FLAG.findall(entry["value"]):
            size, flag = _bytes(number, unit), f"-Xm{which}{number}{unit}"
            shown = flag if len(flag) <= 40 else f"{flag[:24]}… ({len(flag)} characters)"
            if size >= _JVM_SIZE_LIMIT or (which == "x" and size == 0):
                kind = "maximum" if which == "x" else "initial"
                why = "a heap size past 16 EiB, which it cannot parse" if size else "a maximum heap of 0"
                message = (f"{variable} sets {shown}: the JVM refuses {why} (Invalid {kind} heap size); the broker "
                           "does not start")  # fmt: skip
                return [Violation(message=message, **_at(entry))]
            last[which] = (size, shown, variable, entry)
    if "s" in last and "x" in last and last["s"][0] > last["x"][0]:
        _, initial, variable, entry = last["s"]
        _, maximum, where, _ = last["x"]
        beside = "" if where == variable else f" in {where}"
        message = (f"{variable} sets {initial}, above the {maximum}{beside}: the JVM refuses an initial heap larger "
                   "than the maximum, and the broker does not start")  # fmt: skip
        return [Violation(message=message, **_at(entry))]
    return []


@python_check()
def jvm_parallel_gc(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """-XX:+UseParallelGC in any JVM variable (-XX:ParallelGCThreads alone is not this collector)."""
    for variable, entry in (config_set.facts.get("jvm") or {}).items():
        if _PARALLEL_GC.search(entry["value"]):
            return [Violation(message=f"{variable} selects the Parallel collector", **_at(entry))]
    return []


@python_check()
def jvm_heap_too_large(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    for variable, entry in (config_set.facts.get("jvm") or {}).items():
        for number, unit in _XMX.findall(entry["value"]):
            size = _size(number, unit)
            if size is not None and size > values["params"]["max_heap_gib"] * 1024**3:
                gib = size / 1024**3
                return [Violation(message=f"{variable} gives the broker a {gib:g} GiB heap", **_at(entry))]
    return []


# A Kubernetes memory quantity: a number (fraction or exponent allowed) and a binary or decimal suffix.
_QUANTITY = lazy_re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)(?:[eE]([0-9]{1,2}))?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?\s*$")
_QUANTITY_UNITS = {None: 1, "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15, "E": 10**18}
_QUANTITY_UNITS |= {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}


def memory_quantity(text: str) -> int | None:
    """Bytes of a Kubernetes memory quantity (4Gi, 4096M, 1.5Gi, 129e6); None for what is none."""
    match = _QUANTITY.match(text)
    if match is None:
        return None
    number, exponent, unit = match.groups()
    return int(float(number) * 10 ** int(exponent or 0) * _QUANTITY_UNITS[unit])


def _final_xmx(jvm: dict[str, dict[str, Any]]) -> tuple[int, str, str, dict[str, Any]] | None:
    """(bytes, flag, variable, entry) of the -Xmx the JVM keeps: the last in run order."""
    found = None
    for variable, entry in _in_run_order(jvm):
        for which, number, unit in _HEAP_FLAG.findall(entry["value"]):
            if which == "x" and (size := _size(number, unit)) is not None:
                found = (size, f"-Xmx{number}{unit}", variable, entry)
    return found


@python_check()
def jvm_heap_fills_memory_limit(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """The written maximum heap at or above the container's memory limit. Only a written -Xmx:
    the start script's default when KAFKA_HEAP_OPTS is unset is not assumed."""
    limit_fact = config_set.facts.get("memory_limit")
    heap = _final_xmx(config_set.facts.get("jvm") or {})
    limit = memory_quantity(str(limit_fact["value"])) if limit_fact else None
    if heap is None or not limit or heap[0] < limit:
        return []
    _, flag, variable, entry = heap
    message = (
        f"{variable} sets {flag}, at or above the container's memory limit of {limit_fact['value']}: "  # type: ignore[index]
        "the JVM's memory beyond its heap (metaspace, code cache, thread stacks, direct buffers) takes the "
        "container past its limit as the heap fills, and the broker is OOM-killed"
    )
    return [Violation(message=message, **_at(entry))]
