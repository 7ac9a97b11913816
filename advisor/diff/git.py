"""The paths as they were at a git revision, unpacked into a folder (`diff --git REV PATH...`):
`git archive`, read as a bounded tar stream, regular files only, nothing outside the folder."""

from __future__ import annotations

import subprocess
import tarfile
from pathlib import Path

MAX_BYTES = 200 * 1024 * 1024  # a revision's config files; more is not a config repository


class GitError(Exception):
    pass


def toplevel(path: Path) -> Path:
    folder = path if path.is_dir() else path.parent
    result = subprocess.run(["git", "-C", str(folder), "rev-parse", "--show-toplevel"], capture_output=True,
                            text=True, timeout=60)  # fmt: skip
    if result.returncode != 0:
        raise GitError(f"{path}: not inside a git repository")
    return Path(result.stdout.strip())


def checkout(revision: str, paths: list[Path], into: Path) -> list[Path]:
    """Each path's state at `revision`, under `into` (same relative place); a path absent then is
    an empty folder or a missing file there, so everything in it reads as added."""
    if revision.startswith("-"):
        raise GitError(f"{revision}: not a revision")
    root = toplevel(paths[0])
    relative = []
    for path in paths:
        try:
            relative.append(path.resolve().relative_to(root.resolve()).as_posix() or ".")
        except ValueError:
            raise GitError(f"{path}: outside the repository {root}") from None
    command = ["git", "-C", str(root), "archive", "--format=tar", revision, "--", *relative]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None
    try:
        with tarfile.open(fileobj=process.stdout, mode="r|") as archive:
            total = 0
            for member in archive:
                total += member.size
                if total > MAX_BYTES:
                    raise GitError(f"{revision}: more than {MAX_BYTES:,} bytes of files under the paths")
                if not member.isfile():
                    continue  # folders are made as needed; links and devices are never unpacked
                target = (into / member.name).resolve()
                if into.resolve() not in target.parents:
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                source = archive.extractfile(member)
                if source is not None:
                    target.write_bytes(source.read())
    except tarfile.TarError:
        pass  # nothing under the paths at that revision: git wrote no archive
    finally:
        process.stdout.close()
        errors = process.stderr.read().decode(errors="replace") if process.stderr else ""
        code = process.wait(timeout=60)
    if code != 0 and "did not match any files" not in errors:
        raise GitError(f"git archive {revision}: {errors.strip().splitlines()[-1] if errors.strip() else code}")
    return [into / r for r in relative]
