"""Which saved scrapes without identity labels are one target at two times, and which are two.

A scrape saved with curl carries no `instance` or `pod` label: the Prometheus server adds
those. Two such files are the same broker scraped twice (a before and an after) or two brokers
(one file each); summing the first as two nodes invents a second active controller, reading
the second as one node invents a restart. What tells them apart, strongest first:

- `process_start_time_seconds` (the JMX exporter's agent and Micrometer serve the JVM's start):
  one value is one process; two processes both alive when the earlier file was taken are two
  nodes; a process started after the earlier file was taken may be that node restarted.
- otherwise the series themselves: the same names and labels are one target scraped twice
  (brokers differ in the partitions they hold and the controller in what only it reports),
  unless both files were taken at one moment (a target is not scraped twice at once).

Each pairing is said in a note, with what decided it.
"""

from __future__ import annotations

from collections.abc import Sequence

from advisor.metrics.exposition import Sample
from advisor.metrics.inputs import Capture
from advisor.model.document import Problem

START_TIME = "process_start_time_seconds"  # client_java's and Micrometer's process start, seconds


def nodes(captures: Sequence[Capture], identity: Sequence[str]) -> tuple[dict[int, str], list[Problem]]:
    """(the node a label-less untimed file's samples belong to, by capture number; notes). Files
    not in the map keep their own origin as their node (or their identity labels)."""
    timed_files = [number for number, capture in enumerate(captures) if capture.is_file and capture.time is not None]
    if len(timed_files) < 2:  # one file: nothing to pair (and a large scrape's samples are not walked)
        return {}, []
    candidates = [number for number in timed_files if _unnamed_snapshot(captures[number], identity)]
    if len(candidates) < 2:
        return {}, []
    candidates.sort(key=lambda number: (captures[number].time or 0.0, number))
    named: dict[int, str] = {}
    notes: list[Problem] = []
    groups: list[tuple[int, int]] = []  # (the group's first capture, its latest)
    shapes: dict[int, tuple[int, int]] = {}  # each input's series: (how many lines, their hashes summed)
    for number in candidates:
        capture = captures[number]
        for at, (first, latest) in enumerate(groups):
            same, why = _same_target(captures[latest], capture, shapes, latest, number)
            if same:
                groups[at] = (first, number)
                named[number] = named[first] = captures[first].origin
                notes.append(Problem(capture.origin, None, f"read as {captures[first].origin} scraped again later: "
                                     f"neither carries an instance or pod label, and {why}; keep the label "
                                     "(save what Prometheus stored) if they are two nodes", "note"))  # fmt: skip
                break
        else:
            groups.append((number, number))
    return named, notes


def _unnamed_snapshot(capture: Capture, identity: Sequence[str]) -> bool:
    """A file of exposition samples without times and without an identity label (the lines the
    reader took into columns included: columns.Gathered)."""
    if capture.gathered is not None and capture.gathered.identified:
        return False
    if not capture.samples and not (capture.gathered and capture.gathered.count):
        return False
    for sample in capture.samples:
        if not isinstance(sample, Sample) or sample.timestamp_ms is not None:
            return False
        if any(key.lower() in identity and value for key, value in sample.labels):
            return False
    return True


def _start(capture: Capture) -> float | None:
    return next((s.value for s in capture.samples if s.name == START_TIME and not s.labels), None)


def _series_of(capture: Capture) -> tuple[int, int]:
    """(how many series lines, the sum of their (name, labels) hashes): equal for two inputs that
    write the same series, whichever of their lines the reader took into columns."""
    samples = [(s.name, tuple([k for k, _ in s.labels]), tuple([v for _, v in s.labels]))
               for s in capture.samples if s.name != START_TIME]  # fmt: skip
    gathered = capture.gathered
    count = len(samples) + (gathered.count if gathered else 0)
    return count, (sum(map(hash, samples)) + (gathered.digest if gathered else 0)) % (1 << 64)


def _same_target(
    earlier: Capture,
    later: Capture,
    shapes: dict[int, tuple[int, int]],
    earlier_number: int,
    later_number: int,
) -> tuple[bool, str]:
    """Is `later` the target of `earlier` scraped again, and what said so."""
    if later.time == earlier.time:
        return False, "taken at one moment"
    started, restarted = _start(earlier), _start(later)
    if started is not None and restarted is not None:
        if started == restarted:
            return True, f"both were served by the process started at {started:.0f} ({START_TIME})"
        if restarted < (earlier.time or 0.0):
            return False, "two processes were running at once"
        # started after the earlier file was taken: the same node restarted, if it serves the same series
    for number, capture in ((earlier_number, earlier), (later_number, later)):
        if number not in shapes:
            shapes[number] = _series_of(capture)
    if shapes[earlier_number] == shapes[later_number]:
        restart = "" if started is None or restarted is None else " (its process restarted between them)"
        return True, f"they serve the same {shapes[later_number][0]:,} series{restart}"
    return False, "their series differ"
