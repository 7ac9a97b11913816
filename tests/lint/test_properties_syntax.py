"""Our .properties reader against the real java.util.Properties (Java 17 on this machine)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from advisor.model.document import LoadError
from advisor.sources import properties_syntax

ORACLE = Path(__file__).resolve().parents[1] / "java" / "PropertiesOracle.java"
TRICKY = (
    "# comment\n"
    "! bang comment\n"
    "plain=1\n"
    "colon : 2\n"
    "space 3\n"
    "   indented.key   =   spaced value   \n"
    "escaped\\=key=4\n"
    "escaped\\:colon\\ and\\ space=5\n"
    "trailing=6 # part of the value\n"
    "continued=first \\\n"
    "    second \\\n"
    "\tthird\n"
    "unicode=\\u00e9t\\u00E9\n"
    "tabs=a\\tb\\nc\n"
    "empty=\n"
    "novalue\n"
    "double.sep = = x\n"
    "double.eq==y\n"
    "backslash.end=z\\\\\n"
    "odd.escape=\\q\\w\n"
    "dup=first\n"
    "dup=second\n"
    "crlf=1\r\n"
    "cr.only=2\rafter.cr=3\n"
    "# comment \\\n"
    "not.continued.by.comment=7\n"
    "cont.into.backslashes=a\\\n\\\\\\\n  b\n"
    "cont.into.empty=x\\\n\n"
    "cont.into.blank=y\\\n   \n"
    "key\\\n  .continued = 8\n"
    "even.backslashes=q\\\\\\\\\n"
    "eof.continuation=last\\"
)


def escape(text: str) -> str:
    out = []
    for char in text:
        if char == "\\":
            out.append("\\\\")
        elif char == "\t":
            out.append("\\t")
        elif char == "\n":
            out.append("\\n")
        elif char == "\r":
            out.append("\\r")
        elif ord(char) < 0x20 or ord(char) > 0x7E:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return "".join(out)


@pytest.mark.skipif(shutil.which("java") is None, reason="needs Java to run java.util.Properties")
def test_reads_exactly_what_java_util_properties_reads(tmp_path: Path) -> None:
    source = tmp_path / "tricky.properties"
    source.write_text(TRICKY, encoding="utf-8")
    java = subprocess.run(["java", str(ORACLE), str(source)], capture_output=True, text=True, check=True, timeout=120)
    entries, _ = properties_syntax.parse(TRICKY, str(source))
    ours = {}
    for entry in entries:
        ours[entry.key] = entry.value  # last wins, as in Java
    lines = sorted(f"{escape(k)}\t{escape(v)}" for k, v in ours.items())
    assert lines == sorted(java.stdout.splitlines())


def test_entries_keep_their_line_and_column() -> None:
    entries, comments = properties_syntax.parse("# c\n\n  a=1\nb=2 \\\n  more\nc=3\n", "p")
    assert [(e.key, e.line, e.column) for e in entries] == [("a", 3, 3), ("b", 4, 1), ("c", 6, 1)]
    assert comments == [(1, "# c")]


def test_malformed_unicode_escape_names_file_and_line() -> None:
    with pytest.raises(LoadError) as error:
        properties_syntax.parse("ok=1\nbad=\\u12G4\n", "conf/x.properties")
    assert str(error.value).startswith("conf/x.properties:2: malformed \\uxxxx escape")


def test_every_span_covers_what_was_written() -> None:
    """Each entry's key span covers the key as written and its value span the value as written
    (raw_value), whose unescaping is the value: one-line entries (read without joining pieces)
    and continued ones alike, at every kind of separator, escape and line end."""
    import random

    rnd = random.Random(20261204)
    keys = ["a", "log.dirs", "k\\=x", "k\\ y", "\\u0041b", "x\\\\"]
    separators = ["=", ":", " ", " = ", "\t:\t", "\f", "="]
    values = ["1", "", "v w", "a\\\\", "\\u00e9t\\u00e9", "x # not a comment", "end\\\\\\\\", "c\\\n   d", "e\\\r\nf"]
    ends = ["\n", "\r\n", "\r"]
    for _ in range(400):
        lines = [f"{' ' * rnd.randint(0, 2)}{rnd.choice(keys)}{rnd.choice(separators)}{rnd.choice(values)}"
                 for _ in range(rnd.randint(1, 6))]  # fmt: skip
        text = "".join(line + rnd.choice(ends) for line in lines)
        entries, _ = properties_syntax.parse(text, "p")
        for entry in entries:
            assert entry.key_span is not None and entry.value_span is not None
            written_key = text[entry.key_span.offset : entry.key_span.end_offset]
            assert properties_syntax._unescape(written_key, "p", 1) == entry.key, text
            assert text[entry.value_span.offset : entry.value_span.end_offset] == entry.raw_value
            assert entry.key_span.line == entry.line and entry.key_span.column == entry.column
            if "\\\n" not in entry.raw_value and "\\\r" not in entry.raw_value:
                assert properties_syntax._unescape(entry.raw_value, "p", 1) == entry.value, text
