"""The load profile: what a workload is, in the numbers that decide its settings (message sizes,
rate, consumers, p99 target, tolerance for loss, ordering, retention, cluster), plus a goal.

A preset (`throughput`, `latency`, `durability`, `availability`, `balanced`) is a starting point:
numbers the user gives win over it, and every number neither gives is assumed — `resolve` says
which, so a recommendation never hides that it guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Goal = Literal["throughput", "latency", "durability", "availability", "balanced"]
GOALS: tuple[str, ...] = ("throughput", "latency", "durability", "availability", "balanced")


class LoadProfile(BaseModel):
    """A workload. Every number is optional: what is missing comes from the goal's preset, else
    from a stated assumption."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    goal: Goal = Field(default="balanced", description="what matters most: the preset the numbers refine")
    message_bytes_avg: int | None = Field(default=None, gt=0, le=100 * 1024 * 1024, description="average record size")
    message_bytes_max: int | None = Field(default=None, gt=0, le=1024 * 1024 * 1024, description="largest record")
    rate_mb_s: float | None = Field(default=None, gt=0, le=1e6, description="average bytes in, MB/s (10^6 bytes)")
    rate_msgs_s: float | None = Field(default=None, gt=0, le=1e10, description="average records in a second")
    peak_factor: float | None = Field(default=None, ge=1, le=1000, description="peak rate over the average")
    consumer_groups: int | None = Field(default=None, ge=0, le=100_000, description="groups reading every record")
    consumers_per_group: int | None = Field(default=None, ge=1, le=100_000, description="consumer instances a group")
    processing_ms: float | None = Field(
        default=None, ge=0, le=3_600_000, description="a consumer's processing time per record, ms"
    )
    p99_ms: float | None = Field(default=None, gt=0, le=86_400_000, description="end-to-end p99 target, ms")
    loss: Literal["none", "some"] | None = Field(default=None, description="may acknowledged records be lost?")
    ordering: Literal["per-key", "none"] | None = Field(default=None, description="must a key's records stay ordered?")
    retention_hours: float | None = Field(default=None, gt=0, le=24 * 365 * 100, description="how long records stay")
    partitions: int | None = Field(default=None, ge=1, le=1_000_000, description="partitions of the topic (if fixed)")
    producers: int | None = Field(default=None, ge=1, le=100_000, description="producer instances sharing the rate")
    brokers: int | None = Field(default=None, ge=1, le=10_000, description="brokers in the cluster")
    replication_factor: int | None = Field(default=None, ge=1, le=32, description="copies of each partition")
    transactions: bool | None = Field(default=None, description="do producers write in transactions (exactly-once)?")

    @model_validator(mode="after")
    def _sizes_agree(self) -> LoadProfile:
        if self.message_bytes_avg and self.message_bytes_max and self.message_bytes_max < self.message_bytes_avg:
            raise ValueError("message_bytes_max is below message_bytes_avg")
        if self.replication_factor and self.brokers and self.replication_factor > self.brokers:
            raise ValueError("replication_factor is above the number of brokers")
        return self


# What each preset says before the user's numbers refine it (kafka-profiles.md §4.1, §4.6).
PRESETS: dict[str, dict[str, Any]] = {
    "throughput": {"loss": "none", "ordering": "none"},
    "latency": {"loss": "none", "ordering": "none", "p99_ms": 50.0},
    "durability": {"loss": "none", "ordering": "per-key"},
    # Writes must go on through failures: the preset trades durability away, and says so.
    "availability": {"loss": "some", "ordering": "none"},
    "balanced": {"loss": "none", "ordering": "none"},
}

# What is assumed when neither the user nor the preset gives a number, and why that number.
ASSUMPTIONS: dict[str, tuple[Any, str]] = {
    "message_bytes_avg": (1000, "a 1 KB record"),
    "rate_mb_s": (10.0, "10 MB/s in"),
    "peak_factor": (2.0, "peaks twice the average"),
    "producers": (1, "one producer instance carries the rate"),
    "consumer_groups": (1, "one consumer group"),
    "consumers_per_group": (1, "one consumer a group"),
    "processing_ms": (0.1, "0.1 ms of processing a record"),
    "retention_hours": (168.0, "Kafka's default retention, a week"),
    "brokers": (3, "three brokers"),
    "replication_factor": (3, "RF 3"),
}


@dataclass(frozen=True)
class Resolved:
    """Every number a recommendation needs, with where it came from."""

    goal: str
    values: dict[str, Any]
    given: frozenset[str]  # named by the user
    preset: frozenset[str]  # from the goal's preset
    assumed: dict[str, str]  # field → what was assumed, in words
    derived: frozenset[str] = frozenset()  # computed from other numbers (MB/s from records and size)
    seen: tuple[tuple[str, str], ...] = ()  # (field, where): read from the user's configurations
    goal_given: bool = False  # the goal named by the user (else the default, balanced)

    def __getitem__(self, name: str) -> Any:  # profile["message_bytes_avg"]
        return self.values[name]

    def origin(self, name: str) -> str:
        if name in self.given:
            return "given"
        if name in dict(self.seen):
            return f"from {dict(self.seen)[name]}"
        if name in self.derived:
            return "derived"
        return "preset" if name in self.preset else "assumed"

    @property
    def msgs_per_second(self) -> float:
        return self.values["rate_msgs_s"]

    @property
    def bytes_per_second(self) -> float:
        return self.values["rate_mb_s"] * 1e6


def resolve(profile: LoadProfile) -> Resolved:
    """The profile with every gap filled: the user's numbers, then the preset's, then assumptions.
    A rate given in records derives the MB/s (and back) from the average size."""
    given = {name for name, value in profile.model_dump().items() if value is not None and name != "goal"}
    values: dict[str, Any] = {name: value for name, value in profile.model_dump().items() if value is not None}
    preset = {name for name in PRESETS[profile.goal] if name not in values}
    for name in preset:
        values[name] = PRESETS[profile.goal][name]
    assumed: dict[str, str] = {}
    derived = {"rate_msgs_s"} if "rate_msgs_s" not in values else {"rate_mb_s"} if "rate_mb_s" not in values else set()
    for name, (value, words) in ASSUMPTIONS.items():
        if name not in values and not (name == "rate_mb_s" and "rate_msgs_s" in values):
            values[name] = value
            assumed[name] = words
    if "rate_mb_s" not in values:
        values["rate_mb_s"] = values["rate_msgs_s"] * values["message_bytes_avg"] / 1e6
    values.setdefault("rate_msgs_s", values["rate_mb_s"] * 1e6 / values["message_bytes_avg"])
    if "message_bytes_max" not in values:
        values["message_bytes_max"] = values["message_bytes_avg"]
        derived.add("message_bytes_max")
    values.setdefault("p99_ms", None)  # no target: nothing is bounded by one
    values.setdefault("partitions", None)  # computed from the rate when not fixed
    values.setdefault("transactions", False)  # unless given, or a producer's configuration says so
    values["replication_factor"] = min(values["replication_factor"], values["brokers"])
    return Resolved(profile.goal, values, frozenset(given), frozenset(preset), assumed, frozenset(derived),
                    goal_given="goal" in profile.model_fields_set)  # fmt: skip


def with_configs(resolved: Resolved, seen: dict[str, tuple[Any, str]]) -> Resolved:
    """The profile with what the user's configurations show (field → (value, where)) where the
    user gave nothing: a producer writing `transactional.id` puts transactions in play."""
    found = {name: found for name, found in seen.items() if name not in resolved.given}
    if not found:
        return resolved
    values = {**resolved.values, **{name: value for name, (value, _) in found.items()}}
    assumed = {name: words for name, words in resolved.assumed.items() if name not in found}
    return Resolved(resolved.goal, values, resolved.given, resolved.preset - found.keys(), assumed, resolved.derived,
                    tuple((name, where) for name, (_, where) in sorted(found.items())),
                    resolved.goal_given)  # fmt: skip
