"""Planned edits written into the files they were planned for (`lint --fix`): the edited text put
back into the bytes the file was read from — its encoding, byte-order mark and every byte outside
the edits unchanged — and written atomically, or refused with the reason, file by file.

A file is written only when it is a regular file reached by no symbolic link, lies within the paths
the run was given, and still holds what was read (its content compared, not its time). A failure
leaves that file untouched; the others are still written.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from advisor import safe_write
from advisor.fix import FilePlan, apply
from advisor.named_tuple import NamedTuple
from advisor.sources.text import decode

_UTF8_BOM = b"\xef\xbb\xbf"


class Outcome(NamedTuple):
    path: str
    edits: int  # written; 0 when refused
    refused: str = ""  # why the file was not written
    before: bytes = b""  # what it held, to undo a fix that does not converge


def encoded_like(path: Path, original: bytes, text: str) -> bytes | None:
    """`text` in the encoding `original` was read in (sources/text.py: UTF-8 with or without a BOM,
    UTF-16 with its BOM, a .properties file's ISO-8859-1); None when that cannot be kept: the
    original does not encode back to itself, or `text` holds a character the encoding lacks."""
    if original.startswith((b"\xff\xfe", b"\xfe\xff")) and path.suffix != ".properties":
        codec, prefix = ("utf-16-le", b"\xff\xfe") if original.startswith(b"\xff\xfe") else ("utf-16-be", b"\xfe\xff")
    elif path.suffix == ".properties":
        try:
            original.decode("utf-8")
            codec, prefix = "utf-8", b""  # a BOM, if any, is part of the text (Java reads it so)
        except UnicodeDecodeError:
            codec, prefix = "latin-1", b""
    else:
        codec, prefix = "utf-8", _UTF8_BOM if original.startswith(_UTF8_BOM) else b""
    try:
        if prefix + decode(path, original).encode(codec) != original:
            return None
        return prefix + text.encode(codec)
    except (UnicodeDecodeError, UnicodeEncodeError):
        return None


def _within(path: Path, given: Iterable[Path]) -> bool:
    resolved = path.resolve()
    for root in given:
        top = root.resolve()
        if resolved == top or top in resolved.parents:
            return True
    return False


def _refusal(path: Path, given: list[Path]) -> str | None:
    """Why the file must not be written, or None."""
    if os.path.islink(path):
        return "a symbolic link: fixes are not written through one"
    try:
        info = os.lstat(path)
    except OSError as error:
        return error.strerror or str(error)
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    if not _within(path, given):
        return "outside the paths given"
    if not info.st_mode & 0o222 or not os.access(path, os.W_OK):  # made read-only: a choice, even for root
        return "read-only"
    return None


def write(plan: FilePlan, read_text: str, given: list[Path]) -> Outcome:
    """One file's planned edits written, or refused (nothing written) with the reason."""
    path = Path(plan.path)
    refused = _refusal(path, given)
    if refused:
        return Outcome(plan.path, 0, refused)
    try:
        original = path.read_bytes()
    except OSError as error:
        return Outcome(plan.path, 0, error.strerror or str(error))
    try:
        unchanged = decode(path, original) == read_text
    except UnicodeDecodeError:
        unchanged = False
    if not unchanged:
        return Outcome(plan.path, 0, "changed since it was read")
    data = encoded_like(path, original, apply(read_text, plan.edits))
    if data is None:
        return Outcome(plan.path, 0, "its encoding cannot be kept byte for byte")
    try:
        safe_write.write_bytes_atomically(path, data)
    except OSError as error:
        return Outcome(plan.path, 0, error.strerror or str(error))
    return Outcome(plan.path, len(plan.edits), before=original)


def restore(outcome: Outcome) -> str | None:
    """Put back what a written file held (a fix that did not converge); the reason it failed, or None."""
    try:
        safe_write.write_bytes_atomically(Path(outcome.path), outcome.before)
    except OSError as error:
        return error.strerror or str(error)
    return None
