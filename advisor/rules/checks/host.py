"""Broker settings judged against the host's kernel, which the files do not show."""

from __future__ import annotations

from advisor import TYPE_CHECKING
from advisor.model.document import ConfigSet
from advisor.rules.registry import python_check
from advisor.rules.violation import Violation

if TYPE_CHECKING:
    from typing import Any

# net.core.rmem_max / wmem_max by default before Linux raised them to 4 MiB (2025).
KERNEL_BUFFER_CAP = 212992
_SOCKET_BUFFERS = ("socket.receive.buffer.bytes", "socket.send.buffer.bytes", "replica.socket.receive.buffer.bytes")


@python_check()
def socket_buffers_above_kernel_limit(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """One finding naming only the written buffers above the cap (-1 and smaller ones aside)."""
    above = []
    for key in _SOCKET_BUFFERS:
        written = values["set"].get(key)
        try:
            size = int(str(written).strip()) if written is not None else None
        except ValueError:
            continue  # not a number: the value rule (KB110) says so
        if size is not None and size > KERNEL_BUFFER_CAP:
            above.append((key, size))
    if not above:
        return []
    listed = ", ".join(f"{key}={size}" for key, size in above)
    message = (
        f"socket buffer{'s' if len(above) > 1 else ''} above {KERNEL_BUFFER_CAP} bytes ({listed}): the kernel grants "
        "at most net.core.rmem_max / net.core.wmem_max, so check those on the hosts"
    )
    return [Violation(keys=tuple(key for key, _ in above), message=message)]
