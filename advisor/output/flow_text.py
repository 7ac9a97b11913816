"""The flow-control view as text lines (plain and colour share them): consumer groups with their
lag in records and seconds, the in/out scissors and the drain time; Zeebe's exporters the same way;
disks with their time to full; topics with their replication traffic. Renders the Report's `flow`
record and decides nothing."""

from __future__ import annotations

import math
from typing import Any

_BARS = "▁▂▃▄▅▆▇█"


def sparkline(values: list[float], width: int = 16) -> str:
    """The shape of a series in block characters (the last `width` values; flat is the lowest bar)."""
    shown = [v for v in values if v is not None and math.isfinite(v)][-width:]
    if len(shown) < 2:
        return ""
    low, high = min(shown), max(shown)
    if high == low:
        return _BARS[0] * len(shown)
    span = high / 2 - low / 2  # halves: the difference of two huge numbers must not overflow
    return "".join(_BARS[round((v / 2 - low / 2) / span * (len(_BARS) - 1))] for v in shown)


def duration(value: float | None) -> str:
    if value is None:
        return "-"
    if value < 120:
        return f"{value:.0f} s"
    if value < 7200:
        return f"{value / 60:.0f} min"
    if value < 172800:
        return f"{value / 3600:.1f} h"
    return f"{value / 86400:.1f} d"


def _count(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:,.1f}" if value < 100 else f"{value:,.0f}"


def _bytes(value: float | None) -> str:
    if value is None:
        return "-"
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if abs(value) >= size:
            return f"{value / size:.3g} {unit}"
    return f"{value:.0f} B"


def lag_time(group: dict[str, Any]) -> str:
    worst = max((p for p in group["partitions"] if p["lag_seconds"] is not None), default=None,
                key=lambda p: p["lag_seconds"])  # fmt: skip
    if worst is None:
        return "-"
    shown = duration(worst["lag_seconds"])
    if worst["lag_seconds_kind"] == "at-least":
        estimate = worst["lag_seconds_estimate"]
        return f"≥{shown}" + (f" (~{duration(estimate)})" if estimate is not None else "")
    return shown


def drain(group: dict[str, Any]) -> str:
    if group["lag"] is None:
        return "-"
    if group["lag"] == 0:
        return "caught up"
    if group["draining"] is None:
        return "unknown"
    if not group["draining"]:
        return "not draining"
    return f"in {duration(group['drain_seconds'])}"


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
            for row in rows]  # fmt: skip


def _lag_table(records: list[dict[str, Any]], named: tuple[str, str]) -> list[str]:
    """Consumer groups' or exporters' lag, one row each (named by its two fields), with the notes."""
    rows = [[*named, "lag", "lag time", "in/s", "out/s", "trend", "drain", "lag over time"]]
    for record in records:
        series = [
            sum(v for v in values if v is not None)
            for values in zip(*(p["lag_series"] for p in record["partitions"]), strict=False)
        ]
        name = record[named[0]] + (f" ({record['cluster']})" if record["cluster"] else "")
        rows.append([name, record[named[1]], _count(record["lag"]), lag_time(record), _rate(record["rate_in"]),
                     _rate(record["rate_out"]), record["trend"], drain(record), sparkline(series)])  # fmt: skip
    notes = {p["note"] for r in records for p in r["partitions"] if p["note"]}
    notes |= {f"drain unknown: {r['draining_unknown']}" for r in records if r.get("draining_unknown")}
    return _table(rows) + [f"  note: {note}" for note in sorted(notes)]


def lines(flow: dict[str, Any]) -> list[str]:
    out: list[str] = []
    if flow["groups"]:
        out += ["", "Consumer groups (lag in records and in seconds; in/out records/s over the window):"]
        out += _lag_table(flow["groups"], ("group", "topic"))
    if flow.get("exports"):
        out += ["", "Zeebe exporters (export lag: committed records not yet exported, and how long ago the oldest "
                "was committed; in = committed/s, out = exported/s):"]  # fmt: skip
        out += _lag_table(flow["exports"], ("exporter", "broker"))
    if flow["disks"]:
        out += ["", "Disks (free space and its fall over the window):"]
        rows = [["node", "volume", "free", "change/s", "full in", "free over time"]]
        for disk in flow["disks"]:
            change = "-" if disk["bytes_per_second"] is None else _bytes(disk["bytes_per_second"])
            full = duration(disk["fill_seconds"]) if disk["fill_seconds"] is not None else "not filling"
            rows.append([disk["node"], disk["volume"], _bytes(disk["free_bytes"]), change, full,
                         sparkline(disk["free_series"])])  # fmt: skip
        out += _table(rows)
    if flow["traffic"]:
        out += ["", "Topics (bytes in over the window; replication = in x (RF - 1)):"]
        rows = [["topic", "in/s", "RF", "replication/s"]]
        for topic in flow["traffic"]:
            replicas = "?" if topic["replicas"] is None else str(topic["replicas"])
            rows.append([topic["topic"], _bytes(topic["bytes_in"]), replicas, _bytes(topic["replication"])])
        out += _table(rows)
    return out
