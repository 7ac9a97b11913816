"""Listener helpers the loaders (topology's exposure test) and the security rules share."""

from __future__ import annotations


def protocol_map(text: str | None) -> dict[str, str]:
    """listener.security.protocol.map as listener name → security protocol, upper case."""
    pairs = (item.split(":", 1) for item in (text or "").split(",") if ":" in item)
    return {name.strip().upper(): protocol.strip().upper() for name, protocol in pairs}
