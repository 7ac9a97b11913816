"""Alerts and runbooks, not autotuning: a Prometheus alerting rule for each metric rule of the run
and for the flow view's signals, in the naming the run's metrics use, with the rule's own
threshold (the project config's `[params.ID]` included), a `for:` before it fires and a
`keep_firing_for:` before it clears (hysteresis: no flapping around the threshold), and a runbook
entry — what it means, what to look at, which step of the plan changes what it watches.

A rule whose condition PromQL cannot say as the rule judges it (two metrics at once, a client
setting beside a metric) gets no alert and is said, with why; an alert never claims more than its
rule does.
"""

from __future__ import annotations

import re
from typing import Any

from advisor.metrics import micrometer, vocabulary
from advisor.metrics.shapes import IDENTITY
from advisor.metrics.vocabulary import Reading
from advisor.named_tuple import NamedTuple

WINDOW = "5m"  # rate() and increase() over this; deriv() and predict_linear() over the longer TREND
TREND = "15m"
MIN_FOR = 60  # seconds: even an event waits a scrape or two before it pages anyone
# Why a rule gets no alert (python check → reason).
NOT_SAID: dict[str, str] = {
    "metrics:request_stages": "it compares a request's stages with each other (one quantile series each)",
    "metrics:small_while_busy": "it judges a size only while the client is busy: two metrics and a client setting",
    "metrics:share_of_increase": "it judges one counter's increase as a share of another's",
    "metrics:compression_ratio": "it judges compression beside the bytes sent",
    "metrics:near_client_setting": "it compares a metric with the client's own setting",
    "producer_waits:producer_wait": "it compares a wait with the producer's linger.ms and round trip",
    "flow:flow_retention": "it needs each topic's retention beside its oldest unread record",
}


class Alert(NamedTuple):
    name: str  # the alert's name (CamelCase)
    rule: str  # the rule it stands for (KM001), or "flow"
    expr: str
    for_seconds: int
    keep_firing_seconds: int
    severity: str
    threshold: Any
    summary: str
    means: str  # the runbook: what it means
    look_at: str  # what to look at
    prepared: tuple[str, ...]  # plan steps that change what it watches

    def to_dict(self) -> dict[str, Any]:
        return self._asdict() | {"prepared": list(self.prepared)}


class Alerts(NamedTuple):
    alerts: tuple[Alert, ...]
    not_alerted: tuple[tuple[str, str], ...]  # (rule, why no alert)
    dialects: tuple[str, ...]  # the naming the expressions use

    def to_dict(self) -> dict[str, Any]:
        return {"alerts": [a.to_dict() for a in self.alerts], "dialects": list(self.dialects),
                "not_alerted": [{"rule": r, "why": why} for r, why in self.not_alerted]}  # fmt: skip


def _camel(name: str) -> str:
    return "Kafka" + "".join(part.capitalize() for part in re.split(r"[^a-zA-Z0-9]+", name) if part)


def _first_sentence(text: str) -> str:
    sentence = re.split(r"(?<=[.;])\s", " ".join(text.split()), maxsplit=1)[0]
    return sentence if len(sentence) <= 300 else sentence[:297] + "..."


def _broker_series(mbean: str, dialect: str) -> tuple[list[str], str, float] | None:
    """The series a dialect writes for a broker MBean, the reading they carry, and a count's scale."""
    metric = next((m for m in vocabulary.METRICS if m.mbean == mbean), None)
    if metric is None:
        return None
    named = vocabulary.names(metric)
    for reading in (Reading.VALUE, Reading.COUNT, Reading.RATE):
        series = [name for name, read, dialects in named if read == reading and dialect in dialects]
        # Exporter 1.x names a counter `_total` where 0.x did not: either may be scraped.
        if series:
            return series, reading, metric.count_scale
    return None


def _condition(fires: str, threshold: Any) -> str:
    return f"{'>' if fires == 'above' else '<'} {threshold}"


def _expr(series: list[str], reading: str, scale: float, watch: Any, threshold: Any) -> str:
    condition = _condition(watch.fires, threshold)
    if reading == Reading.COUNT:
        if watch.events:
            parts = [f"increase({s}[{WINDOW}])" for s in series]
        else:
            parts = [f"rate({s}[{WINDOW}])" + (f" * {scale:g}" if scale != 1 else "") for s in series]
    else:
        parts = list(series)
    joined = parts[0] if len(parts) == 1 else "(" + " or ".join(parts) + ")"
    if watch.over == "cluster":  # a cluster's nodes summed: every label but the node's kept (job, cluster)
        joined = f"sum without ({', '.join(IDENTITY)}) ({joined})"
    return f"{joined} {condition}"


def _client_series(metric_id: str) -> list[str]:
    """A Java client metric as Micrometer's Kafka binder names it in Prometheus."""
    return sorted(series for series, metric in micrometer.NAMES.items() if metric.id == metric_id)


def _prepared(definition: Any, steps: Any) -> tuple[str, ...]:
    """Plan steps whose proof names what this rule watches."""
    watched = definition.watch.metric
    short = watched.split("name=")[-1].split(",")[0] if "name=" in watched else watched.split("/")[-1]
    found = []
    for step in steps:
        if any(short in r.proof for r in step.recommendations):
            keys = ", ".join(f"{r.component} {r.key}={r.value}" for r in step.recommendations)
            found.append(f"step {step.number}: {keys}")
    return tuple(found)


def _alert(definition: Any, expr: str, params: dict[str, Any], steps: Any, name: str | None = None) -> Alert:
    sustained = int(params.get("sustained_seconds") or 0)
    waits = max(MIN_FOR, sustained)
    return Alert(name or _camel(definition.name), definition.id, expr, waits, waits, definition.severity,
                 params.get("threshold"), definition.summary, _first_sentence(definition.rationale),
                 " ".join(definition.recommended.split()), _prepared(definition, steps))  # fmt: skip


def _flow(definition: Any, params: dict[str, Any], seen: set[str], steps: Any) -> list[Alert]:
    threshold = params.get("threshold")
    if definition.id == "KM042":  # hours to full: the free space's linear trend, projected
        hours = float(threshold or 24)
        parts = []
        if "node_filesystem_avail_bytes" in seen or "kubelet_volume_stats_available_bytes" not in seen:
            pseudo = "|".join(sorted(("tmpfs", "ramfs", "devtmpfs", "squashfs", "nsfs", "proc", "sysfs", "autofs")))
            parts.append(f'predict_linear(node_filesystem_avail_bytes{{fstype!~"{pseudo}"}}[{TREND}], '
                         f"{hours * 3600:.0f}) < 0")  # fmt: skip
        if "kubelet_volume_stats_available_bytes" in seen:
            parts.append(f"predict_linear(kubelet_volume_stats_available_bytes[{TREND}], {hours * 3600:.0f}) < 0")
        return [_alert(definition, " or ".join(parts), params, steps)]
    if definition.id == "KM040":
        found = []
        if "kafka_consumergroup_group_offset" in seen:  # kafka-lag-exporter measures the lag in seconds itself
            expr = f"max by (cluster_name, group, topic) (kafka_consumergroup_group_lag_seconds) > {threshold}"
            found.append(_alert(definition, expr, params, steps))
        lags = {"kafka_consumergroup_lag": "consumergroup, topic",
                "kminion_kafka_consumer_group_topic_partition_lag": "group_id, topic_name"}  # fmt: skip
        named = [name for name in lags if name in seen] or ["kafka_consumergroup_lag"]
        growing = " or ".join(f"(sum by ({lags[n]}) (deriv({n}[{TREND}])) > 0 and sum by ({lags[n]}) ({n}) > 0)"
                              for n in named)  # fmt: skip
        found.append(Alert("KafkaConsumerGroupLagGrowing", "flow", growing, 900, 900, "warning", 0,
                           "A consumer group's lag keeps growing: records come in faster than the group reads.",
                           "The lag's slope over 15 minutes is above zero — the flow view's diverging scissors "
                           "(in > out); left alone, the lag in seconds grows until records reach retention.",
                           "the group's consumers (count, processing time, max.poll.records, fetch sizes), "
                           "the in-rate (a producer that rose), rebalances", _prepared(definition, steps)))  # fmt: skip
        return found
    return []


def alerts(definitions: list[Any], params: dict[str, dict[str, Any]], recognised: set[str], seen: set[str],
           steps: Any) -> Alerts:  # fmt: skip
    """The alerts of the run's metric rules (`definitions`: those the run applied), in the broker
    naming `recognised` (else the JMX exporter's example rules'), with the exporters `seen`."""
    broker_dialects = [d for d in vocabulary.DIALECTS if d in recognised] or [vocabulary.JMX_EXAMPLE]
    made: list[Alert] = []
    skipped: list[tuple[str, str]] = []
    for definition in definitions:
        watch = definition.watch
        if watch is None or not definition.id.startswith("KM"):
            continue
        values = definition.param_values(params.get(definition.id))
        python = definition.python or ""
        if python.startswith("flow:"):
            flow = _flow(definition, values, seen, steps)
            made += flow
            if not flow:
                skipped.append((definition.id, NOT_SAID.get(python, "no PromQL says it as the rule judges it")))
            continue
        if python not in ("metrics:metric_threshold", "metrics:metric_rising"):
            skipped.append((definition.id, NOT_SAID.get(python, "no PromQL says it as the rule judges it")))
            continue
        threshold = values.get("threshold")
        if ":" in watch.metric:  # a broker MBean
            found = next((s for d in broker_dialects if (s := _broker_series(watch.metric, d)) is not None), None)
            if found is None:
                skipped.append((definition.id, f"no series of {', '.join(broker_dialects)} carries it"))
                continue
            series, reading, scale = found
            made.append(_alert(definition, _expr(series, reading, scale, watch, threshold), values, steps))
            continue
        series = _client_series(watch.metric)
        if not series:
            skipped.append((definition.id, "no client metric series in Prometheus carries it (Micrometer's binder)"))
            continue
        reading = Reading.COUNT if series[0].endswith("_total") else Reading.VALUE
        expr = _expr(series, reading, 1.0, watch, threshold)
        if python == "metrics:metric_rising":
            base = series[0]
            expr = f"deriv({base}[{TREND}]) > 0 and {base} {_condition(watch.fires, threshold)}"
        made.append(_alert(definition, expr, values, steps))
    return Alerts(tuple(made), tuple(skipped), tuple(broker_dialects))
