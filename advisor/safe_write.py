"""Writing reports and baselines without ever losing a byte of anyone's files.

A target must be a regular file (or not exist yet) in a folder that exists, and never one of the
run's inputs; it is replaced atomically — an unpredictable temporary file created exclusively
beside it, then renamed over it — and nothing is left behind when writing fails."""

from __future__ import annotations

import contextlib
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
    """Replace `target` with `text` (UTF-8) in one step; a link at `target` is replaced, not followed."""
    write_bytes_atomically(target, text.encode("utf-8"))


def write_bytes_atomically(target: Path, data: bytes) -> None:
    """Replace `target` with `data` in one step, keeping its mode (and its owner where this process
    may set it); a link at `target` is replaced, not followed."""
    folder = target.parent if str(target.parent) else Path(".")
    import tempfile  # only when a file is written (tempfile imports shutil, random, bz2, lzma)

    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, _mode(target))
        _keep_owner(target, temporary)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _keep_owner(target: Path, temporary: str) -> None:
    """The replaced file's owner and group on its replacement, where they differ and may be set
    (a root-run fix of a user's file stays the user's); a file that was not there keeps ours."""
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(info.st_mode):
        return
    mine = os.stat(temporary)
    if (mine.st_uid, mine.st_gid) != (info.st_uid, info.st_gid):
        with contextlib.suppress(PermissionError, AttributeError):  # not ours to give: it keeps this process's
            os.chown(temporary, info.st_uid, info.st_gid)


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
