"""tools/typecheck.py: how mypy's output is held to the baseline (the run itself is `make lint`'s)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("typecheck", ROOT / "tools" / "typecheck.py")
assert _spec is not None and _spec.loader is not None
typecheck = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(typecheck)

OUTPUT = """\
advisor/a.py:12: error: Name "entries" already defined on line 4  [no-redef]
advisor/a.py:30: note: See https://mypy.rtfd.io
advisor/b.py:7: error: Item "None" of "X | None" has no attribute "get"  [union-attr]
advisor/b.py:9: error: Item "None" of "X | None" has no attribute "get"  [union-attr]
Found 3 errors in 2 files (checked 2 source files)
"""


def test_an_error_is_known_by_file_code_and_message_not_line() -> None:
    found = typecheck.errors(OUTPUT)
    assert [(path, line) for path, line, _ in found] == [("advisor/a.py", 12), ("advisor/b.py", 7), ("advisor/b.py", 9)]
    assert found[0][2] == 'advisor/a.py: [no-redef] Name "entries" already defined'
    moved = typecheck.errors(OUTPUT.replace(":12:", ":15:").replace("line 4", "line 6"))
    assert [entry for _, _, entry in moved] == [entry for _, _, entry in found]


def test_a_second_error_of_one_kind_is_new_and_a_fixed_one_must_leave() -> None:
    entries = [entry for _, _, entry in typecheck.errors(OUTPUT)]
    assert typecheck.compare(entries, entries) == ([], [])
    new, gone = typecheck.compare(entries, entries[:2])
    assert new == [entries[2]] and gone == []
    new, gone = typecheck.compare(entries[:1], entries)
    assert new == [] and sorted(gone) == sorted(entries[1:])


def test_the_baseline_names_files_that_exist() -> None:
    baseline = typecheck.read_baseline()
    assert baseline, "tools/mypy-baseline.txt is read"
    assert all((ROOT / entry.split(":", 1)[0]).is_file() for entry in baseline)
