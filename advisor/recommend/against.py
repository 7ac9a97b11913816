"""Recommendations against the user's own configurations: for each config set of a component a
recommendation concerns, the value it runs with now (written, else its release's and library's
default), and a Change where it differs — planned into edits of the file where a writer for its
format exists (`.properties` today), shown as a snippet otherwise."""

from __future__ import annotations

from typing import Any

from advisor import catalog
from advisor.analysis.effective import effective
from advisor.analysis.release import resolve_release
from advisor.model.changes import Change
from advisor.model.document import ConfigSet, Document
from advisor.model.provenance import Location
from advisor.named_tuple import NamedTuple
from advisor.recommend import spelling
from advisor.recommend.values import Recommendation

# Topic recommendations that brokers take as the default for every topic (the same name).
_BROKER_DEFAULTS = {"min.insync.replicas", "retention.ms"}


class Against(NamedTuple):
    recommendation: Recommendation
    config_set: ConfigSet
    key: str  # as this set's library spells it
    value: Any  # the recommended value, in that spelling
    current: str | None  # what the set runs with now
    written: Location | None  # where it is written (None: the default)
    change: Change | None  # None: it already is so
    why: str = ""  # why the set runs with `current` when that is neither written nor the plain default

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.config_set.path, "subject": self.config_set.name, "component": self.config_set.component,
                "client": self.config_set.client, "key": self.key, "value": self.value, "current": self.current,
                "line": self.written.line if self.written else None, "change": self.change is not None,
                "why": self.why or None}  # fmt: skip


def _applies(recommendation: Recommendation, config_set: ConfigSet) -> bool:
    if recommendation.component == config_set.component:
        return True
    return config_set.component == "broker" and recommendation.key in _BROKER_DEFAULTS


def _same(current: str | None, value: Any) -> bool:
    if current is None:
        return False
    wanted = str(value).lower()
    have = current.strip().lower()
    if have == wanted:
        return True
    try:
        return float(have) == float(wanted)
    except ValueError:
        return {have, wanted} <= {"all", "-1"}  # acks: the same setting


def _idempotence_off(config_set: ConfigSet, release: str) -> str:
    """Why a Java producer that does not set enable.idempotence runs without it: from 3.0 the client
    turns its default off beside acks other than all, retries=0 or more than 5 requests in flight
    (ProducerConfig.postProcessAndValidateIdempotenceConfigs; KP123 proves it on the real client)."""
    if config_set.client != "java" or "enable.idempotence" in config_set.settings:
        return ""
    if catalog.versions.parse(release) < catalog.versions.parse("3.0"):
        return ""
    written = {key: setting.value.strip().lower() for key, setting in config_set.settings.items()}
    if written.get("acks", "all") not in ("all", "-1"):
        return f"acks={written['acks']} turns the default off"
    if written.get("retries") == "0":
        return "retries=0 turns the default off"
    in_flight = written.get("max.in.flight.requests.per.connection", "5")
    if in_flight.isdigit() and int(in_flight) > 5:
        return f"max.in.flight.requests.per.connection={in_flight} turns the default off"
    return ""


def compare(recommendations: list[Recommendation], document: Document, kafka_version: str | None) -> list[Against]:
    found: list[Against] = []
    for config_set in document.config_sets:
        release = resolve_release(config_set, kafka_version)
        now = effective(config_set, release)
        for recommendation in recommendations:
            if not _applies(recommendation, config_set):
                continue
            role = config_set.component if config_set.component in ("producer", "consumer") else "broker"
            spelled = (spelling.spell(recommendation.key, recommendation.value, config_set.client, role)
                       if role != "broker" else spelling.Spelled(recommendation.key, recommendation.value))  # fmt: skip
            if spelled.key is None:
                continue
            # kafka-python sets are read under Java's names; librdkafka's under its own.
            key = spelled.key if config_set.client == "librdkafka" else recommendation.key
            lookup_client = config_set.client if role != "broker" else "java"
            if not catalog.exists(spelled.key if config_set.client != "java" else key, role, kafka_version=release,
                                  client=lookup_client):  # fmt: skip
                continue  # the release or library has no such setting
            setting = config_set.settings.get(key)
            current = now.get(key)
            why = _idempotence_off(config_set, release) if key == "enable.idempotence" else ""
            if why:
                current = "false"
            change = None
            if not _same(current, spelled.value):
                text = str(spelled.value).lower() if isinstance(spelled.value, bool) else str(spelled.value)
                change = Change("set", key, text, "unsafe", config_set.path, config_set.name)
            found.append(Against(recommendation, config_set, key, spelled.value, current,
                                 setting.location if setting else None, change, why))  # fmt: skip
    return found
