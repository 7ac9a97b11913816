"""Helm values the chart never reads: a value under a key no template of the chart looks at is
dropped by Helm without a word (catalog chart_values.json, generated from the charts' history
by tools/catalog/gen_chart_values.py).

Each check gets the rule context (rules/context.py) and the config set and returns Violations."""

from __future__ import annotations

from functools import cache

from advisor import TYPE_CHECKING, catalog
from advisor.catalog import charts
from advisor.catalog.charts import within
from advisor.model import chart_values
from advisor.model.document import ConfigSet
from advisor.model.provenance import Location
from advisor.rules.registry import python_check
from advisor.rules.violation import Violation

if TYPE_CHECKING:
    from typing import Any

SEPARATOR = chart_values.SEPARATOR
CHART_NAMES = {"bitnami-kafka": "Bitnami kafka", "cp-kafka": "cp-helm-charts cp-kafka"}


def _majors(ranges: list[list[int]]) -> str:
    return ", ".join(str(low) if low == high else f"{low}-{high}" for low, high in ranges)


def _property_map(chart: str, major: int | None) -> str | None:
    """Where the chart takes server.properties keys, for a Kafka key written beside its values."""
    if chart == "cp-kafka":
        return "configurationOverrides"
    if major is not None and major >= 32:
        return "overrideConfiguration"
    if major is not None and major >= 24:
        return "extraConfig (server.properties text) or the role's config"
    return None


def _hint(chart: str, path: str, major: int | None, data: dict[str, Any]) -> str | None:
    """The key the chart reads that was meant, when one is plain: a broker property's place, or
    a close spelling among the chart's keys at the same level."""
    known, opened = data["known"], data["open"]
    parent, _, leaf = path.rpartition(SEPARATOR)
    if "." in leaf and catalog.exists(leaf, "broker"):
        target = _property_map(chart, major)
        return f"{leaf} under {target}" if target else None
    # the same value one level down, under a section of the chart's own (chart 24's controller and
    # broker), not a subchart's
    depth = path.count(SEPARATOR) + 1
    moved = [p for p, r in known.items() if p.endswith(SEPARATOR + path) and within(r, major)
             and p.count(SEPARATOR) == depth and not within(opened.get(p.split(SEPARATOR)[0]), major)]  # fmt: skip
    if major is not None and 0 < len(moved) <= 2:
        return " and ".join(_shown(p.split(SEPARATOR)) for p in sorted(moved))
    import difflib  # only when a key is unknown: a run without such keys never loads it

    close = difflib.get_close_matches(leaf, _children(chart, parent, major), n=1, cutoff=0.75)
    return _shown([*parent.split(SEPARATOR), close[0]] if parent else [close[0]]) if close else None


@cache
def _at(chart: str, kind: str, major: int | None) -> frozenset[str]:
    """The chart's known or open paths at `major` (at any version when None)."""
    return frozenset(p for p, r in charts.chart(chart)[kind].items() if within(r, major))


@cache
def _children(chart: str, parent: str, major: int | None) -> tuple[str, ...]:
    """The keys directly under `parent` ("" for the top) that the chart at `major` reads."""
    prefix = f"{parent}{SEPARATOR}" if parent else ""
    below = (
        p[len(prefix) :] for p, r in charts.chart(chart)["known"].items() if p.startswith(prefix) and within(r, major)
    )
    return tuple(key for key in below if SEPARATOR not in key)


def _shown(segments: list[str]) -> str:
    """a.b.c, with a segment that holds dots quoted when it is not alone (a."log.dirs")."""
    if len(segments) == 1:
        return segments[0]
    return ".".join(f'"{s}"' if "." in s else s for s in segments)


def _major(version: str | None) -> int | None:
    head = (version or "").split(".", 1)[0]
    return int(head) if head.isdigit() else None


@python_check(arguments=("value", "chart", "reason"))
def chart_value_never_read(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """Written values no template of the chart (of its version, when known) reads."""
    recorded = config_set.facts.get("chart_values")
    if not recorded or recorded["chart"] not in CHART_NAMES or not recorded.get("identified"):
        return []
    chart = recorded["chart"]
    data = charts.chart(chart)
    major = _major(recorded.get("version"))
    if major is not None and major not in data["majors"]:
        major = None  # a version the history does not have: judged against every version
    known = data["known"]
    read, opened = _at(chart, "known", major), _at(chart, "open", major)
    found: list[Violation] = []
    reported: set[str] = set()
    for path, line, column, written_in in chart_values.entries(recorded):
        if path in read:
            continue  # the common case: a key the chart reads
        ancestors = [path[:at] for at, c in enumerate(path) if c == SEPARATOR]
        if any(a in opened or a in reported for a in ancestors):
            continue  # the user's own keys of a map the chart passes whole, or under a reported one
        if path == "enabled" and recorded.get("nested"):
            continue  # a subchart's `enabled` is its umbrella's dependency condition
        ever = known.get(path)
        if major is not None and ever:
            reason = f"chart {major} does not read it; charts {_majors(ever)} did"
        elif major is not None:
            reason = f"no template of chart {major} reads it"
        else:
            reason = "no version of the chart reads it"
        reported.add(path)
        arguments = {"value": _shown(path.split(SEPARATOR)), "chart": CHART_NAMES[chart], "reason": reason}
        meant = _hint(chart, path, major, data)
        where = Location(written_in or config_set.path, line, column)
        found.append(Violation(location=where, arguments=arguments, recommended=meant))
    return found
