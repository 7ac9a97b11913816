"""Sizing from a resolved load profile: partitions, disk, replication and fan-out traffic, page
cache — each with its formula, its inputs and its source (the public document it comes from)."""

from __future__ import annotations

import math
from typing import Any

from advisor.named_tuple import NamedTuple
from advisor.recommend import citations
from advisor.recommend.profile import Resolved

# A partition's producer-side throughput when nobody measured it: a conservative figure for one
# partition's leader on ordinary disks (assumed, and said; `kafka-advisor bench` measures yours).
PRODUCE_MB_S_PER_PARTITION = 10.0


class Sized(NamedTuple):
    name: str
    value: float
    unit: str
    formula: str
    inputs: dict[str, Any]
    source: str
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {**self._asdict(), "links": citations.links(self.source)}


def consumer_bytes_per_second(profile: Resolved) -> float | None:
    """What one consumer (one partition's reader) can process a second, from its time per record."""
    if not profile["processing_ms"]:
        return None
    return 1000.0 / profile["processing_ms"] * profile["message_bytes_avg"]


def partitions(profile: Resolved) -> Sized:
    """P = max(T / p_prod, T / p_cons, consumers a group), T the peak rate: enough partitions for
    the writes, for one consumer a partition to keep up, and for every consumer to get one."""
    peak = profile.bytes_per_second * profile["peak_factor"]
    by_producing = peak / (PRODUCE_MB_S_PER_PARTITION * 1e6)
    reader = consumer_bytes_per_second(profile)
    by_consuming = peak / reader if reader else 0.0
    brokers = profile["brokers"] or 1  # every broker leads a share of the writes
    needed = max(math.ceil(by_producing), math.ceil(by_consuming), profile["consumers_per_group"], brokers, 1)
    fixed = profile["partitions"]
    note = ""
    if fixed is not None and fixed < needed:
        note = f"the topic's {fixed} partitions are fewer than the {needed} this load needs"
    elif needed == 1:
        note = (
            "1 partition: the peak, one consumer and one broker fit in it; no group can read it with more than "
            "one consumer, and partitions added later move keys to other partitions — size it for the growth "
            "you expect (--consumers, --peak-factor) if it will grow"
        )
    elif by_consuming > profile["consumers_per_group"]:
        note = (
            f"a group needs {math.ceil(by_consuming)} consumers, one a partition, to process the peak at "
            f"{profile['processing_ms']:g} ms a record; it has {profile['consumers_per_group']}"
        )
    return Sized("partitions", fixed if fixed is not None else needed, "partitions",
                 "max(⌈T_peak / p_prod⌉, ⌈T_peak / p_cons⌉, consumers per group, brokers)",
                 {"T_peak (MB/s)": round(peak / 1e6, 3), "p_prod (MB/s, assumed)": PRODUCE_MB_S_PER_PARTITION,
                  "p_cons (MB/s)": round(reader / 1e6, 3) if reader else None,
                  "consumers per group": profile["consumers_per_group"], "brokers": brokers},
                 citations.CONFLUENT_PARTITIONS, note)  # fmt: skip


def disk_per_broker(profile: Resolved) -> Sized:
    retention_s = profile["retention_hours"] * 3600
    value = profile.bytes_per_second * retention_s * profile["replication_factor"] * 1.2 / profile["brokers"]
    return Sized("disk per broker", value, "bytes", "ingress × retention × RF × 1.2 ÷ brokers",
                 {"ingress (MB/s)": profile["rate_mb_s"], "retention (h)": profile["retention_hours"],
                  "RF": profile["replication_factor"], "brokers": profile["brokers"]},
                 f"{citations.AWS_MSK_SIZING} (20 % headroom)")  # fmt: skip


def replication_traffic(profile: Resolved) -> Sized:
    value = profile.bytes_per_second * (profile["replication_factor"] - 1)
    return Sized("replication traffic (cluster)", value, "bytes/s", "ingress × (RF − 1)",
                 {"ingress (MB/s)": profile["rate_mb_s"], "RF": profile["replication_factor"]},
                 citations.MSK_REPLICATION)  # fmt: skip


def writes_per_broker(profile: Resolved) -> Sized:
    value = profile.bytes_per_second * profile["replication_factor"] / profile["brokers"]
    return Sized("disk writes per broker", value, "bytes/s", "ingress × RF ÷ brokers",
                 {"ingress (MB/s)": profile["rate_mb_s"], "RF": profile["replication_factor"],
                  "brokers": profile["brokers"]}, citations.MSK_WRITE_IO)  # fmt: skip


def egress(profile: Resolved) -> Sized:
    value = profile.bytes_per_second * profile["consumer_groups"]
    return Sized("consumer egress (cluster)", value, "bytes/s", "ingress × consumer groups",
                 {"ingress (MB/s)": profile["rate_mb_s"], "consumer groups": profile["consumer_groups"]},
                 f"{citations.AWS_MSK_SIZING} (Express brokers: egress = ingress × consumer groups)")  # fmt: skip


def page_cache_per_broker(profile: Resolved) -> Sized:
    value = profile.bytes_per_second * profile["replication_factor"] / profile["brokers"] * 30
    return Sized("page cache per broker", value, "bytes", "disk writes per broker × 30 s",
                 {"disk writes per broker (MB/s)": round(value / 30 / 1e6, 3)},
                 f"{citations.KAFKA_OPS}: Hardware and OS (about 30 s of writes in the page cache)")  # fmt: skip


def all_sizes(profile: Resolved) -> list[Sized]:
    return [partitions(profile), disk_per_broker(profile), writes_per_broker(profile), replication_traffic(profile),
            egress(profile), page_cache_per_broker(profile)]  # fmt: skip
