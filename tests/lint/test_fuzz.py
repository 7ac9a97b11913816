"""Fuzzing (tools/fuzz.py): every input it ever found failing, replayed forever, and a brief
fixed-seed run over every reader. A failure is an exception, an internal error (a bug, where
the input deserved a load error), a formatter that raises, or an input slower than 10 s."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tools"))

import fuzz  # noqa: E402

CORPUS = sorted(p for p in (REPO_ROOT / "tests" / "fuzz_corpus").rglob("*") if p.is_file())


@pytest.fixture(scope="module")
def harness():  # type: ignore[no-untyped-def]
    with tempfile.TemporaryDirectory() as tmp:
        checker = fuzz.Harness(Path(tmp), timeout=10)
        checker.every_format = True
        yield checker


@pytest.mark.parametrize("reproducer", CORPUS, ids=[p.parent.name for p in CORPUS])
def test_every_saved_reproducer_passes(harness: fuzz.Harness, reproducer: Path) -> None:
    text = reproducer.read_text(encoding="utf-8", errors="surrogatepass")
    folder = reproducer.parent.name
    if folder.startswith("parser-"):  # found in one reader alone: replayed there too
        reader = "parser:" + folder.removeprefix("parser-").rsplit("-", 1)[0]
        assert harness(reproducer.name, text, reader) is None
    if folder.startswith("analyze-"):  # found in a metrics file: replayed through analyze
        assert harness(reproducer.name, text, "analyze") is None
    assert harness(reproducer.name, text) is None


def test_the_corpus_is_not_empty() -> None:
    assert len(CORPUS) >= 3


def test_a_brief_fuzz_of_every_reader_finds_nothing() -> None:
    counts, failures = fuzz.fuzz(seconds=120, seed=20261130, only=None, timeout=10, limit=1500, save_failures=False)
    assert sum(counts.values()) == 1500 and len(counts) >= 15  # every loader and reader had its share
    assert failures == {}, "\n".join(f"{sig}: {name}: {text!r}" for sig, (name, text) in failures.items())


def test_the_harness_sees_a_crash(harness: fuzz.Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness itself: a loader that raises is a failure with its place, not a pass."""
    from advisor.sources import properties

    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError

    monkeypatch.setattr(properties, "load", broken)
    assert harness("p.producer.properties", "acks=1\n").startswith("internal: ZeroDivisionError at sources/")
