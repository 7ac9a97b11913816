"""The plan as an ordered list of single changes: one parameter at a time, or one set of
parameters that must move together (idempotence's four, the replication pair, a record-size limit
along its whole path), each with the edit of the user's own files and the command that checks it.

Order (kafka-profiles.md §1, the method: correctness before speed, one change proven before the
next): what loses or duplicates records first, then what keeps partitions writable, then the
consumers' correctness and liveness, record-size limits, then throughput and latency, then the
brokers' housekeeping and the topics' partitions.
"""

from __future__ import annotations

from typing import Any

from advisor.named_tuple import NamedTuple
from advisor.recommend.against import Against
from advisor.recommend.plan import Plan
from advisor.recommend.values import Recommendation
from advisor.verify.proofs import PROOFS

# Keys that must change at once, and why.
TOGETHER: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"acks", "enable.idempotence", "retries", "max.in.flight.requests.per.connection"}),
     "idempotence holds only with acks=all, retries above 0 and at most 5 requests in flight: change them at once"),
    (frozenset({"replication.factor", "min.insync.replicas", "default.replication.factor"}),
     "min.insync.replicas must stay below the replication factor, or acks=all writes stop at the first broker down"),
    (frozenset({"max.request.size", "message.max.bytes", "max.message.bytes", "replica.fetch.max.bytes",
                "max.partition.fetch.bytes", "fetch.max.bytes"}),
     "a larger record must pass every limit on its way: producer, broker, topic, followers and consumers"),
    (frozenset({"session.timeout.ms", "heartbeat.interval.ms"}),
     "the heartbeat must stay well inside the session timeout (a third of it at most)"),
    (frozenset({"max.poll.records", "max.poll.interval.ms"}),
     "a poll's records must be processed within the poll interval"),
)  # fmt: skip

# Stage of each key (lower first); keys not named come after the consumers' fetch settings.
_STAGES: dict[str, int] = {
    **dict.fromkeys(("acks", "enable.idempotence", "retries", "max.in.flight.requests.per.connection",
                     "delivery.timeout.ms"), 0),
    **dict.fromkeys(("replication.factor", "min.insync.replicas", "default.replication.factor",
                     "unclean.leader.election.enable"), 1),
    **dict.fromkeys(("enable.auto.commit", "isolation.level", "auto.offset.reset"), 2),
    **dict.fromkeys(("session.timeout.ms", "heartbeat.interval.ms", "max.poll.records", "max.poll.interval.ms"), 3),
    **dict.fromkeys(("max.request.size", "message.max.bytes", "max.message.bytes", "replica.fetch.max.bytes",
                     "max.partition.fetch.bytes", "fetch.max.bytes"), 4),
    **dict.fromkeys(("batch.size", "linger.ms", "compression.type", "buffer.memory"), 5),
    **dict.fromkeys(("fetch.min.bytes", "fetch.max.wait.ms"), 6),
    "partitions": 9,
}  # fmt: skip
_LATER = 7
_BENCHED = frozenset({"batch.size", "linger.ms", "compression.type", "acks", "enable.idempotence", "buffer.memory"})


class Step(NamedTuple):
    number: int
    recommendations: tuple[Recommendation, ...]
    together: str  # why these move at once ("" for one parameter)
    against: tuple[Against, ...]  # the user's settings this step changes (now differs)
    edit: str  # the unified diff of this step's edits of the user's files, redacted ("" when none)
    by_hand: tuple[str, ...]  # places no edit can be made in (a topic declared where it is created)
    snippet: str  # the values to set where no file of the run configures the component
    check: str  # the command that checks it afterwards
    check_why: str  # what that command shows

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(f"{r.component} {r.key}" for r in self.recommendations)

    def to_dict(self) -> dict[str, Any]:
        changes = [{"component": r.component, "key": r.key, "value": r.value, "proof": r.proof, "expect": r.expect}
                   for r in self.recommendations]  # fmt: skip
        return {"number": self.number, "changes": changes,
                "together": self.together or None, "now": [a.to_dict() for a in self.against if a.differs],
                "edit": self.edit, "by_hand": list(self.by_hand), "snippet": self.snippet,
                "check": self.check, "check_why": self.check_why}  # fmt: skip


def _group(key: str) -> tuple[frozenset[str], str] | None:
    return next((group for group in TOGETHER if key in group[0]), None)


def _stage(recommendation: Recommendation) -> int:
    if recommendation.component == "broker" and recommendation.key == "compression.type":
        return _LATER  # the broker's recompression: housekeeping, after the producers compress
    return _STAGES.get(recommendation.key, _LATER)


def order(plan: Plan, configured: bool) -> tuple[list[list[Recommendation]], list[Recommendation]]:
    """(the steps' recommendations, those already as recommended). `configured`: the run read the
    user's configurations — only what they would change is a step; without them every value is."""
    pending: list[Recommendation] = []
    already: list[Recommendation] = []
    for recommendation in plan.recommendations:
        mine = [a for a in plan.against if a.recommendation is recommendation]
        if configured and mine and not any(a.differs for a in mine):
            already.append(recommendation)
        else:
            pending.append(recommendation)
    groups: list[list[Recommendation]] = []
    placed: dict[frozenset[str], list[Recommendation]] = {}
    for recommendation in pending:
        group = _group(recommendation.key)
        if group is None:
            groups.append([recommendation])
        elif group[0] in placed:
            placed[group[0]].append(recommendation)
        else:
            placed[group[0]] = [recommendation]
            groups.append(placed[group[0]])
    groups.sort(key=lambda members: min(_stage(r) for r in members))  # stable: recommend's order within a stage
    return groups, already


def check_command(members: list[Recommendation], metrics: list[str], producer_file: str | None) -> tuple[str, str]:
    """The command to run once the step is deployed, and what it shows."""
    keys = sorted({r.key for r in members})
    proven = [key for key in keys if key in PROOFS]
    before = " ".join(metrics) if metrics else "before.prom"
    if proven:
        expect = " ".join(f"--expect {key}" for key in proven)
        return (f"kafka-advisor verify --before {before} --after after.prom {expect}",
                "the proving metrics before and after (after.prom: the same scrape, saved once the change runs), "
                "improved or regressed beyond their noise")  # fmt: skip
    if any(r.component == "producer" and r.key in _BENCHED for r in members):
        after = "producer-after.properties"
        return (
            f"kafka-advisor bench --bootstrap-server HOST:9092 --perf-test kafka-producer-perf-test.sh "
            f"--before {producer_file or 'producer.properties'} --after {after}",
            "records/s and latency percentiles, the two settings interleaved A B A B, at equal durability",
        )
    proofs = "; ".join(dict.fromkeys(f"{r.proof} — {r.expect}" for r in members))
    return (
        f"kafka-advisor analyze {before if metrics else '<your metrics endpoint>'}",
        f"the metric rules again, and by hand: {proofs}",
    )
