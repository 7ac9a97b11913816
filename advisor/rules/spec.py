"""Rules as the engine uses them: plain records, no pydantic on the lint path.

The pydantic model in definition.py validates every rule file (registry.py decides when);
these classes only carry data that the model has accepted.
"""

from __future__ import annotations

from functools import cache

from advisor import TYPE_CHECKING, lazy_re
from advisor.model.vocabulary import Client
from advisor.named_tuple import NamedTuple

if TYPE_CHECKING:
    from typing import Any

ALL_CLIENTS = Client.values()
_BOUND = lazy_re.compile(r"^(>=|<=|>|<|==)\s*(\d+(?:\.\d+){0,2})$")


@cache  # a rule set has a handful of distinct ranges, asked about for every config set
def version_range(spec: str) -> tuple[tuple[str, tuple[int, int, int]], ...]:
    """'>=3.0.1,<4.0' -> [('>=', (3,0,1)), ('<', (4,0,0))]."""
    bounds = []
    for part in spec.split(","):
        match = _BOUND.match(part.strip())
        if not match:
            raise ValueError(f"bad version bound {part!r} in {spec!r} (expected e.g. '>=3.0,<4.0')")
        numbers = [int(n) for n in match.group(2).split(".")] + [0, 0]
        bounds.append((match.group(1), (numbers[0], numbers[1], numbers[2])))
    return tuple(bounds)


_CHECKS = {
    ">=": lambda a, b: a >= b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    "<": lambda a, b: a < b,
    "==": lambda a, b: a == b,
}


@cache
def in_range(version: tuple[int, int, int], spec: str) -> bool:
    return all(_CHECKS[op](version, bound) for op, bound in version_range(spec))


class AppliesTo(NamedTuple):
    components: list[str] = []  # noqa: RUF012 - read only; empty only for entity (metric) rules
    clients: list[str] | tuple[str, ...] = ALL_CLIENTS


class Example(NamedTuple):
    bad: str
    good: str
    component: str | None = None
    alongside: dict[str, str] | None = None  # {"name": file name, "text": its content}


class FixSpec(NamedTuple):
    """A rule's fix as its file writes it: which key gets which value."""

    value: str
    applicability: str
    key: str | None = None
    action: str = "set"

    def to_dict(self) -> dict[str, Any]:
        return self._asdict()


class Watch(NamedTuple):
    """How an entity rule reads its metric (rules/definition.py Watch says what each field means)."""

    metric: str
    fires: str
    over: str = "node"
    hysteresis: float | None = None  # None: 0, or half the threshold for a rule judged past a setting
    labels: dict[str, str | list[str]] = {}  # noqa: RUF012 - read only
    raised: bool = False
    lifetime: bool = True
    past: str | None = None
    events: bool = False


class Definition(NamedTuple):
    """A rule as the run uses it (a NamedTuple: cheaper to define at each start than a frozen
    dataclass of this many fields; never mutated, so its empty defaults are shared safely)."""

    id: str
    name: str
    summary: str
    severity: str
    category: str
    applies_to: AppliesTo
    message: str
    rationale: str
    recommended: str
    example: Example
    references: list[str]
    source: str
    kafka_versions: str = ">=2.8"
    releases: str | None = None  # a product pack's rules: the product's releases it judges
    exact_release: bool = False  # judged only where the pack's catalog read the set's own release
    when: str | None = None
    python: str | None = None
    keys: list[str] = []  # noqa: RUF012 - read only
    fix: FixSpec | None = None
    skip_in_dev: bool = False
    assumes_brokers: bool = False  # an uncounted broker is judged as one of several, said in the finding
    scope: str = "config-set"
    params: dict[str, dict[str, Any]] = {}  # noqa: RUF012 - read only
    watch: Watch | None = None  # entity rules: the metric and how it is judged
    live: bool = False  # judges only what `audit` read from a running cluster
    beside: bool = False  # a live rule judging the files given against the cluster: runs for lint too

    def param_values(self, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
        """The rule's parameters: defaults, then what the project config sets."""
        return {name: (overrides or {}).get(name, spec["default"]) for name, spec in self.params.items()}

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> Definition:
        values = dict(raw)
        values.pop("basis", None)  # the team's notes: for developers, never carried into a run
        values["applies_to"] = AppliesTo(**values["applies_to"])
        values["example"] = Example(**values["example"])
        if values.get("fix") is not None:
            values["fix"] = FixSpec(**values["fix"])
        if values.get("watch") is not None:
            values["watch"] = Watch(**values["watch"])
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        record = self._asdict()
        record["fix"] = self.fix.to_dict() if self.fix is not None else None
        record["watch"] = self.watch._asdict() if self.watch is not None else None
        return record
