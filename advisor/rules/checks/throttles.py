"""A replication throttle against the write rate the brokers measure (`audit` or `lint
--bootstrap-server` with `--metrics`): the --throttle a repository's kafka-reassign-partitions
script gives a move, and the throttle rates set on the brokers while a reassignment runs.

Kafka's operations documentation ("Ensuring Progress"): a throttle below max(BytesInPerSec) may
let a moving replica never catch up, because its partition is written faster than it may copy.
"""

from __future__ import annotations

import math
from typing import Any

from advisor.analysis.write_rates import WriteRate, peak_write_rates
from advisor.model.changes import Change
from advisor.model.live_state import Snapshot
from advisor.model.provenance import Location, Provenance
from advisor.model.topology import Cluster
from advisor.named_tuple import NamedTuple
from advisor.rules.checks.live import THROTTLE_RATES, live_of
from advisor.rules.checks.plans import size_text, throttled_executions
from advisor.rules.registry import cluster_check
from advisor.rules.violation import NotJudged, Violation

_NO_METRICS = ("the run has no metrics of its brokers (--metrics, --prometheus; metrics that name several "
               "clusters are joined to none): the throttle is judged against their write rate "
               "(BytesInPerSec)")  # fmt: skip
_NO_RATE = ("the metrics given hold no write rate of a broker (BytesInPerSec: a count needs two timed samples, "
            "or a scrape taken twice)")  # fmt: skip


# The Changes this module's checks compute, for docs/fix.md: (check, action, applicability, what).
COMPUTED_FIXES = (("throttles:throttle_below_write_rate", "set", "unsafe",
                   "a script's `--throttle` raised to the busiest broker's measured write rate"),)  # fmt: skip


class Throttle(NamedTuple):
    bytes_per_second: int
    what: str  # how the finding names it
    place: Provenance
    subject: str
    keys: tuple[str, ...]
    script: tuple[str, str] | None = None  # the script's (path, config set name): its --throttle is a fix


def _scripted(cluster: Cluster) -> list[Throttle]:
    """Each --throttle of a kafka-reassign-partitions --execute among the files given."""
    found = []
    for config_set, command, throttle in throttled_executions(cluster):
        line = int((command.get("flag_lines") or {}).get("--throttle") or command.get("line") or 1)
        found.append(Throttle(throttle, f"the script's --throttle {throttle}", Location(config_set.path, line),
                              config_set.name, (), (config_set.path, config_set.name)))  # fmt: skip
    return found


def _running(snapshot: Snapshot) -> list[Throttle]:
    """The throttle rates bounding a reassignment in progress: the follower rate of each broker
    receiving a replica, the leader rate of each broker holding one the move copies from."""
    if not snapshot.reassignments:
        return []
    receiving = {b for move in snapshot.reassignments for b in move.adding}
    sending = {b for move in snapshot.reassignments for b in set(move.replicas) - set(move.adding)}
    found = []
    for broker in sorted(snapshot.broker_configs):
        for key, involved in zip(THROTTLE_RATES, (sending, receiving), strict=True):
            value = snapshot.broker_value(broker, key)
            entry = snapshot.broker_configs[broker].get(key)
            if broker in involved and value is not None and entry is not None and value.strip().isdigit():
                found.append(Throttle(int(value), f"{key}={value} on broker {broker}",
                                      snapshot.place(f"broker:{broker}", entry.source), f"broker {broker}",
                                      (key,)))  # fmt: skip
    return found


def _rate(value: float) -> str:
    return f"{size_text(value)}/s"


def _measured(peak: WriteRate) -> str:
    over = "its peak over what was observed" if peak.signals > 1 else "as measured once"
    return f"{peak.node} takes in {_rate(peak.bytes_per_second)} from producers ({over})"


@cluster_check(arguments=("throttle", "rate", "measured"))
def throttle_below_write_rate(cluster: Cluster, peers: dict[str, Any], params: dict[str, Any]) -> Any:
    """Each throttle (a script's --throttle, or a broker's rate while a reassignment runs) below
    the busiest broker's measured write rate. Not judged without a throttle; said as not judged
    when there is one but no write rate was measured."""
    snapshot = live_of(cluster)
    # a cluster read as the files' context (lint --bootstrap-server): only the files' throttles
    throttles = [*_scripted(cluster), *([] if cluster.context_only else _running(snapshot))]
    if not throttles:
        return None
    if cluster.measured is None:
        return NotJudged(_NO_METRICS)
    rates = peak_write_rates(cluster.measured)
    if not rates:
        return NotJudged(_NO_RATE)
    busiest = rates[0]
    least = math.ceil((busiest.bytes_per_second + 1) / 1e6) * 1_000_000  # the bound, rounded up to whole MB/s
    return [
        Violation(
            keys=throttle.keys,
            location=throttle.place,
            subject=throttle.subject,
            arguments={
                "throttle": throttle.what,
                "rate": _rate(throttle.bytes_per_second),
                "measured": _measured(busiest),
            },
            recommended=str(least) if throttle.keys else f"--throttle {least} or more",
            related=(busiest.place,),
            # the script's own flag, raised to the bound (unsafe: the move runs faster, against the traffic)
            change=Change("set", "--throttle", str(least), "unsafe", *throttle.script) if throttle.script else None,
        )
        for throttle in throttles
        if throttle.bytes_per_second < busiest.bytes_per_second
    ]
