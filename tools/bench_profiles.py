#!/usr/bin/env python3
"""The proof table: every preset's recommended producer and consumer settings against the client
defaults, for 200-byte and 100 KB records, measured with `kafka-advisor bench` on the project's
test cluster (it must be up: tools/kafka-cluster up) — the unbounded producer (records/s), the
backlog read (kafka-consumer-perf-test fetch MiB/s) and a live stream at a rate the cluster
sustains (producer p99, end-to-end p99, fetches per 1000 records). Writes the rows to
advisor/recommend/proofs.json (what `recommend` cites) and the table into docs/performance.md.

    .venv/bin/python tools/bench_profiles.py            # the whole table (about an hour here)
    .venv/bin/python tools/bench_profiles.py --only latency-linger-0   # rows again, the rest kept
    .venv/bin/python tools/bench_profiles.py --smoke DIR [--only ROW]  # one short row into DIR (make test)
    .venv/bin/python tools/bench_profiles.py --check      # the doc's table is proofs.json's
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tools"))
sys.path.insert(0, str(REPO_ROOT))

from advisor.recommend import proofs  # noqa: E402

PERFORMANCE_DOC = REPO_ROOT / "docs" / "performance.md"

# (row id, goal, extra bench flags, the producer's after side, the consumer's after side): "profile"
# is what recommend gives for the goal, "same" the before side's (nothing changes), a dict the
# row's own settings. Each row changes one component, so that every figure it moves — end-to-end
# latency moves with both — is that component's doing: each preset's producer values; the
# throughput preset's consumer values (the only consumer speed values a preset changes: the
# latency preset's are the defaults, the others' are about commits and liveness); and
# linger.ms=0 alone, the candidate a latency goal might lower p99 with on Kafka 4.x.
Side = "str | dict[str, str]"
Row = tuple[str, str, tuple[str, ...], Side, Side]
ROWS: tuple[Row, ...] = (
    ("throughput", "throughput", (), "profile", "same"),
    ("throughput-consumer", "throughput", (), "same", "profile"),
    ("latency", "latency", (), "profile", "same"),
    ("latency-linger-0", "latency", (), {"linger.ms": "0"}, "same"),
    ("durability", "durability", (), "profile", "same"),
    ("availability", "availability", (), "profile", "same"),
    ("balanced", "balanced", (), "profile", "same"),
)
SAME = {"producer": {"acks": "all"}, "consumer": {"enable.auto.commit": "false"}}  # one file for both sides
SIZES = {200: 200_000, 100_000: 2_000}  # record bytes → records an unbounded run (about 40 and 200 MB)


def _bench(bootstrap: str, libs: str, goal: str, size: int, records: int, rounds: int, rate: int | None,
           extra: tuple[str, ...], producer: Any, consumer: Any) -> dict[str, Any]:  # fmt: skip
    folder = Path(tempfile.mkdtemp(prefix="kafka-advisor-proofs-"))

    def written(name: str, settings: dict[str, str]) -> str:
        path = folder / f"{name}.properties"
        path.write_text("".join(f"{key}={value}\n" for key, value in settings.items()))
        return str(path)

    for role, side, flags in (("producer", producer, ("--before", "--after")),
                              ("consumer", consumer, ("--consumer-before", "--consumer-after"))):  # fmt: skip
        if side == "same":
            same = written(f"{role}-same", SAME[role])
            extra = (*extra, flags[0], same, flags[1], same)
        elif isinstance(side, dict):
            extra = (*extra, flags[1], written(f"{role}-after", side))
    command = [sys.executable, "-m", "advisor", "bench", "--bootstrap-server", bootstrap, "--classpath", libs,
               "--goal", goal, "--message-bytes", str(size), "--records", str(records), "--rounds", str(rounds),
               "--live", "--output-format", "json", *extra]  # fmt: skip
    if rate is not None:
        command += ["--throughput", str(rate), "--unbounded"]
    finished = subprocess.run(command, cwd=REPO_ROOT, text=True, capture_output=True, timeout=7200)
    sys.stderr.write(finished.stderr[-2000:])
    if finished.returncode != 0:
        raise SystemExit(f"bench failed for {goal} at {size} bytes (exit {finished.returncode})")
    return json.loads(finished.stdout)


def measure(bootstrap: str, libs: str, rows: tuple[Row, ...], sizes: dict[int, int], rounds: int,
            rates: dict[int, int] | None = None) -> list[dict[str, Any]]:  # fmt: skip
    """The rows measured at each record size; `rates`: a live rate per size (else the size's first
    row finds it by a ramp, and the others reuse it)."""
    measured: list[dict[str, Any]] = []
    for size, records in sizes.items():
        rate = (rates or {}).get(size)
        for row_id, goal, extra, producer, consumer in rows:
            print(f"== {row_id}, {size}-byte records", file=sys.stderr, flush=True)
            outcome = _bench(bootstrap, libs, goal, size, records, rounds, rate, extra, producer, consumer)
            rate = rate or outcome["live"]["rate"]
            measured.append(proofs.row_of(row_id, goal, size, extra, outcome, isinstance(producer, dict)))
    return measured


def _table(rows: list[dict[str, Any]], rounds: int) -> dict[str, Any]:
    return {"measured": datetime.date.today().isoformat(), "setup": SETUP, "rounds": rounds, "rows": rows}


SETUP = ("the project's test cluster: 3 Kafka 4.4 brokers (KRaft) and the clients on one VM of 2 cores; a topic of "
         "6 partitions, RF 3, min ISR 2; acks=all and idempotence on both sides")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--smoke", type=Path, metavar="DIR", help="one short row, written into DIR")
    parser.add_argument("--check", action="store_true", help="fail when the doc's table is not proofs.json's")
    parser.add_argument("--bootstrap-server", metavar="HOST:PORT", help="the cluster (default: the test cluster's)")
    parser.add_argument("--rate", type=int, help="the live stream's rate (default: a ramp finds it per record size)")
    parser.add_argument("--only", metavar="ROW[,ROW]",
                        help="measure these rows again (ids without the size: latency-linger-0), at the live rate "
                        "the table's other rows of each size ran at; the rest of proofs.json is kept")  # fmt: skip
    args = parser.parse_args()
    if args.check:
        table = proofs.markdown(proofs.load())
        if _section(PERFORMANCE_DOC.read_text()) != table:
            print("docs/performance.md: the proof table is not advisor/recommend/proofs.json's: "
                  "run tools/bench_profiles.py --render", file=sys.stderr)  # fmt: skip
            return 1
        return 0
    import fetch_kafka
    import kafka_cluster

    bootstrap = args.bootstrap_server
    if bootstrap is None:
        state = kafka_cluster.ClusterState.load()
        if state is None:
            print("the test cluster is not up: tools/kafka-cluster up", file=sys.stderr)
            return 2
        bootstrap = ",".join(f"127.0.0.1:{node.broker_port}" for node in state.nodes)
    libs = fetch_kafka.classpath(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION))
    given = dict.fromkeys(SIZES, args.rate) if args.rate else None
    if args.smoke is not None:  # one row (the first, or --only's), short, at 200 bytes
        chosen = tuple(row for row in ROWS if not args.only or row[0] in args.only.split(","))[:1]
        data = _table(measure(bootstrap, libs, chosen, {200: 5_000}, 1, dict.fromkeys([200], args.rate)
                              if args.rate else None), 1)  # fmt: skip
        (args.smoke / "proofs.json").write_text(json.dumps(data, indent=1) + "\n")
        (args.smoke / "table.md").write_text(proofs.markdown(data))
        return 0
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {row[0] for row in ROWS}
        if unknown:
            print(f"unknown rows: {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        old = json.loads(proofs.PROOFS_FILE.read_text())
        rates = given or {row["record_bytes"]: row["live_rate"] for row in old["rows"]}
        fresh = measure(bootstrap, libs, tuple(row for row in ROWS if row[0] in wanted), SIZES, args.rounds, rates)
        order = [f"{row[0]}-{proofs.size_name(size)}" for size in SIZES for row in ROWS]
        rows = {row["id"]: row for row in old["rows"] if row["id"] in order} | {row["id"]: row for row in fresh}
        data = _table(sorted(rows.values(), key=lambda row: order.index(row["id"])), args.rounds)
        data["measured"] = f"{old['measured']} ({', '.join(sorted(wanted))} again {data['measured']})"
    else:
        data = _table(measure(bootstrap, libs, ROWS, SIZES, args.rounds, given), args.rounds)
    proofs.PROOFS_FILE.write_text(json.dumps(data, indent=1) + "\n")
    render()
    return 0


MARKERS = ("<!-- proof-table: generated by tools/bench_profiles.py from advisor/recommend/proofs.json -->",
           "<!-- proof-table: end -->")  # fmt: skip


def _section(text: str) -> str:
    start, end = text.find(MARKERS[0]), text.find(MARKERS[1])
    return text[start + len(MARKERS[0]) + 1 : end] if 0 <= start < end else ""


def render() -> None:
    text = PERFORMANCE_DOC.read_text()
    start, end = text.find(MARKERS[0]), text.find(MARKERS[1])
    if not 0 <= start < end:
        raise SystemExit("docs/performance.md has no proof-table markers")
    table = proofs.markdown(proofs.load())
    PERFORMANCE_DOC.write_text(text[: start + len(MARKERS[0]) + 1] + table + text[end:])


if __name__ == "__main__":
    if sys.argv[1:] == ["--render"]:
        render()
        sys.exit(0)
    sys.exit(main())
