"""What a check returns: typed violations, never bools or loose dicts.

A JMESPath rule that holds gives one `Violation()`: the rule's own keys, message and fix.
A Python check gives one per problem, overriding what differs: the keys involved, the
place (a JVM option's line, a plan's move), the message or its arguments, the computed
recommended value, the Change that fixes it.
"""

from __future__ import annotations

from advisor import TYPE_CHECKING

if TYPE_CHECKING:
    from advisor.model.changes import Change
    from advisor.model.provenance import Provenance


class Violation:
    """A plain class, not a dataclass: it is defined on every run's start-up path, and a
    dataclass generates (execs) its methods each time the module is imported."""

    __slots__ = ("arguments", "assumptions", "change", "client", "component", "keys", "line", "location", "message",
                 "recommended", "related", "subject")  # fmt: skip

    def __init__(
        self,
        *,
        keys: tuple[str, ...] | None = None,  # default: the rule's keys; the first written one is the place
        location: Provenance | None = None,  # a place that is not a key (a JVM option, a plan's move)
        line: int | None = None,  # a line of the config set's file, when that is all a check knows
        message: str | None = None,  # a finished message (no placeholders), else the rule's template
        arguments: dict[str, str] | None = None,  # values for the template's {placeholders}
        recommended: str | None = None,  # computed for this case, else the rule's text
        change: Change | None = None,  # computed for this case, else from the rule's fix
        assumptions: tuple[str, ...] = (),  # what the verdict rests on (one snapshot, a lifetime count)
        related: tuple[Provenance, ...] = (),  # the same cause at other places (other nodes' samples)
        component: str = "",  # a metric finding's: broker (default), producer or consumer
        client: str = "",  # a client metric finding's library
        subject: str = "",  # what the finding is about when it is not the config set (a live group, a broker)
    ) -> None:
        self.keys, self.location, self.line, self.message = keys, location, line, message
        self.arguments = arguments or {}
        self.recommended, self.change = recommended, change
        self.assumptions, self.related = assumptions, related
        self.component, self.client, self.subject = component, client, subject

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__ if getattr(self, name))
        return f"Violation({shown})"


class NotJudged:
    """What a cluster check returns when there is something to judge but not what it judges by
    (the brokers' write rate without their metrics): said in the run's notes, never a clean pass."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason
