"""Work cut into parts and done by forked processes at once: a large walk's reading
(sources/parallel.py) and the judging of many config sets (rules/runner.py).

Each part's work depends on that part alone (and on what the parent held when it forked), so
the items are cut into contiguous parts, claimed one at a time by the parent and its forked
workers; a worker writes each result, pickled, as it makes it, the parent takes them in between
its own parts, and the results are put back in part order — what one process working the parts
in turn would have made. Only where fork is safe and cheap (Linux, no other thread running) and
with more than one CPU; a worker that fails costs nothing but time: the parts it claimed and did
not write are worked again here.
"""

from __future__ import annotations

import os
import sys

from advisor import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

MAX_WORKERS = 8
PARTS_PER_JOB = 16  # a part is claimed at a time: the last to finish waits at most one part long
MAX_PARTS = 16_384  # their claim tokens fit a pipe's 64 KiB: written at once, before any fork
_JOBS = "KAFKA_ADVISOR_JOBS"  # processes to work with (1: none forked); for tests and benchmarks


def workers(count: int, minimum: int) -> int:
    """How many processes share `count` items (1: this one alone): none forked for fewer than
    `minimum` items, where a fork and the results' transfer cost more than they save."""
    if sys.platform != "linux" or not hasattr(os, "fork") or not hasattr(os, "memfd_create"):
        return 1
    threading = sys.modules.get("threading")  # a process with threads does not fork: a lock one holds
    if threading is not None and threading.active_count() > 1:  # would stay locked in the worker
        return 1
    asked = os.environ.get(_JOBS, "")
    if asked.isdigit() and int(asked) >= 1:
        return min(int(asked), MAX_WORKERS, max(count, 1))
    if count < minimum:
        return 1
    return max(1, min(len(os.sched_getaffinity(0)), MAX_WORKERS))


def chunks(items: list[Any], jobs: int) -> list[list[Any]]:
    """`items` cut into contiguous parts for `jobs` processes: PARTS_PER_JOB each (fewer for
    few items), so that a process that finishes early claims another instead of waiting."""
    if jobs <= 1:
        return [items] if items else []
    size = max(1, -(-len(items) // (jobs * PARTS_PER_JOB)))
    return [items[start : start + size] for start in range(0, len(items), size)]


def map_chunks(parts: list[list[Any]], work: Callable[[list[Any]], Any], jobs: int) -> list[Any]:
    """`work(part)` for every part, the results in order. The parts are claimed one at a time by
    this process and `jobs - 1` forked workers, so that every process is busy until none is left
    (files and config sets differ in cost). A worker writes each result, pickled, as it is made;
    this process takes them in between its own parts, so that little is left to take at the end."""
    jobs = min(jobs, len(parts))
    if jobs <= 1 or len(parts) > MAX_PARTS:
        return [work(part) for part in parts]
    claims, tokens = os.pipe()  # one 4-byte token per part; a read of 4 bytes takes one whole
    os.write(tokens, b"".join(index.to_bytes(4, "little") for index in range(len(parts))))
    os.close(tokens)  # the pipe holds them all; once empty, a read says EOF
    workers: list[_Worker] = []
    for _ in range(jobs - 1):
        try:
            workers.append(_Worker(claims, parts, work))
        except OSError:  # no memory file or no fork here (a sandbox, a process limit): fewer hands
            break
    results: dict[int, Any] = {}
    try:
        while token := os.read(claims, 4):
            index = int.from_bytes(token, "little")
            results[index] = work(parts[index])
            for worker in workers:
                worker.take(results)
    except BaseException:  # interrupted, or a bug here: no worker outlives the call
        for worker in workers:
            worker.abandon()
        raise
    finally:
        os.close(claims)
    for worker in workers:
        worker.finish(results)
    for index, part in enumerate(parts):  # claimed by a worker that failed: worked here
        if index not in results:
            results[index] = work(part)
    return [results[index] for index in range(len(parts))]


_HEADER = 12  # a result's part index (4 bytes) and the length of its pickle (8)


class _Worker:
    """A forked process that claims parts and writes each part's result to a memory file as
    [index, length, pickle], which the parent reads as it grows (a file: the worker never waits
    for the parent to read, as it would on a full pipe)."""

    def __init__(self, claims: int, parts: list[list[Any]], work: Callable[[list[Any]], Any]) -> None:
        self.file = os.memfd_create("kafka-advisor-results", os.MFD_CLOEXEC)
        self.taken = 0  # the file's offset up to which results were taken
        try:
            self.pid = os.fork()
        except OSError:
            os.close(self.file)
            raise
        if self.pid == 0:  # the worker: work, write, and leave without running the parent's exit handlers
            code = 1
            try:
                self._work(claims, parts, work)
                code = 0
            finally:
                os._exit(code)

    def _work(self, claims: int, parts: list[list[Any]], work: Callable[[list[Any]], Any]) -> None:
        import pickle

        while token := os.read(claims, 4):
            index = int.from_bytes(token, "little")
            data = pickle.dumps(work(parts[index]), protocol=pickle.HIGHEST_PROTOCOL)
            frame = memoryview(token + len(data).to_bytes(8, "little") + data)
            while frame:
                frame = frame[os.write(self.file, frame) :]

    def take(self, results: dict[int, Any]) -> None:
        """The results written whole since the last take, into `results`."""
        import pickle  # here, not at the top: a run of a few files never forks

        size = os.fstat(self.file).st_size
        while self.taken + _HEADER <= size:
            header = os.pread(self.file, _HEADER, self.taken)
            length = int.from_bytes(header[4:], "little")
            if self.taken + _HEADER + length > size:
                return  # being written
            data = os.pread(self.file, length, self.taken + _HEADER)
            try:
                results[int.from_bytes(header[:4], "little")] = pickle.loads(data)
            except Exception:  # noqa: BLE001 - a worker cut short mid-write: what is left is worked again
                self.taken = size
                return
            self.taken += _HEADER + length

    def abandon(self) -> None:
        """Stop the worker now and reap it: the parent is leaving without its results."""
        import signal

        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.file)

    def finish(self, results: dict[int, Any]) -> None:
        """Wait for the worker to end, and take what it wrote whole (a worker that failed too:
        the parts it claimed but did not write are worked again by the caller)."""
        os.waitpid(self.pid, 0)
        self.take(results)
        os.close(self.file)
