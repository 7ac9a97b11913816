"""Recommendations against the user's own configurations: for each config set of a component a
recommendation concerns, the value it runs with now (written, else its release's and library's
default), and a Change where it differs — planned into edits of the file where a writer for its
format exists, shown as a snippet otherwise. A topic's partitions and replicas, declared where it
is created (a KafkaTopic, a `kafka_topic`, `kafka-topics.sh --create`), are compared too; they
are changed where the topic is created, not by an edit of a setting."""

from __future__ import annotations

from typing import Any

from advisor import catalog
from advisor.analysis.effective import effective
from advisor.analysis.release import resolve_release
from advisor.model.changes import Change
from advisor.model.document import ConfigSet, Document
from advisor.model.provenance import Location
from advisor.model.vocabulary import Product, product_of
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
    change: Change | None  # the edit of a setting; None: already so, or declared (not a setting)
    why: str = ""  # why the set runs with `current` when that is neither written nor the plain default
    declared: bool = False  # a topic's partitions or replicas as its creation declares them

    @property
    def differs(self) -> bool:
        """The set runs with another value than the one recommended (with an edit or not)."""
        return self.change is not None or (
            self.declared and not _same(self.current, self.value, self.recommendation.at_least)
        )

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.config_set.path, "subject": self.config_set.name, "component": self.config_set.component,
                "client": self.config_set.client, "key": self.key, "value": self.value, "current": self.current,
                "line": self.written.line if self.written else None, "change": self.differs,
                "edit": self.change is not None, "declared": self.declared, "why": self.why or None}  # fmt: skip


def _applies(recommendation: Recommendation, config_set: ConfigSet) -> bool:
    if recommendation.component == config_set.component:
        return True
    return config_set.component == "broker" and recommendation.key in _BROKER_DEFAULTS


def _same(current: str | None, value: Any, at_least: bool = False) -> bool:
    """Does the value a set runs with satisfy the recommended one (`at_least`: or exceed it)?"""
    if current is None:
        return False
    wanted = str(value).lower()
    have = current.strip().lower()
    if have == wanted:
        return True
    try:
        return float(have) >= float(wanted) if at_least else float(have) == float(wanted)
    except ValueError:
        return {have, wanted} <= {"all", "-1"}  # acks: the same setting


# A topic's creation declares these (ConfigSet.facts), by the recommendation that concerns them.
_DECLARED = {"partitions": "partitions", "replication.factor": "replicas"}


def _declared(recommendation: Recommendation, config_set: ConfigSet) -> Against | None:
    """A topic's declared partitions or replicas against the recommendation, if it declares them."""
    fact = _DECLARED.get(recommendation.key)
    if config_set.component != "topic" or fact is None:
        return None
    current = config_set.facts.get(fact)
    if current is None or not str(current).strip().isdigit():
        return None  # not declared, or computed (a variable, a template)
    return Against(recommendation, config_set, recommendation.key, recommendation.value, str(current).strip(),
                   None, None, "", True)  # fmt: skip


def transactions_in(document: Document) -> tuple[bool, str] | None:
    """(True, where) when a producer of the configurations writes in transactions: a
    `transactional.id` (or Spring's transaction-id-prefix) — what puts consumers' isolation in play."""
    for config_set in document.config_sets:
        if config_set.component != "producer":
            continue
        setting = config_set.settings.get("transactional.id")
        if setting is not None and setting.value.strip():
            return True, f"{config_set.path}:{setting.location.line}"
        if config_set.facts.get("transaction_id_prefix"):
            return True, f"{config_set.path} (spring.kafka.producer.transaction-id-prefix)"
    return None


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
        if product_of(config_set.component) != Product.KAFKA:
            continue  # a Camunda set: the Kafka profile's recommendations are not its
        release = resolve_release(config_set, kafka_version)
        now = effective(config_set, release)
        for recommendation in recommendations:
            declared = _declared(recommendation, config_set)
            if declared is not None:
                found.append(declared)
                continue
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
            if not _same(current, spelled.value, recommendation.at_least):
                text = str(spelled.value).lower() if isinstance(spelled.value, bool) else str(spelled.value)
                change = Change("set", key, text, "unsafe", config_set.path, config_set.name)
            found.append(Against(recommendation, config_set, key, spelled.value, current,
                                 setting.location if setting else None, change, why))  # fmt: skip
    return found


KEPT_REASON = "no value of this profile bears on them; `kafka-advisor lint` judges each"


class Kept(NamedTuple):
    """A config set's written settings no recommendation of the profile concerns: kept as written."""

    config_set: ConfigSet
    keys: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.config_set.path, "subject": self.config_set.name, "component": self.config_set.component,
                "keys": list(self.keys), "reason": KEPT_REASON}  # fmt: skip


# Written settings the profile itself is read from (transactions_in): said in the profile, not kept.
_PROFILE_KEYS = frozenset({"transactional.id"})


def kept(document: Document, found: list[Against]) -> list[Kept]:
    """Every written setting of the configurations that no recommendation compared: said, with why
    it is kept (a recommendation judges everything the user wrote — changes it, or says it stays)."""
    compared: dict[int, set[str]] = {id(config_set): set(_PROFILE_KEYS) for config_set in document.config_sets}
    for against in found:
        compared.setdefault(id(against.config_set), set()).add(against.key)
    result = []
    for config_set in document.config_sets:
        if product_of(config_set.component) != Product.KAFKA:
            continue
        keys = tuple(key for key in config_set.settings if key not in compared.get(id(config_set), set()))
        if keys:
            result.append(Kept(config_set, keys))
    return result
