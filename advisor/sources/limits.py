"""How much one run reads: bounds that keep hostile input from exhausting time or memory.

Each is a clear `path:line` problem when reached — an input error for a file named on the
command line, a skipped file said on stderr in a folder walk — and the rest is still linted.
The project config may set them (`[limits]`, docs/reliability.md) within MAXIMUMS.
"""

from __future__ import annotations

from advisor.named_tuple import NamedTuple


class Limits(NamedTuple):
    file_bytes: int = 16 << 20  # a 32,000-partition reassignment plan is ~6.3 MB
    line_chars: int = 1 << 20
    files: int = 100_000  # files a folder walk reads
    yaml_nodes: int = 250_000  # nodes once every YAML alias is expanded (an alias bomb is billions)
    depth: int = 200  # YAML nesting
    metric_bytes: int = 1 << 30  # a metrics file is streamed: its size costs time, not memory
    metric_points: int = 2_000_000  # samples the rules read, kept in memory (a family filter drops the rest)


DEFAULTS = Limits()
MAXIMUMS = Limits(
    file_bytes=256 << 20,
    line_chars=64 << 20,
    files=2_000_000,
    yaml_nodes=5_000_000,
    depth=1_000,
    metric_bytes=64 << 30,
    metric_points=50_000_000,
)
NAMES = {field: field.replace("_", "-") for field in Limits._fields}  # as written in [limits]

_active = [DEFAULTS]


def current() -> Limits:
    return _active[-1]


class using:  # a lower-case name: read as `with limits.using(...)`; no contextlib import at start-up
    """The limits of one run, for readers deep in the call tree (YAML's alias check)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits

    def __enter__(self) -> None:
        _active.append(self.limits)

    def __exit__(self, *exc: object) -> None:
        _active.pop()


def long_line(text: str, limit: int) -> int | None:
    """The number of the first line longer than `limit` characters, else None (linear; the
    common case — a text shorter than the limit — costs nothing)."""
    if len(text) <= limit:
        return None
    for number, line in enumerate(text.split("\n"), start=1):
        if len(line) > limit:
            return number
    return None
