"""What a check returns: typed violations, never bools or loose dicts.

A JMESPath rule that holds gives one `Violation()`: the rule's own keys, message and fix.
A Python check gives one per problem, overriding what differs: the keys involved, the
place (a JVM option's line, a plan's move), the message or its arguments, the computed
recommended value, the Change that fixes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from advisor.model.changes import Change
from advisor.model.provenance import Provenance


@dataclass(frozen=True)
class Violation:
    keys: tuple[str, ...] | None = None  # default: the rule's keys; the first written one is the place
    location: Provenance | None = None  # a place that is not a key (a JVM option, a plan's move)
    line: int | None = None  # a line of the config set's file, when that is all a check knows
    message: str | None = None  # a finished message (no placeholders), else the rule's template
    arguments: dict[str, str] = field(default_factory=dict)  # values for the template's {placeholders}
    recommended: str | None = None  # computed for this case, else the rule's text
    change: Change | None = None  # computed for this case, else from the rule's fix
