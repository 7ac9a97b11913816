"""What every Kafka configuration key is: type, default, validation and history.

Generated from the real software (tools/catalog/): Kafka's own ConfigDefs for each
release from 2.8 to 4.4, librdkafka's property table, kafka-python's DEFAULT_CONFIG.
Data loads lazily on the first question.
"""

from advisor.catalog.early import EarlyRemoval, early_removal
from advisor.catalog.legacy import LegacyRemoval, legacy_removal
from advisor.catalog.lookup import (
    CLIENT_COMPONENTS,
    CLIENTS,
    COMPONENTS,
    HistoryEvent,
    KeyFacts,
    default,
    exists,
    history,
    known_keys,
    lookup,
    owners,
    releases,
    resolve_version,
    suggest,
    varies_between_releases,
)
from advisor.catalog.versions import UnknownVersionError

__all__ = [
    "CLIENTS",
    "CLIENT_COMPONENTS",
    "COMPONENTS",
    "EarlyRemoval",
    "HistoryEvent",
    "KeyFacts",
    "LegacyRemoval",
    "UnknownVersionError",
    "default",
    "early_removal",
    "exists",
    "history",
    "known_keys",
    "legacy_removal",
    "lookup",
    "owners",
    "releases",
    "resolve_version",
    "suggest",
    "varies_between_releases",
]
