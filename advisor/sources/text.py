"""How an input file's bytes become text, for every reader (and the files read beside one)."""

from __future__ import annotations

from pathlib import Path


def read_text(path: Path) -> str:
    """A file's text: UTF-8 (a BOM dropped) or UTF-16 with its BOM. A `.properties` file is read
    as Java reads it — bytes that are not UTF-8 as ISO-8859-1, a UTF-8 BOM kept (Java sees it as
    part of the first key). Anything else undecodable raises UnicodeDecodeError."""
    return decode(path, path.read_bytes())


def decode(path: Path, data: bytes) -> str:
    """The text of a file whose bytes were read already, as read_text reads it."""
    if path.suffix == ".properties":
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return data.decode("latin-1")  # what java.util.Properties.load(InputStream) assumes
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    return data.decode("utf-8").removeprefix("\ufeff")
