"""Fixes as data. A rule proposes a `Change` — set (or insert) or remove one key of one config
set — in Kafka's terms; a writer for the file's format (the inverse of its loader) turns it
into `Edit`s of the text: advisor/fix/. Nothing here touches a file.
"""

from __future__ import annotations

from advisor import TYPE_CHECKING
from advisor.named_tuple import NamedTuple

if TYPE_CHECKING:
    from typing import Any


class Change(NamedTuple):
    action: str  # set | remove
    key: str  # the canonical key
    value: str | None  # for set
    applicability: str  # vocabulary.Applicability: safe | unsafe | display-only
    path: str  # the file of the config set
    subject: str  # the config set's name

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "key": self.key, "value": self.value, "applicability": self.applicability}


class Edit(NamedTuple):
    """Replace the text between two offsets of one file (an insert when they are equal)."""

    path: str
    start: int
    end: int
    text: str
