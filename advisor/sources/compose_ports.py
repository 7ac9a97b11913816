"""A compose service's published ports: which container ports other machines reach.

Short syntax (`"9092:9092"`, `"9092"`, `"127.0.0.1:9092:9092"`, `"[::1]:9092:9092/tcp"`, ranges
`"9092-9094:9092-9094"`) and long syntax (`target`, `published`, `host_ip`). A port published
without a host address is bound on every interface (Docker's default, also for a bare container
port, which gets an ephemeral host port); one bound to a loopback address is reachable from the
machine alone.
"""

from __future__ import annotations

import re

from advisor import lazy_re
from advisor.named_tuple import NamedTuple
from advisor.sources.spans import Located, LocatedList

_SHORT = lazy_re.compile(
    r"^\s*(?:(?P<ip>\[[^\]]*\]|[\d.]+|[A-Za-z][\w.-]*):)??(?:(?P<published>[\d-]*):)?(?P<target>\d+(?:-\d+)?)(?:/\w+)?\s*$"
)
_LOOPBACK = lazy_re.compile(r"^\[?(127(\.\d+){3}|::1|localhost)\]?$", re.IGNORECASE)
_MAX_RANGE = 1024  # a wider range is read as its first port: nobody publishes thousands on purpose


class Published(NamedTuple):
    container_port: int
    everywhere: bool  # bound on every interface, not loopback only
    written: str
    line: int


def _ports(text: str) -> list[int]:
    first, _, last = text.partition("-")
    start = int(first)
    end = int(last) if last else start
    return list(range(start, min(end, start + _MAX_RANGE) + 1)) if end >= start else [start]


def published(service: Located) -> list[Published]:
    written = service.get("ports")
    if not isinstance(written, LocatedList):
        return []
    found: list[Published] = []
    for item, span in zip(written, written.spans, strict=False):
        if isinstance(item, Located):  # long syntax
            target, host_ip = str(item.get("target") or ""), str(item.get("host_ip") or "")
            if not target.isdigit():
                continue
            text = f"{host_ip + ':' if host_ip else ''}{item.get('published') or ''}:{target}"
            found.append(Published(int(target), not _LOOPBACK.match(host_ip), text, span.line))
            continue
        match = _SHORT.match(str(item))
        if match is None:
            continue  # a variable (${KAFKA_PORT}:9092) or a typo: no evidence either way
        everywhere = not _LOOPBACK.match(match["ip"] or "")
        found += [Published(port, everywhere, str(item), span.line) for port in _ports(match["target"])]
    return found
