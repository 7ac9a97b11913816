"""The record format brokers keep (log.message.format.version, topic message.format.version)
and what it refuses.

Each check gets the rule context (rules/context.py) and the config set and returns Violations."""

from __future__ import annotations

from advisor import TYPE_CHECKING, catalog, lazy_re
from advisor.model.document import ConfigSet
from advisor.rules.registry import python_check
from advisor.rules.violation import Violation

if TYPE_CHECKING:
    from typing import Any

_FORMAT_KEYS = {"broker": "log.message.format.version", "topic": "message.format.version"}
_MAJOR_MINOR = lazy_re.compile(r"^\s*(\d+)\.(\d+)")
_IDEMPOTENT_FORMAT = (0, 11)  # message format v2 (KIP-98): producer ids and sequence numbers


def _major_minor(value: str) -> tuple[int, int] | None:
    match = _MAJOR_MINOR.match(value)
    return (int(match[1]), int(match[2])) if match else None


def _format_honoured(values: dict[str, Any], config_set: ConfigSet) -> bool:
    """Whether a broker of the judged release keeps the format written: every release before
    3.0; a 3.x broker only with an inter.broker.protocol.version below 3.0 written beside it
    (KIP-724: ignored otherwise); 4.0 removed the key."""
    release = catalog.versions.parse(values["kafka_version"])
    if release < (3, 0, 0):
        return True
    if release >= (4, 0, 0) or config_set.component != "broker":
        return False
    protocol = config_set.settings.get("inter.broker.protocol.version")
    written = _major_minor(protocol.value) if protocol is not None else None
    return written is not None and written < (3, 0)


@python_check(arguments=("key", "value"))
def format_refuses_idempotence(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """A message format below 0.11 (v0/v1) that the broker keeps: batches with a producer id
    cannot be written in it."""
    key = _FORMAT_KEYS.get(config_set.component)
    setting = config_set.settings.get(key) if key else None
    written = _major_minor(setting.value) if setting is not None else None
    if key is None or written is None or written >= _IDEMPOTENT_FORMAT or not _format_honoured(values, config_set):
        return []
    return [Violation(keys=(key,), arguments={"key": setting.spelling, "value": setting.value.strip()})]  # type: ignore[union-attr]
