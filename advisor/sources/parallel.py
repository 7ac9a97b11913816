"""A folder walk's files sniffed and loaded by several processes at once.

Reading, sniffing and loading a file depends on that file alone; linking files into clusters
and judging them come after, in the parent, on everything read. So the walked paths are cut into
contiguous chunks: forked workers each sniff and load one chunk and send the results back
pickled, the parent does the first chunk itself, and the results are put back in path order —
the same candidates, problems and notes as one process reading them in turn (tested: the same
report). Only where fork is safe and cheap (Linux, no other thread running), with more than one
CPU, and for walks of at least MIN_FILES files; a worker that fails costs nothing but time: its
chunk is read again here.
"""

from __future__ import annotations

import os
import sys

from advisor import TYPE_CHECKING
from advisor.model.document import LoadError

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any

    from advisor.model.document import Problem

MIN_FILES = 512  # below this a fork and the results' transfer cost more than they save
MAX_WORKERS = 8
_JOBS = "KAFKA_ADVISOR_JOBS"  # processes to read with (1: none forked); for tests and benchmarks


def workers(count: int) -> int:
    """How many processes read `count` walked files (1: this one alone)."""
    if sys.platform != "linux" or not hasattr(os, "fork"):
        return 1
    threading = sys.modules.get("threading")  # a process with threads does not fork: a lock one holds
    if threading is not None and threading.active_count() > 1:  # would stay locked in the worker
        return 1
    asked = os.environ.get(_JOBS, "")
    if asked.isdigit() and int(asked) >= 1:
        return min(int(asked), MAX_WORKERS, max(count, 1))
    if count < MIN_FILES:
        return 1
    return max(1, min(len(os.sched_getaffinity(0)), MAX_WORKERS))


class Loaded:
    """The loader of a candidate a worker already loaded (sources._load_one's outcome): loading
    hands over what the file's loader returned, or raises again as a LoadError the problem it met
    (kept as the problem: an exception does not survive pickling whole)."""

    @staticmethod
    def load(path: str, text: str, payload: tuple[str, Any], options: Any) -> Any:
        outcome, value = payload
        if outcome == "failed":
            raise LoadError(*value)
        return value


def read_all(
    paths: list[Path], read_one: Callable[[Path, list[Problem]], Any], jobs: int
) -> tuple[list[Any], list[Problem]]:
    """`read_one(path, notes)` for every path, in order, over `jobs` processes: the results
    that are not None, and the notes in the order one process would have written them."""
    if jobs <= 1:
        return _chunk(paths, read_one)
    size = -(-len(paths) // jobs)
    chunks = [paths[start : start + size] for start in range(0, len(paths), size)]
    forked = [_fork(chunk, read_one) for chunk in chunks[1:]]
    results, notes = _chunk(chunks[0], read_one)
    for chunk, (pid, stream) in zip(chunks[1:], forked, strict=True):
        received = _receive(pid, stream)
        if received is None:  # the worker died or could not send: read its chunk here
            received = _chunk(chunk, read_one)
        results += received[0]
        notes += received[1]
    return results, notes


def _chunk(paths: list[Path], read_one: Callable[[Path, list[Problem]], Any]) -> tuple[list[Any], list[Problem]]:
    notes: list[Problem] = []
    results = [result for path in paths if (result := read_one(path, notes)) is not None]
    return results, notes


def _fork(chunk: list[Path], read_one: Callable[[Path, list[Problem]], Any]) -> tuple[int, int]:
    readable, writable = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker: read, send, and leave without running the parent's exit handlers
        code = 1
        try:
            os.close(readable)
            results, notes = _chunk(chunk, read_one)
            import pickle

            loaders = sorted(name for name in sys.modules if name.startswith("advisor.sources."))
            data = pickle.dumps((results, notes, loaders), protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(writable, "wb") as stream:
                stream.write(data)
            code = 0
        finally:
            os._exit(code)
    os.close(writable)
    return pid, readable


def _receive(pid: int, readable: int) -> tuple[list[Any], list[Problem]] | None:
    try:
        with os.fdopen(readable, "rb") as stream:
            data = stream.read()
    finally:
        _, status = os.waitpid(pid, 0)
    if status != 0 or not data:
        return None
    import pickle  # here, not at the top: a lint of a few files never forks

    try:
        results, notes, loaders = pickle.loads(data)
    except Exception:  # noqa: BLE001 - a worker cut short: its chunk is read again
        return None
    for name in loaders:  # the loaders it used: their cross-file steps run here (sources._load)
        __import__(name)
    return results, notes
