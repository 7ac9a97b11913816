"""The linear shell splitter gives shlex's answers (words or the same error) on every command
line of the fixtures' scripts and on random lines of quotes, escapes, separators and comments;
a long word is one word (its cost: tools/bench_growth.py)."""

from __future__ import annotations

import random
import shlex
from pathlib import Path

import pytest

from advisor.sources import shell
from advisor.sources.shell_words import split

REPO_ROOT = Path(__file__).resolve().parents[2]
ALPHABET = ["a", "b", "=", "-", " ", "  ", "'", '"', "\\", ";", "&", "|", "#", "\t", "$V", "{", "(", ">", "~", "*"]


def _shlex(line: str) -> tuple[str, object]:
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        return "words", list(lexer)
    except ValueError as error:
        return "error", str(error)


def _ours(line: str) -> tuple[str, object]:
    try:
        return "words", split(line)
    except ValueError as error:
        return "error", str(error)


def test_the_fixtures_scripts_split_as_shlex_splits_them() -> None:
    scripts = [p for p in (REPO_ROOT / "fixtures").rglob("*") if p.suffix in (".sh", ".bash")]
    assert len(scripts) > 5
    lines = [logical for script in scripts for _, _, logical in shell._logical_lines(script.read_text())]
    assert len(lines) > 50
    for line in lines:
        assert _ours(line) == _shlex(line), line


@pytest.mark.parametrize("seed", range(4))
def test_random_lines_split_as_shlex_splits_them(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(5000):
        line = "".join(rnd.choice(ALPHABET) for _ in range(rnd.randint(0, 16)))
        assert _ours(line) == _shlex(line), repr(line)


def test_a_long_word_is_one_word() -> None:
    """4 MB: shlex would take minutes here; tools/bench_growth.py prints the growth per doubling."""
    (_, _, word) = split("kafka-topics.sh --topic " + "t" * 4_000_000)
    assert word == "t" * 4_000_000
