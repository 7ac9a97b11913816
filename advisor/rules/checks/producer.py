"""Producer settings a predicate cannot word: the message depends on what else is set."""

from __future__ import annotations

from advisor import TYPE_CHECKING
from advisor.analysis.units import to_number
from advisor.model.document import ConfigSet
from advisor.rules.registry import python_check
from advisor.rules.violation import Violation

if TYPE_CHECKING:
    from typing import Any


@python_check()
def retries_zero(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """retries=0, unless idempotence is asked for (enable.idempotence=true, a transactional.id:
    the producer refuses to start, KP111 / KP107). With acks=all and idempotence left to its
    default it also switches that off; otherwise idempotence is off already, and the message
    does not claim it."""
    written, effective = values["set"], values["effective"]
    asked = str(written.get("enable.idempotence") or "").strip().lower()
    if asked == "true" or written.get("transactional.id") is not None:
        return []
    if to_number(str(effective.get("retries"))) != 0:
        return []
    in_flight = to_number(str(effective.get("max.in.flight.requests.per.connection")))
    if in_flight is not None and in_flight > 5:
        return []  # 4.x refuses it, 3.x silently drops idempotence: KP103 / KP104 say so
    message = "retries=0: a record is failed on the first leader change or timeout instead of being retried"
    if not asked and str(effective.get("acks")).strip() in ("all", "-1"):
        message += ", and the producer's default idempotence is switched off without an error"
    return [Violation(keys=("retries",), message=message)]
