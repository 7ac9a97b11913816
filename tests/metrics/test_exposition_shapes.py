"""The exposition reader's learned shapes (exposition._shape: one match for a line written with the
label names its family was last written with) read every line as the careful way does — the same
samples, the same errors at the same lines — on every exposition file of the fixtures and tests and
on those files' lines changed the ways people and exporters write them differently."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from advisor.metrics import exposition
from advisor.metrics.observe import wanted
from advisor.model.document import LoadError

REPO_ROOT = Path(__file__).resolve().parents[2]
NEVER = re.compile(r"(?!)")


def _read(lines: list[str], names: frozenset[str] | None) -> list[object]:
    found: list[object] = []
    try:
        found += exposition.parse(lines, "scrape.prom", names)
    except LoadError as error:
        found.append(("error", error.line, error.message))
    return found


MATCHED = [0]  # lines the learned shapes read, over the whole run: the fast way must be taken


def _counting(names: tuple[str, ...], values: tuple[str, ...], strings: dict) -> tuple[tuple[str, str], ...]:  # type: ignore[type-arg]
    MATCHED[0] += 1
    return PAIRS(names, values, strings)


PAIRS = exposition._pairs


def _both_ways(lines: list[str], names: frozenset[str] | None, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patched:
        patched.setattr(exposition, "_pairs", _counting)
        learned = _read(lines, names)
    with monkeypatch.context() as patched:
        patched.setattr(exposition, "_shape", lambda names, compiled: NEVER)  # every line the careful way
        careful = _read(lines, names)
    assert repr(learned) == repr(careful)  # repr: NaN equals NaN


def _exposition_files() -> list[Path]:
    from advisor.metrics.files import metric_format
    from advisor.metrics.sniff import EXPOSITION

    paths = [p for folder in ("fixtures", "tests") for p in (REPO_ROOT / folder).rglob("*") if p.is_file()]
    return [p for p in paths if p.suffix in (".prom", ".txt", ".metrics") and metric_format(p) == EXPOSITION]


def test_every_exposition_fixture_reads_alike_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    files = _exposition_files()
    assert len(files) > 10
    for path in files:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
        _both_ways(lines, wanted(), monkeypatch)
        _both_ways(lines, None, monkeypatch)
    assert MATCHED[0] >= 5, MATCHED  # fixtures write a family once or twice a node: few lines repeat a shape


# Ways a line differs from the one before it of its family: each must go the careful way or read alike.
CHANGES = [
    lambda line: line.replace(",", ", ", 1),  # a space after a comma
    lambda line: line.replace('="', '="a\\"b', 1),  # an escaped quote
    lambda line: line.replace('="', '="x\\\\', 1),  # an escaped backslash
    lambda line: line.rstrip("\n") + " 1700000000000\n",  # a timestamp
    lambda line: line.rstrip("\n") + " 17x\n",  # a bad timestamp
    lambda line: line.replace("} ", "}\t", 1),  # a tab before the value
    lambda line: line.rstrip("\n") + "\r\n",  # a Windows line end
    lambda line: line.replace("} ", "} abc", 1),  # a value that is no number
    lambda line: line.replace("} ", "}", 1),  # no space before the value
    lambda line: line.replace("} ", "} NaN ", 1),  # NaN, and trailing space
    lambda line: line.replace("{", '{zz="1",', 1),  # another label first
    lambda line: line.replace('"', "", 1),  # a broken label
    lambda line: line.replace("}", ",}", 1),  # a trailing comma
    lambda line: line.replace("} ", "} +Inf", 1),  # +Inf
    lambda line: line.replace("} ", "} 1e3 ", 1).replace(" ", "", 0),
    lambda line: line.replace("} ", "} 1_000 ", 1),  # what float() takes and Prometheus does not say
    lambda line: line.replace("} ", "} \u00a01.5", 1),  # a non-ASCII space
    lambda line: line.replace("{", " {", 1),  # a space before the label set
]


def test_changed_lines_read_alike_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(25)
    labelled = [line for path in _exposition_files()
                for line in path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
                if "{" in line and line[: line.find("{")] in wanted()
                and len(line[line.rfind("}") + 1 :].split()) == 1]  # fmt: skip  # no timestamp: the fast way's
    assert len(labelled) >= 10
    before = MATCHED[0]
    for _ in range(400):
        chosen = rng.sample(labelled, 3)
        lines = [*chosen, *chosen]  # the second time, each family's shape is known
        for line in chosen:  # then each changed, after the shape it was written with
            _both_ways([*lines, rng.choice(CHANGES)(line), line], wanted(), monkeypatch)
    assert MATCHED[0] - before > 3000  # the repeated lines were read the fast way
