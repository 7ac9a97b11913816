"""Files a loader reads beside the one it was given, as the software does: a compose file's
`.env` and `env_file:`s, a Spring profile file's `application.yml`.

Bounded like every input, and only inside the given file's folder tree or the working
directory: a file from anyone must not make the linter read /etc or a home folder."""

from __future__ import annotations

from pathlib import Path

MAX_BYTES = 1 << 20


def readable(anchor: Path, written: str) -> Path | None:
    """`written` (relative to `anchor`'s folder) when it may be read, else None (a name the system
    refuses — too long, a NUL — names no file either)."""
    try:
        if not (anchor.parent / written).is_file():  # most often there is none: no path resolved
            return None
        candidate = (anchor.parent / written).resolve()
        roots = (anchor.parent.resolve(), Path.cwd().resolve())
        if not any(candidate == root or root in candidate.parents for root in roots):
            return None
        if not candidate.is_file() or candidate.stat().st_size > MAX_BYTES:
            return None
    except (OSError, ValueError):
        return None
    return candidate


def text_of(found: Path) -> str | None:
    """A file found beside another, as text; None when it cannot be read or decoded (the
    file it belongs to says so, or reads on without it)."""
    from advisor.sources.text import read_text

    try:
        return read_text(found)
    except (OSError, UnicodeDecodeError):
        return None
