"""Kafka version strings and how they map onto the releases the catalog holds."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from advisor import lazy_re

_VERSION = lazy_re.compile(r"^(\d+)\.(\d+)(?:\.(\d+))?(?:[-.].*)?$")


class UnknownVersionError(ValueError):
    """A version the catalog cannot answer for (malformed, or older than every release)."""


@cache  # asked for the same few releases for every rule and config set
def parse(version: str) -> tuple[int, int, int]:
    """'3.9' -> (3, 9, 0); '4.0.1' -> (4, 0, 1); '3.7-IV4' -> (3, 7, 0)."""
    match = _VERSION.match(version.strip())
    if not match:
        raise UnknownVersionError(f"not a Kafka version: {version!r} (expected e.g. 3.9 or 4.0.1)")
    major, minor, patch = match.groups()
    return int(major), int(minor), int(patch or 0)


def resolve(version: str | None, releases: Sequence[str]) -> str:
    """The catalog release that answers for `version`.

    The same minor line if the catalog has it (patches do not change config
    definitions); otherwise the newest release before it; None means the newest.
    """
    if version is None:
        return releases[-1]
    wanted = parse(version)
    candidates = [r for r in releases if parse(r)[:2] <= wanted[:2]]
    if not candidates:
        raise UnknownVersionError(f"Kafka {version} is older than the oldest release in the catalog ({releases[0]})")
    return candidates[-1]
