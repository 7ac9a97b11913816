"""The flow view's charts as inline SVG, drawn by pygal (docs/dependencies.md: chosen over
matplotlib for its weight and speed): per consumer group its in- against out-rate over time and
its lag in seconds, per disk its free space with the fill projected from its trend. No chart
carries a script (pygal's own config script is left out): they read the same with JavaScript off.
"""

from __future__ import annotations

import itertools
import re
import time
from collections import defaultdict
from typing import Any

from advisor import lazy_re

_SCRIPT = lazy_re.compile(r"<script\b[^>]*>.*?</script>", re.DOTALL)
_COMMENT = lazy_re.compile(r"<!--.*?-->", re.DOTALL)
_NUMBERS = itertools.count(1)
COLOURS = ("#185a8d", "#c2571a", "#1e6b3a", "#7b3f9e", "#8a5a00", "#3d6b6b")


def _chart(kind: str, title: str, y_title: str, **extra: Any) -> Any:
    import pygal
    from pygal.style import Style

    style = Style(background="white", plot_background="white", foreground="#1d232b", foreground_strong="#1d232b",
                  foreground_subtle="#d8dde3", colors=COLOURS, font_family="system-ui, sans-serif",
                  title_font_size=15, label_font_size=11, major_label_font_size=11, legend_font_size=12)  # fmt: skip
    return getattr(pygal, kind)(
        width=760, height=260, style=style, title=title, y_title=y_title, x_title="UTC", show_dots=False, js=[],
        disable_xml_declaration=True, explicit_size=True, x_value_formatter=_clock, legend_at_bottom=True,
        truncate_legend=40, x_label_rotation=0, stroke_style={"width": 2}, x_labels_major_count=6, **extra,
    )  # fmt: skip


def _clock(seconds: float) -> str:
    return time.strftime("%H:%M", time.gmtime(seconds)) if seconds == seconds else ""


def _svg(chart: Any, label: str) -> str:
    svg = chart.render(is_unicode=True)
    svg = _COMMENT.sub("", _SCRIPT.sub("", svg))
    # pygal names each chart by a random uuid: a short name unique in the page makes the same
    # report the same file every time.
    uuid = chart.uuid
    svg = svg.replace(f"chart-{uuid}", f"chart-{next(_NUMBERS)}")
    return f'<figure class="chart" role="img" aria-label="{label}">{svg}</figure>'


def _summed(records: list[dict[str, Any]], key: str) -> list[tuple[float, float]]:
    """Partitions' timed points summed at each time they share."""
    totals: dict[float, float] = defaultdict(float)
    for record in records:
        for at, value in record.get(key) or ():
            if value is not None:
                totals[at] += value
    return sorted(totals.items())


def group_rates(group: dict[str, Any], label: str) -> str | None:
    """In- against out-rate of one group on one topic (records/s, its partitions summed)."""
    written, read = _summed(group["partitions"], "in_points"), _summed(group["partitions"], "out_points")
    if len(written) < 2 and len(read) < 2:
        return None
    chart = _chart("XY", f"{group['group']} on {group['topic']}: records in and out", "records/s")
    chart.add("in (written)", written)
    chart.add("out (committed)", read)
    return _svg(chart, label)


def lag_seconds(groups: list[dict[str, Any]], label: str) -> str | None:
    """Each group's lag in seconds over time (its partitions' largest)."""
    chart = _chart("XY", "Lag in seconds (how long ago the next record to read was written)", "seconds")
    drawn = 0
    for group in groups:
        worst: dict[float, float] = {}
        for partition in group["partitions"]:
            for at, value in partition.get("lag_seconds_points") or ():
                worst[at] = max(worst.get(at, 0.0), value)
        if len(worst) > 1:
            chart.add(f"{group['group']} / {group['topic']}", sorted(worst.items()))
            drawn += 1
    return _svg(chart, label) if drawn else None


def disk(record: dict[str, Any], label: str) -> str | None:
    """A disk's free space over time, and its trend projected to the fill (dashed)."""
    points = [(at, value) for at, value in record.get("free_points") or () if value is not None]
    if len(points) < 2:
        return None
    chart = _chart("XY", f"{record['node']} {record['volume']}: free space", "GB")
    chart.add("free", [(at, value / 1e9) for at, value in points])
    fill = record.get("fill_seconds")
    if fill is not None:
        last_at, last_free = points[-1]
        chart.add("projected", [(last_at, last_free / 1e9), (last_at + fill, 0.0)], stroke_style={"dasharray": "6,4"})
    return _svg(chart, label)
