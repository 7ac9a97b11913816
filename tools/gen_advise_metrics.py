#!/usr/bin/env python3
"""Write fixtures/advise/metrics.prom: ten minutes of one three-broker cluster saved with
timestamps, a scrape a minute, in the shapes public exporters write — the Prometheus JMX
exporter's BrokerTopicMetrics (per topic and all topics, per broker `instance`), kafka_exporter's
partition and consumer-group offsets, node_exporter's free space. The numbers are ours: 12 MB/s
in at 800-byte records; group `billing` falls behind, `search` drains a backlog; kafka-1's disk
fills. tests/advise checks the file is what this script writes (`--check`).

Usage: tools/gen_advise_metrics.py [--check]
"""

from __future__ import annotations

import sys
from pathlib import Path

TARGET = Path(__file__).resolve().parents[1] / "fixtures" / "advise" / "metrics.prom"
START_MS = 1764583200000  # 2025-12-01T10:00:00Z
STEP_S = 60
SCRAPES = 11
BROKERS = ("kafka-1:7071", "kafka-2:7071", "kafka-3:7071")
RECORDS_PER_BROKER = 5000.0  # records/s each broker leads
RECORD_BYTES = 800.0
PARTITIONS = 3
END_RATE = 5000.0  # records/s per partition of `orders`
GROUPS = {"billing": (4000.0, 20_000.0), "search": (6500.0, 400_000.0)}  # records/s read, lag at the start


def lines() -> list[str]:
    out = [
        "# Ten minutes of one three-broker cluster, a scrape a minute, saved with their timestamps (ms).",
        "# Written by tools/gen_advise_metrics.py: 12 MB/s in at 800-byte records; billing falls behind,",
        "# search drains a backlog, kafka-1's data disk fills.",
        "# TYPE kafka_server_brokertopicmetrics_bytesin_total counter",
        "# TYPE kafka_server_brokertopicmetrics_messagesin_total counter",
        "# TYPE kafka_topic_partition_current_offset gauge",
        "# TYPE kafka_consumergroup_current_offset gauge",
        "# TYPE node_filesystem_avail_bytes gauge",
    ]
    for scrape in range(SCRAPES):
        at = START_MS + scrape * STEP_S * 1000
        elapsed = scrape * STEP_S
        for number, broker in enumerate(BROKERS):
            base = 1e9 * (number + 1)  # each broker's counters started at its own time
            messages = base / RECORD_BYTES + RECORDS_PER_BROKER * elapsed
            written = base + RECORDS_PER_BROKER * RECORD_BYTES * elapsed
            labels = f'instance="{broker}",job="kafka"'
            out.append(f"kafka_server_brokertopicmetrics_bytesin_total{{{labels}}} {written:.0f} {at}")
            out.append(f'kafka_server_brokertopicmetrics_bytesin_total{{{labels},topic="orders"}} {written:.0f} {at}')
            out.append(f"kafka_server_brokertopicmetrics_messagesin_total{{{labels}}} {messages:.0f} {at}")
            out.append(
                f'kafka_server_brokertopicmetrics_messagesin_total{{{labels},topic="orders"}} {messages:.0f} {at}'
            )
        for partition in range(PARTITIONS):
            end = 50_000_000 + END_RATE * elapsed
            where = f'instance="kafka-exporter:9308",topic="orders",partition="{partition}"'
            out.append(f"kafka_topic_partition_current_offset{{{where}}} {end:.0f} {at}")
            for group, (read, lag) in GROUPS.items():
                committed = min(end, 50_000_000 - lag + read * elapsed)
                labels = (
                    f'instance="kafka-exporter:9308",consumergroup="{group}",topic="orders",partition="{partition}"'
                )
                out.append(f"kafka_consumergroup_current_offset{{{labels}}} {committed:.0f} {at}")
        for number, broker in enumerate(BROKERS):
            host = broker.split(":")[0]
            free = 80e9 - (4.5e6 * elapsed if number == 0 else 0)
            volume = f'instance="{host}:9100",device="/dev/nvme1n1",fstype="xfs",mountpoint="/var/lib/kafka"'
            out.append(f"node_filesystem_avail_bytes{{{volume}}} {free:.0f} {at}")
    return out


def main() -> int:
    text = "\n".join(lines()) + "\n"
    if "--check" in sys.argv[1:]:
        if TARGET.read_text() != text:
            print(f"{TARGET} is stale: run tools/gen_advise_metrics.py", file=sys.stderr)
            return 1
        return 0
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
