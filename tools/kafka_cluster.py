#!/usr/bin/env python3
"""Run a real Apache Kafka KRaft cluster on loopback for the tests.

    tools/kafka-cluster up [--nodes 3|1]   start, return once brokers serve RF=N topics
    tools/kafka-cluster down               stop what `up` started and delete its data
    tools/kafka-cluster status             print nodes, ports and liveness
    tools/kafka-cluster stop-node N        stop one node (SIGTERM, controlled shutdown)
    tools/kafka-cluster start-node N       start a stopped node again, wait until registered
    tools/kafka-cluster env                print KAFKA_BOOTSTRAP_SERVERS=... for a shell

Every node is controller+broker, listens only on 127.0.0.1, has its own
`broker.rack`, a heap of at most 512 MB and the Prometheus JMX exporter agent
serving /metrics on its own port. Jars come from tools/fetch_kafka.py.

State (pids, ports, data directory) lives in .cache/cluster/state.json; node logs
in .cache/cluster/logs/ survive `down` so a failed run can be read afterwards.
Ports start at $KAFKA_ADVISOR_PORT_BASE (default 19100): node n uses
base+10n (broker), base+10n+1 (controller), base+10n+2 (metrics), base+10n+3 (remote JMX,
read by the standalone exporter under other dialects' rules). They must lie
below the kernel's ephemeral range (32768+ here): otherwise, while a node is
stopped, its peers' reconnect attempts can be given its port as their own source
port (a TCP self-connect) and the restarted node fails with "Address already in use".
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fetch_kafka  # sibling developer script

REPO_ROOT = Path(__file__).resolve().parent.parent
JMX_RULES = REPO_ROOT / "tools" / "jmx-exporter" / "kafka-broker.yaml"
# The SASL listener's users (a test bed's, on loopback): tests grant them ACLs of their own.
SASL_USERS = {"auditor": "auditor-test-secret", "outsider": "outsider-test-secret"}
READY_TOPIC = "__kafka_advisor_ready"
HEAP_OPTS = ["-Xms256m", "-Xmx512m"]
# C1-only JIT and a small GC footprint: three brokers share two cores here.
JVM_OPTS = ["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true"]
# Marks our JVMs so that `down` never signals a process it did not start.
PROCESS_MARK = "-Dkafka.advisor.testbed="

LOG4J2_PROPERTIES = """\
status = warn
appender.console.type = Console
appender.console.name = STDOUT
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.stdout.ref = STDOUT
logger.kafka.name = kafka
logger.kafka.level = INFO
logger.apache.name = org.apache.kafka
logger.apache.level = INFO
"""


class ClusterError(RuntimeError):
    """The cluster could not be started, stopped or reached."""


def state_dir() -> Path:
    return fetch_kafka.cache_root() / "cluster"


def port_base() -> int:
    base = int(os.environ.get("KAFKA_ADVISOR_PORT_BASE", "19100"))
    low = _ephemeral_range()[0]
    if base + 40 >= low:
        raise ClusterError(f"port base {base} reaches the ephemeral port range (from {low}); choose a lower one")
    return base


def _ephemeral_range() -> tuple[int, int]:
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999  # Linux's usual default


@dataclass
class Node:
    node_id: int
    broker_port: int
    controller_port: int
    metrics_port: int
    rack: str
    pid: int | None = None
    start_ticks: int | None = None  # /proc start time, guards against PID reuse

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.broker_port}"

    @property
    def metrics_url(self) -> str:
        return f"http://127.0.0.1:{self.metrics_port}/metrics"

    @property
    def jmx_port(self) -> int:
        """Remote JMX (loopback, no auth): other exporter configurations read the node through it."""
        return self.metrics_port + 1

    @property
    def sasl_port(self) -> int:
        """A SASL_PLAINTEXT listener (PLAIN, users in SASL_USERS) where the authorizer's ACLs bite:
        the PLAINTEXT listener's anonymous principal is a super user, so no other test meets an ACL."""
        return self.metrics_port + 2

    @property
    def sasl_bootstrap(self) -> str:
        return f"127.0.0.1:{self.sasl_port}"

    @property
    def ports(self) -> tuple[int, ...]:
        return (self.broker_port, self.controller_port, self.metrics_port, self.jmx_port, self.sasl_port)


@dataclass
class ClusterState:
    cluster_id: str
    kafka_version: str
    data_dir: str
    nodes: list[Node] = field(default_factory=list)

    @property
    def bootstrap_servers(self) -> str:
        return ",".join(node.bootstrap for node in self.nodes)

    def node(self, node_id: int) -> Node:
        for node in self.nodes:
            if node.node_id == node_id:
                return node
        raise ClusterError(f"no node {node_id}; nodes are {[n.node_id for n in self.nodes]}")

    def save(self) -> None:
        state_dir().mkdir(parents=True, exist_ok=True)
        tmp = state_dir() / "state.json.tmp"
        tmp.write_text(json.dumps(asdict(self), indent=2) + "\n")
        tmp.replace(state_dir() / "state.json")

    @classmethod
    def load(cls) -> ClusterState | None:
        path = state_dir() / "state.json"
        if not path.exists():
            return None
        raw = json.loads(path.read_text())
        raw["nodes"] = [Node(**node) for node in raw["nodes"]]
        return cls(**raw)


# ---------------------------------------------------------------- processes


def _proc_start_ticks(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # Field 22 (starttime); the command name in parentheses may contain spaces.
    return int(stat.rsplit(")", 1)[1].split()[19])


def _is_ours(node: Node) -> bool:
    if node.pid is None or _proc_start_ticks(node.pid) != node.start_ticks:
        return False
    try:
        cmdline = Path(f"/proc/{node.pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return any(arg.startswith(PROCESS_MARK.encode()) for arg in cmdline)


def is_alive(node: Node) -> bool:
    return _is_ours(node)


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _java() -> str:
    java = shutil.which("java")
    if java is None:
        raise ClusterError("java is not on PATH (Kafka 4.x needs Java 17+)")
    return java


def _node_dir(state: ClusterState, node: Node) -> Path:
    return Path(state.data_dir) / f"node-{node.node_id}"


def _log_path(node: Node) -> Path:
    return state_dir() / "logs" / f"node-{node.node_id}.log"


def _server_properties(state: ClusterState, node: Node) -> str:
    voters = ",".join(f"{n.node_id}@127.0.0.1:{n.controller_port}" for n in state.nodes)
    replicas = len(state.nodes)
    lines = [
        "process.roles=broker,controller",
        f"node.id={node.node_id}",
        f"controller.quorum.voters={voters}",
        f"listeners=PLAINTEXT://127.0.0.1:{node.broker_port},CONTROLLER://127.0.0.1:{node.controller_port},"
        f"SASL_PLAINTEXT://127.0.0.1:{node.sasl_port}",
        f"advertised.listeners=PLAINTEXT://127.0.0.1:{node.broker_port},SASL_PLAINTEXT://127.0.0.1:{node.sasl_port}",
        "controller.listener.names=CONTROLLER",
        "inter.broker.listener.name=PLAINTEXT",
        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT",
        "sasl.enabled.mechanisms=PLAIN",
        "listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule "
        "required " + " ".join(f'user_{user}="{password}"' for user, password in SASL_USERS.items()) + ";",
        "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
        "super.users=User:ANONYMOUS",
        f"log.dirs={_node_dir(state, node) / 'data'}",
        f"broker.rack={node.rack}",
        # Tests create consumer groups constantly; do not wait 3 s for joiners.
        "group.initial.rebalance.delay.ms=0",
    ]
    if replicas < 3:
        # Internal topics default to RF 3, which a smaller cluster cannot host.
        lines += [
            f"offsets.topic.replication.factor={replicas}",
            f"transaction.state.log.replication.factor={replicas}",
            f"transaction.state.log.min.isr={min(2, replicas)}",
        ]
    return "\n".join(lines) + "\n"


def _java_command(state: ClusterState, node: Node, main_class: str, *args: str, agent: bool) -> list[str]:
    libs = fetch_kafka.kafka_libs(state.kafka_version)
    command = [_java(), *HEAP_OPTS, *JVM_OPTS, f"{PROCESS_MARK}{state.data_dir}"]
    command.append(f"-Dlog4j2.configurationFile={Path(state.data_dir) / 'log4j2.properties'}")
    if agent:
        jar = fetch_kafka.jmx_exporter_agent()
        command.append(f"-javaagent:{jar}=127.0.0.1:{node.metrics_port}:{JMX_RULES}")
        command += _remote_jmx(node.jmx_port)
    return [*command, "-cp", fetch_kafka.classpath(libs), main_class, *args]


def _remote_jmx(port: int) -> list[str]:
    """JMX over RMI on one loopback port (registry and server alike), without auth or TLS: the
    standalone JMX exporter connects here to export a node under another dialect's rules."""
    return [
        f"-Dcom.sun.management.jmxremote.port={port}",
        f"-Dcom.sun.management.jmxremote.rmi.port={port}",
        "-Dcom.sun.management.jmxremote.host=127.0.0.1",
        "-Djava.rmi.server.hostname=127.0.0.1",
        "-Dcom.sun.management.jmxremote.authenticate=false",
        "-Dcom.sun.management.jmxremote.ssl=false",
    ]


def _format_storage(state: ClusterState) -> None:
    """Run Kafka's StorageTool for every node, in parallel."""
    running = []
    for node in state.nodes:
        config = _node_dir(state, node) / "server.properties"
        command = _java_command(
            state, node, "kafka.tools.StorageTool", "format", "-t", state.cluster_id, "-c", str(config), agent=False
        )
        running.append((node, subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)))
    for node, process in running:
        output, _ = process.communicate(timeout=120)
        if process.returncode != 0:
            raise ClusterError(f"formatting node {node.node_id} failed:\n{output[-3000:]}")


def new_cluster_id() -> str:
    """A random cluster id as StorageTool takes it: URL-safe base64 of 16 bytes, never starting
    with '-', which the tool's argument parser would read as an option (as Kafka's Uuid avoids)."""
    while True:
        cluster_id = base64.urlsafe_b64encode(uuid.uuid4().bytes).rstrip(b"=").decode()
        if not cluster_id.startswith("-"):
            return cluster_id


def ports_free(ports: tuple[int, ...], wait: float = 0.0) -> bool:
    """Right after a node stops, its ports can stay bound for a while by closing connections
    (FIN_WAIT/LAST_ACK, which SO_REUSEADDR does not override): a restart waits them out."""
    deadline = time.monotonic() + wait
    while True:
        if all(_port_free(port) for port in ports):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)


def _launch(state: ClusterState, node: Node, wait_for_ports: float = 0.0) -> None:
    if not ports_free(node.ports, wait_for_ports):
        raise ClusterError(
            f"node {node.node_id}: a port of {'/'.join(map(str, node.ports))} is in use "
            "(another cluster running? try `tools/kafka-cluster down`, or set KAFKA_ADVISOR_PORT_BASE)"
        )
    config = _node_dir(state, node) / "server.properties"
    log = _log_path(node)
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as sink:
        process = subprocess.Popen(
            _java_command(state, node, "kafka.Kafka", str(config), agent=True),
            stdout=sink,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # keeps running after `up` returns
        )
    node.pid = process.pid
    node.start_ticks = _proc_start_ticks(process.pid)
    state.save()


def _terminate(node: Node, timeout: float = 60.0) -> None:
    if not _is_ours(node):
        node.pid = node.start_ticks = None
        return
    assert node.pid is not None
    os.kill(node.pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and _is_ours(node):
        time.sleep(0.2)
    if _is_ours(node):
        os.kill(node.pid, signal.SIGKILL)
        while _is_ours(node):
            time.sleep(0.1)
    node.pid = node.start_ticks = None


# ---------------------------------------------------------------- readiness


_ADMINS: dict[str, object] = {}


def _admin(bootstrap: str):  # type: ignore[no-untyped-def]
    """One AdminClient per bootstrap list, kept alive: a handle that is garbage
    collected while a request is pending fails the request with _DESTROY."""
    if bootstrap not in _ADMINS:
        from confluent_kafka.admin import AdminClient  # lazy: only the cluster tool needs it

        # log_level 2 hides the "connection refused" errors expected while nodes start.
        _ADMINS[bootstrap] = AdminClient({"bootstrap.servers": bootstrap, "log_level": 2})
    return _ADMINS[bootstrap]


def registered_brokers(state: ClusterState) -> set[int]:
    """Broker ids the cluster metadata currently lists (empty if unreachable)."""
    try:
        cluster = _admin(state.bootstrap_servers).describe_cluster(request_timeout=5).result(timeout=10)
    except Exception:  # noqa: BLE001 - any failure means "not ready yet"
        return set()
    return {broker.id for broker in cluster.nodes}


def _can_create_replicated_topic(state: ClusterState) -> bool:
    from confluent_kafka.admin import NewTopic

    admin = _admin(state.bootstrap_servers)
    replicas = len(state.nodes)
    try:
        admin.create_topics([NewTopic(READY_TOPIC, 1, replicas)], request_timeout=15)[READY_TOPIC].result(timeout=20)
    except Exception as error:  # noqa: BLE001
        if "TOPIC_ALREADY_EXISTS" not in str(error):
            return False
    with contextlib.suppress(Exception):  # deletion is tidying, not readiness
        admin.delete_topics([READY_TOPIC], request_timeout=15)[READY_TOPIC].result(timeout=20)
    return True


BROKER_RUNNING = 3  # org.apache.kafka.metadata.BrokerState.RUNNING
_BROKER_STATE = re.compile(r"^kafka_server_kafkaserver_brokerstate\s+(\S+)$", re.MULTILINE)


def _broker_state(node: Node) -> float | None:
    """The node's BrokerState gauge as its JMX exporter serves it (None while it serves nothing)."""
    try:
        with urllib.request.urlopen(node.metrics_url, timeout=5) as response:
            found = _BROKER_STATE.search(response.read().decode(errors="replace"))
    except OSError:
        return None
    return float(found.group(1)) if found else None


def _metrics_served(node: Node) -> bool:
    try:
        with urllib.request.urlopen(node.metrics_url, timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


def _wait(predicate, timeout: float, what: str, state: ClusterState) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        dead = [n.node_id for n in state.nodes if n.pid is not None and not is_alive(n)]
        if dead:
            raise ClusterError(f"node(s) {dead} exited while waiting for {what}")
        if predicate():
            return
        time.sleep(0.5)
    raise ClusterError(f"timed out after {timeout:.0f}s waiting for {what}")


# Lines that fill a tail without saying anything: a config dump's indented entries and the
# once-a-second reconnection notices about a node that is down on purpose.
_LOG_NOISE = re.compile(r"^\s|disconnected\. \(|could not be established")


def log_tails(state: ClusterState, lines: int = 40) -> str:
    parts = []
    for node in state.nodes:
        path = _log_path(node)
        if path.exists():
            text = [line for line in path.read_text(errors="replace").splitlines() if not _LOG_NOISE.search(line)]
            text = text[-lines:]
        else:
            text = ["(no log)"]
        parts.append(f"----- node {node.node_id}: {path} (last {len(text)} lines)\n" + "\n".join(text))
    return "\n".join(parts)


# ---------------------------------------------------------------- commands


def up(nodes: int = 3, kafka_version: str = fetch_kafka.DEFAULT_KAFKA_VERSION, timeout: float = 120.0) -> ClusterState:
    existing = ClusterState.load()
    if existing and any(is_alive(n) for n in existing.nodes):
        raise ClusterError("a cluster from this checkout is already running; run `tools/kafka-cluster down` first")
    if existing:
        shutil.rmtree(existing.data_dir, ignore_errors=True)
    fetch_kafka.kafka_libs(kafka_version)
    fetch_kafka.jmx_exporter_agent()
    base = port_base()
    racks = "abcdefghij"
    state = ClusterState(
        cluster_id=new_cluster_id(),
        kafka_version=kafka_version,
        data_dir=tempfile.mkdtemp(prefix="kafka-advisor-cluster-"),
        nodes=[
            Node(n, base + 10 * n, base + 10 * n + 1, base + 10 * n + 2, f"rack-{racks[n - 1]}")
            for n in range(1, nodes + 1)
        ],
    )
    (Path(state.data_dir) / "log4j2.properties").write_text(LOG4J2_PROPERTIES)
    for node in state.nodes:
        _node_dir(state, node).mkdir(parents=True)
        (_node_dir(state, node) / "server.properties").write_text(_server_properties(state, node))
        _log_path(node).unlink(missing_ok=True)
    state.save()
    try:
        _format_storage(state)
        for node in state.nodes:
            # A cluster stopped a moment ago (the previous run's) holds its ports for a while in
            # closing connections: wait them out; a cluster really running still fails, later.
            _launch(state, node, wait_for_ports=30.0)
        wanted = {n.node_id for n in state.nodes}
        _wait(lambda: registered_brokers(state) == wanted, timeout, f"brokers {sorted(wanted)} to register", state)
        _wait(lambda: _can_create_replicated_topic(state), timeout, f"a topic with RF={nodes}", state)
        _wait(lambda: all(_metrics_served(n) for n in state.nodes), 30, "the metrics endpoints", state)
    except BaseException as error:
        tails = log_tails(state)
        down()
        raise ClusterError(f"{error}\n{tails}") from error
    return state


def down() -> None:
    state = ClusterState.load()
    if state is None:
        return
    for node in state.nodes:
        _terminate(node, timeout=30)
    shutil.rmtree(state.data_dir, ignore_errors=True)
    (state_dir() / "state.json").unlink(missing_ok=True)


def running_state() -> ClusterState | None:
    """The recorded cluster if every node of it is alive, else None."""
    state = ClusterState.load()
    if state and state.nodes and all(is_alive(n) for n in state.nodes):
        return state
    return None


def stop_node(node_id: int) -> None:
    state = _require_state()
    node = state.node(node_id)
    _terminate(node)
    state.save()


def start_node(node_id: int, timeout: float = 90.0) -> None:
    state = _require_state()
    node = state.node(node_id)
    if is_alive(node):
        return
    _launch(state, node, wait_for_ports=90.0)
    try:
        # The node's own word, on its metrics endpoint: RUNNING once it registered, caught up and the
        # controller unfenced it. (A Kafka client kept from before the stop was asked before, and
        # once in a few full runs never saw a node its own log called started: stop 21, 12-01.)
        _wait(lambda: _broker_state(node) == BROKER_RUNNING, timeout, f"node {node_id} to be running", state)
    except ClusterError as error:
        raise ClusterError(f"{error}\n{log_tails(state)}") from error


@contextmanager
def node_stopped(node_id: int) -> Iterator[None]:
    """Stop one node for the duration of a block and always start it again."""
    stop_node(node_id)
    try:
        yield
    finally:
        start_node(node_id)


def _require_state() -> ClusterState:
    state = ClusterState.load()
    if state is None:
        raise ClusterError("no cluster recorded; run `tools/kafka-cluster up`")
    return state


def status() -> str:
    state = ClusterState.load()
    if state is None:
        return "no cluster"
    rows = [f"cluster {state.cluster_id} (Kafka {state.kafka_version}), data in {state.data_dir}"]
    for node in state.nodes:
        alive = "running" if is_alive(node) else "stopped"
        rows.append(
            f"  node {node.node_id} [{node.rack}] {alive:7s} pid={node.pid} broker={node.bootstrap} "
            f"controller=127.0.0.1:{node.controller_port} metrics={node.metrics_url}"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="kafka-cluster", description="Real Kafka KRaft test cluster on loopback.")
    sub = parser.add_subparsers(dest="command", required=True)
    up_parser = sub.add_parser("up", help="start the cluster")
    up_parser.add_argument("--nodes", type=int, choices=(1, 3), default=3)
    up_parser.add_argument("--kafka-version", default=fetch_kafka.DEFAULT_KAFKA_VERSION)
    up_parser.add_argument("--timeout", type=float, default=120.0)
    sub.add_parser("down", help="stop everything `up` started")
    sub.add_parser("status", help="show nodes")
    sub.add_parser("env", help="print shell variables for the running cluster")
    for name in ("stop-node", "start-node"):
        sub.add_parser(name).add_argument("node_id", type=int)
    args = parser.parse_args(argv)
    try:
        if args.command == "up":
            started = time.monotonic()
            state = up(args.nodes, args.kafka_version, args.timeout)
            print(status())
            print(f"up in {time.monotonic() - started:.1f}s; bootstrap servers {state.bootstrap_servers}")
        elif args.command == "down":
            down()
        elif args.command == "status":
            print(status())
        elif args.command == "env":
            state = _require_state()
            print(f"KAFKA_BOOTSTRAP_SERVERS={state.bootstrap_servers}")
        elif args.command == "stop-node":
            stop_node(args.node_id)
        elif args.command == "start-node":
            start_node(args.node_id)
    except ClusterError as error:
        print(f"kafka-cluster: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
