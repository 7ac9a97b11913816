"""Writing reports and baselines without ever losing a byte of anyone's files.

A target must be a regular file (or not exist yet) in a folder that exists, and never one of the
run's inputs; it is replaced atomically — an unpredictable temporary file created exclusively
beside it, then renamed over it — and nothing is left behind when writing fails."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path


def refusal(target: Path, inputs: Iterable[Path]) -> str | None:
    """Why `target` must not be written, or None."""
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        return f"{target}: its folder {folder} does not exist"
    try:
        info = os.stat(target)  # follows a link: what would be replaced is where it points
    except FileNotFoundError:
        info = None
    except OSError as error:
        return f"{target}: {error.strerror}"
    if info is not None and not stat.S_ISREG(info.st_mode):
        return f"{target}: not a regular file (a folder, a device or a pipe); refusing to replace it"
    if info is not None:
        for given in inputs:
            try:
                if os.path.samefile(target, given):
                    return f"{target} is one of the files being linted; refusing to write over it"
            except OSError:
                continue
    if not os.access(folder, os.W_OK):
        return f"{target}: its folder {folder} is not writable"
    return None


def write_atomically(target: Path, text: str) -> None:
    """Replace `target` with `text` in one step; a link at `target` is replaced, not followed."""
    folder = target.parent if str(target.parent) else Path(".")
    import tempfile  # only when a file is written (tempfile imports shutil, random, bz2, lzma)

    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.chmod(temporary, _mode(target))
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _mode(target: Path) -> int:
    """The mode a file written in place would have: the replaced file's own, else what the umask
    leaves of rw-rw-rw- (mkstemp's private 0600 would hide a report or a config from the team)."""
    try:
        return stat.S_IMODE(os.lstat(target).st_mode) if not os.path.islink(target) else _umasked()
    except FileNotFoundError:
        return _umasked()


def _umasked() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask
