"""Internal topics a multi-broker cluster keeps in one copy."""

from __future__ import annotations

from advisor import TYPE_CHECKING
from advisor.analysis.units import to_count
from advisor.analysis.values import is_template
from advisor.model.document import ConfigSet
from advisor.rules.registry import python_check
from advisor.rules.violation import Violation

if TYPE_CHECKING:
    from typing import Any

# Replication factor keys of topics the brokers create for themselves: Kafka's own, then
# Confluent Server's (its license, metadata, balancer, tiering and audit-log topics).
INTERNAL_TOPIC_RF = {
    "offsets.topic.replication.factor": "__consumer_offsets (every group's committed offsets)",
    "transaction.state.log.replication.factor": "__transaction_state (every open transaction)",
    "share.coordinator.state.topic.replication.factor": "__share_group_state",
    "confluent.license.topic.replication.factor": "_confluent-license",
    "confluent.metadata.topic.replication.factor": "_confluent-metadata-auth",
    "confluent.balancer.topic.replication.factor": "_confluent_balancer_* topics",
    "confluent.tier.metadata.replication.factor": "_confluent-tier-state",
    "confluent.metrics.reporter.topic.replicas": "_confluent-metrics",
    "confluent.security.event.logger.exporter.kafka.topic.replicas": "confluent-audit-log-events",
}


@python_check(arguments=("key", "topic", "brokers"))
def internal_topic_rf_one(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """Each internal topic's replication factor written as 1 on a cluster of two or more brokers."""
    brokers = (values.get("cluster") or {}).get("min_brokers") or 0
    # A default replication factor of N written is a cluster of at least N brokers: topics
    # created with it could not exist otherwise (KB101 reads it the same way).
    written_default = to_count(values["set"].get("default.replication.factor"))
    brokers = max(brokers, written_default or 0)
    if brokers < 2 or "broker" not in values["roles"]:
        return []  # a controller-only node creates no internal topics: its copy of the key is unused
    outcomes = []
    for key, topic in INTERNAL_TOPIC_RF.items():
        setting = config_set.settings.get(key)
        if setting is None or is_template(setting.value):
            continue
        if setting.value.strip() in ("1", "'1'", '"1"'):
            arguments = {"key": key, "topic": topic, "brokers": str(brokers)}
            outcomes.append(Violation(keys=(key,), arguments=arguments))
    return outcomes
