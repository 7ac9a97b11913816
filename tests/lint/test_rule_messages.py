"""Messages name what is wrong, and only that."""

from __future__ import annotations

from pathlib import Path

from advisor.report.session import lint


def test_socket_buffer_finding_lists_only_the_buffers_above_the_kernel_cap(tmp_path: Path) -> None:
    config = tmp_path / "server.properties"
    config.write_text(
        "process.roles=broker\nnode.id=1\nsocket.receive.buffer.bytes=4194304\n"
        "socket.send.buffer.bytes=-1\nreplica.socket.receive.buffer.bytes=65536\n"
    )
    (finding,) = [f for f in lint([config]).findings if f.rule == "KB127"]
    assert "socket.receive.buffer.bytes=4194304" in finding.message
    assert "socket.send.buffer.bytes" not in finding.message
    assert "replica.socket" not in finding.message
    assert [loc.line for loc in finding.locations] == [3]
