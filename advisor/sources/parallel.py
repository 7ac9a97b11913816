"""A folder walk's files sniffed and loaded by several processes at once (advisor/forked.py).

Reading, sniffing and loading a file depends on that file alone; linking files into clusters
and judging them come after, in the parent, on everything read. So forked workers each sniff
and load a contiguous chunk of the walked paths, and the results are put back in path order —
the same candidates, problems and notes as one process reading them in turn (tested: the same
report). Only for walks of at least MIN_FILES files.
"""

from __future__ import annotations

import sys

from advisor import TYPE_CHECKING, forked
from advisor.model.document import LoadError

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any

    from advisor.model.document import Problem

MIN_FILES = 512  # below this a fork and the results' transfer cost more than they save


def workers(count: int) -> int:
    """How many processes read `count` walked files (1: this one alone)."""
    return forked.workers(count, MIN_FILES)


class Loaded:
    """The loader of a candidate a worker already loaded (sources._load_one's outcome): loading
    hands over what the file's loader returned, or raises again as a LoadError the problem it met
    (kept as the problem: an exception does not survive pickling whole)."""

    @staticmethod
    def load(path: str, text: str, payload: tuple[str, Any], options: Any) -> Any:
        outcome, value = payload
        if outcome == "failed":
            raise LoadError(value.path, value.line, value.message, value.kind)
        return value


def read_all(
    paths: list[Path], read_one: Callable[[Path, list[Problem]], Any], jobs: int
) -> tuple[list[Any], list[Problem]]:
    """`read_one(path, notes)` for every path, in order, over `jobs` processes: the results
    that are not None, and the notes in the order one process would have written them."""

    def chunk(part: list[Path]) -> tuple[list[Any], list[Problem], list[str]]:
        notes: list[Problem] = []
        results = [result for path in part if (result := read_one(path, notes)) is not None]
        loaders = sorted(name for name in sys.modules if name.startswith("advisor.sources."))
        return results, notes, loaders

    results: list[Any] = []
    notes: list[Problem] = []
    for part_results, part_notes, loaders in forked.map_chunks(forked.chunks(paths, jobs), chunk, jobs):
        for name in loaders:  # the loaders a worker used: their cross-file steps run here (sources._load)
            __import__(name)
        results += part_results
        notes += part_notes
    return results, notes
