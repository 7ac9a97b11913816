"""Shared pieces of the oracle tests: building the Java harnesses, running a batch of cases
through one JVM, and the cases the catalog's definitions imply."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import fetch_kafka
import pytest

from advisor import catalog

NUMERIC = {"INT", "LONG", "SHORT", "DOUBLE"}


def compile_java(source: Path, out: Path, classpath: str | None = None) -> Path:
    """Compile one harness; `classpath` for harnesses that import Kafka's classes directly."""
    if shutil.which("javac") is None:
        pytest.fail(f"javac is needed to build {source.name}")
    options = ["-cp", classpath] if classpath else []
    subprocess.run(["javac", *options, "-d", str(out), str(source)], check=True, timeout=120)
    return out


def run_once(classpath: str, main_class: str, *arguments: str, timeout: float = 180) -> Any:
    """Run one harness and return the JSON of its last output line."""
    command = ["java", "-cp", classpath, main_class, *arguments]
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    lines = result.stdout.strip().splitlines()
    assert lines, f"{main_class} printed nothing:\n{result.stderr[-2000:]}"
    return json.loads(lines[-1])


def run_batch(classpath: str, command: list[str], cases: list[dict[str, str]], timeout: float = 600) -> list[dict]:
    """One JSON outcome per case; each case is one stdin line of tab-separated key=value."""
    lines = "".join("\t".join(f"{k}={v}" for k, v in case.items()) + "\n" for case in cases)
    result = subprocess.run(
        ["java", "-cp", classpath, *command], input=lines, capture_output=True, text=True, timeout=timeout
    )
    outcomes = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert len(outcomes) == len(cases), result.stderr[-2000:]
    return outcomes


def refused_by_definition(key: str, outcome: dict) -> bool:
    """Did the software refuse the value through the key's ConfigDef (not some other check)?"""
    return not outcome["ok"] and f"for configuration {key}" in outcome.get("message", "")


def definition_cases(
    component: str, version: str, *, skip: frozenset[str] = frozenset(), booleans: bool = False
) -> list[tuple[str, str, bool]]:
    """(key, value, refused by the definition) from the catalog: just outside and on each bound,
    a word for each number, a made-up value for each choice list (and for booleans, if asked)."""
    cases = []
    for key in sorted(catalog.known_keys(component, kafka_version=version)):
        facts = catalog.lookup(key, component, kafka_version=version)
        if key in skip or facts is None or facts.internal or facts.type == "PASSWORD":
            continue  # passwords are never judged (nor shown)
        step = 0.5 if facts.type == "DOUBLE" else 1
        if facts.type in NUMERIC and facts.min is not None:
            cases += [(key, str(facts.min - step), True), (key, str(facts.min), False)]
        if facts.type in NUMERIC and facts.max is not None:
            cases.append((key, str(facts.max + step), True))
        if facts.type in ("INT", "LONG"):
            cases += [(key, "ten", True), (key, "1_000", True)]  # Python's int() takes 1_000; Java refuses it
        if facts.type == "DOUBLE":
            cases.append((key, "1_0", True))
        if booleans and facts.type == "BOOLEAN":
            cases += [(key, "yes", True), (key, "TRUE", False)]
        if facts.type == "STRING" and facts.choices:
            cases += [(key, "no-such-choice", True), (key, facts.choices[0], False)]
            miscased = facts.choices[0].swapcase()
            if miscased != facts.choices[0]:  # refused unless the validator ignores case
                cases.append((key, miscased, not facts.choices_ignore_case))
        if facts.type == "LIST" and facts.choices:  # ValidList: each element must be a choice
            cases += [(key, f"{facts.choices[0]},no-such-choice", True), (key, ",".join(facts.choices), False)]
    return cases


@contextmanager
def standalone_broker(
    work: Path, overrides: dict[str, str], timeout: float = 90, plugins: Path | None = None
) -> Iterator[str]:
    """A single real Kafka 4.4 node (broker and controller) on loopback, outside the test
    cluster's ports, with `overrides` in its server.properties and nothing else tuned —
    for behaviour that depends on the cluster being small. Yields its bootstrap address; the
    process id is in `work/broker.pid`. Its ports are port_base()+60 (PLAINTEXT) and +61
    (CONTROLLER); +62 .. +69 are free for extra listeners. `plugins`: a folder of jars put on
    the broker's classpath (a metrics reporter)."""
    import kafka_cluster  # tools/: the test cluster's own launcher settings

    port = kafka_cluster.port_base() + 60  # the test cluster uses base .. base+40
    if not kafka_cluster.ports_free(tuple(range(port, port + 10)), wait=90):  # an earlier one may still be closing
        raise AssertionError(f"ports {port}..{port + 9} stay in use: another standalone broker running?")
    config = {
        "process.roles": "broker,controller",
        "node.id": "1",
        "controller.quorum.voters": f"1@127.0.0.1:{port + 1}",
        "listeners": f"PLAINTEXT://127.0.0.1:{port},CONTROLLER://127.0.0.1:{port + 1}",
        "advertised.listeners": f"PLAINTEXT://127.0.0.1:{port}",
        "controller.listener.names": "CONTROLLER",
        "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
        "log.dirs": str(work / "data"),
        "group.initial.rebalance.delay.ms": "0",
        **overrides,
    }
    properties = work / "server.properties"
    properties.write_text("".join(f"{k}={v}\n" for k, v in config.items()))
    (work / "log4j2.properties").write_text(kafka_cluster.LOG4J2_PROPERTIES)
    libs = fetch_kafka.classpath(fetch_kafka.kafka_libs(fetch_kafka.DEFAULT_KAFKA_VERSION))
    if plugins is not None:
        libs += os.pathsep + fetch_kafka.classpath(plugins)
    java = ["java", *kafka_cluster.HEAP_OPTS, *kafka_cluster.JVM_OPTS]
    java += [f"-Dlog4j2.configurationFile={work / 'log4j2.properties'}", "-cp", libs]
    cluster_id = kafka_cluster.new_cluster_id()
    subprocess.run(
        [*java, "kafka.tools.StorageTool", "format", "-t", cluster_id, "-c", str(properties)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    log = (work / "broker.log").open("wb")
    process = subprocess.Popen([*java, "kafka.Kafka", str(properties)], stdout=log, stderr=subprocess.STDOUT)
    (work / "broker.pid").write_text(str(process.pid))  # for tests that look inside the JVM
    bootstrap = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while not _registered(bootstrap):
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(
                    f"the standalone broker did not start:\n{(work / 'broker.log').read_text()[-3000:]}"
                )
            time.sleep(0.5)
        yield bootstrap
    finally:
        _stop(process)
        log.close()


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _registered(bootstrap: str) -> bool:
    from confluent_kafka import KafkaException
    from confluent_kafka.admin import AdminClient

    try:
        return bool(AdminClient({"bootstrap.servers": bootstrap}).list_topics(timeout=2).brokers)
    except KafkaException:  # not listening yet
        return False


_LOG4J1 = (
    "log4j.rootLogger=WARN, stdout\nlog4j.appender.stdout=org.apache.log4j.ConsoleAppender\n"
    "log4j.appender.stdout.layout=org.apache.log4j.PatternLayout\n"
    "log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n\n"
)


@contextmanager
def zookeeper_broker(
    work: Path, overrides: dict[str, str], release: str = "3.9.1", timeout: float = 120
) -> Iterator[str]:
    """A real ZooKeeper-mode broker of a 3.x (or 2.8) release with its own ZooKeeper, both on
    loopback at port_base()+70 and +71 — for what only the releases before KRaft-only do (an
    inter.broker.protocol.version below 3.0 and the message formats it keeps). Built from the
    release's broker jar and its dependencies (ZooKeeper among them). Yields the bootstrap address."""
    import kafka_cluster  # tools/

    zk_port = kafka_cluster.port_base() + 70
    port = zk_port + 1
    if not kafka_cluster.ports_free((zk_port, port), wait=90):
        raise AssertionError(f"ports {zk_port}, {port} stay in use: another ZooKeeper broker running?")
    (work / "log4j.properties").write_text(_LOG4J1)
    java = ["java", "-Xmx512m", f"-Dlog4j.configuration=file:{work / 'log4j.properties'}"]
    java += ["-cp", fetch_kafka.classpath(fetch_kafka.kafka_core_libs(release))]
    (work / "zookeeper.properties").write_text(
        f"dataDir={work / 'zookeeper'}\nclientPort={zk_port}\nclientPortAddress=127.0.0.1\nadmin.enableServer=false\n"
    )
    config = {
        "broker.id": "0",
        "zookeeper.connect": f"127.0.0.1:{zk_port}",
        "listeners": f"PLAINTEXT://127.0.0.1:{port}",
        "log.dirs": str(work / "data"),
        "offsets.topic.replication.factor": "1",
        "transaction.state.log.replication.factor": "1",
        "transaction.state.log.min.isr": "1",
        "group.initial.rebalance.delay.ms": "0",
        **overrides,
    }
    (work / "server.properties").write_text("".join(f"{k}={v}\n" for k, v in config.items()))
    logs = [(work / "zookeeper.log").open("wb"), (work / "broker.log").open("wb")]
    main = "org.apache.zookeeper.server.quorum.QuorumPeerMain"
    processes = [
        subprocess.Popen([*java, main, str(work / "zookeeper.properties")], stdout=logs[0], stderr=subprocess.STDOUT)
    ]
    bootstrap = f"127.0.0.1:{port}"
    try:
        processes.append(
            subprocess.Popen(
                [*java, "kafka.Kafka", str(work / "server.properties")], stdout=logs[1], stderr=subprocess.STDOUT
            )
        )
        deadline = time.monotonic() + timeout
        while not _registered(bootstrap):
            if any(p.poll() is not None for p in processes) or time.monotonic() > deadline:
                raise AssertionError(
                    f"the ZooKeeper-mode broker did not start:\n{(work / 'broker.log').read_text()[-3000:]}"
                )
            time.sleep(0.5)
        yield bootstrap
    finally:
        for process in reversed(processes):  # the broker first: it deregisters from ZooKeeper
            _stop(process)
        for log in logs:
            log.close()
