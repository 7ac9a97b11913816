"""Where a fact came from: a span of a file, a live cluster's config, or a metric sample.

Every setting, observation and finding carries one of these. All three answer `path`
(a display and grouping name: the file, `live://CLUSTER/RESOURCE`, the scrape origin),
`line` and `column` (0 where there is no line), so suppressions by path, baselines and
every output work the same for each kind; formatters ask `kind` for what differs
(a SARIF physical or logical location, say). NamedTuples: immutable, hashable records that
cost little to define (every run defines them at start-up).
"""

from __future__ import annotations

from advisor import TYPE_CHECKING
from advisor.named_tuple import NamedTuple

if TYPE_CHECKING:
    from typing import Any


class Location(NamedTuple):
    """A position in a file: 1-based line and column; the end (inclusive line, exclusive
    column) and 0-based character offsets where the reader knows them."""

    path: str
    line: int
    column: int = 1
    end_line: int | None = None
    end_column: int | None = None
    offset: int | None = None
    end_offset: int | None = None

    @property
    def kind(self) -> str:
        return "file"

    def to_dict(self) -> dict[str, Any]:
        record: dict[str, Any] = {"kind": self.kind, "path": self.path, "line": self.line, "column": self.column}
        if self.end_line is not None:
            record |= {"end_line": self.end_line, "end_column": self.end_column}
        return record


class LiveConfig(NamedTuple):
    """A value read from a running cluster (DescribeConfigs): which cluster, which resource
    (`broker:1`, `topic:orders`) and Kafka's config source (DYNAMIC_BROKER_CONFIG, ...)."""

    cluster: str
    resource: str
    source: str

    @property
    def kind(self) -> str:
        return "live"

    @property
    def line(self) -> int:
        return 0

    @property
    def column(self) -> int:
        return 0

    @property
    def path(self) -> str:
        return f"live://{self.cluster}/{self.resource}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "path": self.path, "cluster": self.cluster, "resource": self.resource,
                "source": self.source}  # fmt: skip


class MetricSample(NamedTuple):
    """A measured value: the file or endpoint it was read from, the series as written there,
    its time (seconds since the epoch, when known) and its line in a file (0 for a scrape)."""

    origin: str
    series: str
    time: float | None = None
    line: int = 0
    column: int = 0

    @property
    def kind(self) -> str:
        return "metric"

    @property
    def path(self) -> str:
        return self.origin

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "path": self.path, "series": self.series, "time": self.time, "line": self.line}


Provenance = Location | LiveConfig | MetricSample
