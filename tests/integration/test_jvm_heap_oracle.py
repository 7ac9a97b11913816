"""KB138 against the real JVM: every set of broker JVM options the rule judges is handed to `java`
in the order kafka-run-class.sh passes the variables, and the JVM refuses to start exactly where
the rule fires — the fixtures' option sets among them. The heaps that start are small, so each
case costs one JVM start of this machine."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest

from advisor.report.session import lint
from advisor.rules.checks.jvm import _RUN_CLASS_ORDER

REPO_ROOT = Path(__file__).resolve().parents[2]
FIXTURES = [REPO_ROOT / "fixtures" / "rules" / "broker" / n for n in ("heap-raised-in-opts.sh", "heap-zero.service")]

# (KAFKA_HEAP_OPTS, KAFKA_JVM_PERFORMANCE_OPTS, KAFKA_OPTS): heaps the JVM can reserve anywhere, or refuses everywhere.
CASES = [
    ("-Xms32m -Xmx64m", "", ""),
    ("-Xmx64m -Xms64m", "", ""),
    ("-Xmx64m", "", "-Xms32m"),
    ("-Xmx32m", "-Xmx96m", "-Xms64m"),  # the later -Xmx counts
    ("-Xms64m -Xmx32m", "", ""),
    ("-Xmx32m", "", "-Xms64m"),
    ("-Xmx0", "", ""),
    ("-Xms16m -Xmx0g", "", ""),
    ("-Xmx18446744073709551616", "", ""),  # 2^64 bytes: past what HotSpot parses
    ("-Xmx17179869184g", "", ""),  # 2^64 bytes again, in GiB
    ("-Xmx" + "9" * 30 + "m", "", ""),
    ("-Xmx0", "", "-Xmx64m"),  # each -Xmx is checked as it is parsed, not only the last
    ("-Xms0 -Xmx64m", "", ""),  # an initial heap of 0 is no error
    ("-Xmx64m", "", "-Xms" + "1" * 25 + "k"),
]


def fires(heap: str, performance: str, opts: str, tmp_path: Path) -> bool:
    script = tmp_path / "start-broker.sh"
    lines = ["#!/bin/sh"]
    for name, value in zip(("KAFKA_HEAP_OPTS", "KAFKA_JVM_PERFORMANCE_OPTS", "KAFKA_OPTS"), (heap, performance, opts),
                           strict=True):  # fmt: skip
        if value:
            lines.append(f'export {name}="{value}"')
    lines.append("exec /opt/kafka/bin/kafka-server-start.sh /etc/kafka/server.properties")
    script.write_text("\n".join(lines) + "\n")
    result = lint([script])
    assert not result.problems, result.problems
    return any(f.rule == "KB138" for f in result.findings)


def refused(options: list[str]) -> bool:
    """Does the JVM refuse to start with these options? (-version: it stops once started)"""
    started = subprocess.run(["java", *options, "-version"], capture_output=True, text=True, timeout=60)
    if started.returncode == 0:
        return False
    said = started.stdout + started.stderr
    assert re.search(r"Invalid (maximum|initial) heap size|Initial heap size set to a larger value", said), said
    return True


def in_run_class_order(variables: dict[str, str]) -> list[str]:
    assert _RUN_CLASS_ORDER.index("KAFKA_HEAP_OPTS") < _RUN_CLASS_ORDER.index("KAFKA_OPTS")
    return [word for name in _RUN_CLASS_ORDER for word in shlex.split(variables.get(name, ""))]


@pytest.mark.parametrize(("heap", "performance", "opts"), CASES)
def test_the_rule_fires_exactly_where_the_jvm_refuses_to_start(heap: str, performance: str, opts: str,
                                                                tmp_path: Path) -> None:  # fmt: skip
    options = in_run_class_order({"KAFKA_HEAP_OPTS": heap, "KAFKA_JVM_PERFORMANCE_OPTS": performance,
                                  "KAFKA_OPTS": opts})  # fmt: skip
    assert fires(heap, performance, opts, tmp_path) is refused(options)


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.name)
def test_each_fixture_the_rule_fires_on_is_refused_by_the_jvm(fixture: Path) -> None:
    from advisor.sources import load

    (config_set,) = load([fixture], __import__("advisor.sources", fromlist=["LoadOptions"]).LoadOptions()).config_sets
    variables = {name: entry["value"] for name, entry in config_set.facts["jvm"].items()}
    assert refused(in_run_class_order(variables))
    assert any(f.rule == "KB138" for f in lint([fixture]).findings)


def test_the_jvm_commits_memory_beyond_its_heap() -> None:
    """KB139's premise, on the real JVM: with the whole heap committed up front, Native Memory
    Tracking still counts more committed memory than the heap (class metadata, code, threads, GC)."""
    run = subprocess.run(
        ["java", "-XX:NativeMemoryTracking=summary", "-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintNMTStatistics",
         "-Xms64m", "-Xmx64m", "-XX:+AlwaysPreTouch", "-version"],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    output = run.stdout + run.stderr
    total = re.search(r"Total: reserved=(\d+)(KB)?, committed=(\d+)(KB)?", output)
    heap = re.search(r"Java Heap \(reserved=(\d+)(KB)?, committed=(\d+)(KB)?\)", output)
    assert total and heap, output[-2000:]
    scale = 1024 if total.group(4) else 1
    committed_total, committed_heap = int(total.group(3)) * scale, int(heap.group(3)) * scale
    assert committed_heap == 64 * 1024 * 1024
    assert committed_total > committed_heap * 1.2  # well beyond the heap, for a JVM that ran no code
