"""Broker thread pools and socket buffers on a real Kafka 4.4 node: num.network.threads is a
per-listener pool size (KB125), and the kernel caps the socket buffers a broker asks for at
net.core.rmem_max / wmem_max (KB127). The node is a standalone broker outside the test cluster;
its threads are read with jstack and its sockets with ss."""

from __future__ import annotations

import re
import shutil
import socket
import struct
import subprocess
import time
from collections import Counter
from pathlib import Path

import kafka_cluster
import pytest
from oracles import standalone_broker

from advisor.report.session import lint

pytestmark = pytest.mark.kafka

# Thread names of the socket server's processors: <plane>-kafka-network-thread-<node>-<listener>-<protocol>-<n>
NETWORK_THREAD = re.compile(r'"[\w-]*kafka-network-thread-\d+-(\w+)-\w+-\d+"')


def kernel_limit(name: str) -> int:
    return int(Path(f"/proc/sys/net/core/{name}").read_text())


def network_threads(pid: int) -> Counter[str]:
    dump = subprocess.run(["jstack", str(pid)], capture_output=True, text=True, check=True, timeout=60).stdout
    return Counter(NETWORK_THREAD.findall(dump))


def answered_connection(port: int) -> socket.socket:
    """A connection the broker has accepted, configured and answered: an ApiVersions v0 request
    sent and its reply read. A client library's connections come and go on their own (librdkafka
    drops its bootstrap connection once it knows the node), so the test holds its own."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=10)
    # size, api_key=18 (ApiVersions), api_version=0, correlation_id=1, client_id=null
    connection.sendall(struct.pack(">ihhih", 10, 18, 0, 1, -1))
    (size,) = struct.unpack(">i", connection.recv(4, socket.MSG_WAITALL))
    assert size > 0
    connection.recv(size, socket.MSG_WAITALL)
    return connection


def broker_side_buffers(port: int) -> tuple[int, int]:
    """(receive, send) buffer of an established connection to `port`, as `ss -m` reports them:
    the kernel's sk_rcvbuf / sk_sndbuf, which are twice what setsockopt was granted."""
    out = ""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        out = subprocess.run(
            ["ss", "-tmnH", "state", "established", f"( sport = :{port} )"],
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        ).stdout
        match = re.search(r"skmem:\(r\d+,rb(\d+),t\d+,tb(\d+)", out)
        if match:
            return int(match.group(1)), int(match.group(2))
        time.sleep(0.2)
    raise AssertionError(f"no established connection on port {port} in `ss -m`: {out!r}")


def test_network_pools_are_per_listener_and_the_kernel_caps_socket_buffers(tmp_path: Path) -> None:
    if shutil.which("jstack") is None or shutil.which("ss") is None:
        pytest.fail("jstack (JDK) and ss (iproute2) are needed to look inside the broker")
    rmem_max, wmem_max = kernel_limit("rmem_max"), kernel_limit("wmem_max")
    port = kafka_cluster.port_base() + 60
    overrides = {
        "listeners": f"PLAINTEXT://127.0.0.1:{port},CONTROLLER://127.0.0.1:{port + 1},"
        f"REPLICATION://127.0.0.1:{port + 2}",
        "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,REPLICATION:PLAINTEXT",
        "num.network.threads": "4",
        "socket.receive.buffer.bytes": str(4 * rmem_max),  # beyond what the kernel allows
        "socket.send.buffer.bytes": str(wmem_max // 4),  # within it
    }
    with standalone_broker(tmp_path, overrides):
        pid = int((tmp_path / "broker.pid").read_text())
        # Every listener, the controller's included on a combined node, gets its own pool.
        assert network_threads(pid) == {"PLAINTEXT": 4, "REPLICATION": 4, "CONTROLLER": 4}

        with answered_connection(port):  # held open while ss looks at it
            receive, send = broker_side_buffers(port)
        assert receive == 2 * rmem_max  # asked for 4 * rmem_max, granted rmem_max
        assert send == 2 * (wmem_max // 4)  # granted as asked

    broker = tmp_path / "server.properties"
    broker.write_text("".join(f"{k}={v}\n" for k, v in {**overrides, "num.network.threads": "32"}.items()))
    found = {f.rule for f in lint([broker]).findings}
    assert {"KB125", "KB127"} <= found
