"""The lines a report shows are taken from each file without keeping its lines (a run of
thousands of files held every file's lines at once): the same lines `SourceFile.lines` gives,
for every line break Java reads and any final newline."""

from __future__ import annotations

import random

import pytest

from advisor.model.document import SourceFile


def _text(rng: random.Random) -> str:
    pieces = ["a=1", "", "  b: 2", "# c", "x" * 5, "ü=ß"]
    breaks = ["\n", "\r\n", "\r"] if rng.random() < 0.5 else ["\n"]
    count = rng.randint(0, 12)
    text = "".join(rng.choice(pieces) + rng.choice(breaks) for _ in range(count))
    return text if rng.random() < 0.5 else text.rstrip("\r\n")


@pytest.mark.parametrize("seed", range(200))
def test_some_lines_are_the_lines_a_split_gives(seed: int) -> None:
    rng = random.Random(seed)
    text = _text(rng)
    wanted = {rng.randint(-1, 15) for _ in range(rng.randint(1, 5))}
    expected = SourceFile("f", text, "properties").lines
    found = SourceFile("f", text, "properties").some_lines(wanted)
    assert found == {n: expected[n - 1] for n in wanted if 0 < n <= len(expected)}, (text, wanted)


def test_no_file_keeps_its_lines_for_the_report(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from advisor.report.session import RunRequest, run_with_document

    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "server.properties").write_text("broker.id=1\n" * 3 + "log.flush.interval.messages=1\n")
    report, document = run_with_document(RunRequest(paths=(folder,)))
    (path,) = report.lines
    assert report.lines[path][4] == "log.flush.interval.messages=1"
    assert all("lines" not in vars(source) for source in document.files)
