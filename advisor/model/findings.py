"""A finding: one rule's verdict, at one or more places (the same cause on every broker of a
cluster is one finding with every location)."""

from __future__ import annotations

from advisor import TYPE_CHECKING
from advisor.model.changes import Change
from advisor.model.provenance import Provenance
from advisor.named_tuple import NamedTuple

if TYPE_CHECKING:
    from typing import Any


class Fix(NamedTuple):
    """A rule's suggested value and how safely it may be applied (vocabulary.Applicability)."""

    value: str
    applicability: str

    def to_dict(self) -> dict[str, str]:
        return {"value": self.value, "applicability": self.applicability}


class Finding(NamedTuple):
    """(A NamedTuple: defined at every start, cheaper than a frozen dataclass of this many fields;
    never mutated — a changed finding is a new one, `_replace`.) Made by rules/findings.py `make` only."""

    rule: str
    name: str
    severity: str
    category: str
    message: str
    location: Provenance  # the first place; findings are sorted and reported by it
    keys: tuple[str, ...]
    component: str
    client: str
    subject: str  # the config set's name (file, service, topic); several joined for a shared cause
    recommended: str | None = None
    fix: Fix | None = None
    suppressed: bool = False
    justification: str = ""
    related: tuple[Provenance, ...] = ()  # the same cause at other places (other brokers)
    changes: tuple[Change, ...] = ()  # what fixes it, at each place
    assumptions: tuple[str, ...] = ()  # what the verdict rests on that the input did not say
    kafka_version: str | None = None  # the release a version-dependent verdict was reached with
    kafka_version_from: str | None = None  # where that release came from ("image apache/kafka:3.9.0", "assumed")
    confidence: str | None = None  # a metric verdict's: low when it rests on one snapshot or a lifetime count
    product: str = "kafka"  # a product pack's finding names its product (vocabulary.Product) ...
    release: str | None = None  # ... and the product's release it was judged with (kafka_version is Kafka's)
    release_from: str | None = None

    @property
    def path(self) -> str:
        return self.location.path

    @property
    def line(self) -> int:
        return self.location.line

    @property
    def column(self) -> int:
        return self.location.column

    @property
    def locations(self) -> tuple[Provenance, ...]:
        return (self.location, *self.related)

    @property
    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.column, self.rule)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "name": self.name,
            "severity": self.severity,
            "category": self.category,
            "message": self.message,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "keys": list(self.keys),
            "component": self.component,
            "client": self.client,
            "subject": self.subject,
            "recommended": self.recommended,
            "fix": None if self.fix is None else self.fix.to_dict(),
            "suppressed": self.suppressed,
            "justification": self.justification or None,
            "locations": [location.to_dict() for location in self.locations],
            "changes": [{**change.to_dict(), "path": change.path} for change in self.changes],
            "assumptions": list(self.assumptions),
            "kafka_version": self.kafka_version,
            "kafka_version_from": self.kafka_version_from,
            # Report schema 2 carries a metric verdict's confidence as `extra.confidence`, a product pack's
            # finding its product and release as `extra.product`, `extra.release` (docs/output.md).
            **({"extra": self._extra()} if self.confidence or self.product != "kafka" else {}),
        }

    def _extra(self) -> dict[str, Any]:
        extra: dict[str, Any] = {"confidence": self.confidence} if self.confidence else {}
        if self.product != "kafka":
            extra.update(product=self.product, release=self.release, release_from=self.release_from)
        return extra
