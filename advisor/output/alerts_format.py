"""advise's alerts as a Prometheus rules file (`promtool check rules` takes it) or as a
Kubernetes PrometheusRule (the Prometheus Operator's resource, its spec the same groups): each
alert with its `for:` and `keep_firing_for:`, its rule and threshold as labels, and the runbook
in its annotations."""

from __future__ import annotations

from typing import Any

import yaml

from advisor.output import RenderOptions

HEAD = ("# Alerting rules written by kafka-advisor advise: one per metric rule of the run and per flow\n"
        "# signal, thresholds from the rules' parameters (the project config's [params.ID]).\n")  # fmt: skip


# Alertmanager's customary severities (a rule's error pages someone).
_SEVERITY = {"error": "critical", "warning": "warning", "info": "info"}


def _duration(seconds: int) -> str:
    return f"{seconds // 60}m" if seconds and seconds % 60 == 0 else f"{seconds}s"


def groups(advice: Any) -> list[dict[str, Any]]:
    rules = []
    for alert in advice.alerts.alerts:
        runbook = f"What it means: {alert.means} Look at: {alert.look_at}."
        if alert.prepared:
            runbook += f" The plan's change: {'; '.join(alert.prepared)}."
        rules.append({
            "alert": alert.name,
            "expr": alert.expr,
            "for": _duration(alert.for_seconds),
            "keep_firing_for": _duration(alert.keep_firing_seconds),
            "labels": {"severity": _SEVERITY[alert.severity], "rule": alert.rule},
            "annotations": {"summary": alert.summary, "threshold": str(alert.threshold), "runbook": runbook},
        })  # fmt: skip
    return [{"name": "kafka-advisor", "rules": rules}]


def _dump(document: dict[str, Any]) -> str:
    text: str = yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=110, default_flow_style=False)
    return text


def render(advice: Any, options: RenderOptions) -> str:
    return HEAD + _dump({"groups": groups(advice)})


def prometheus_rule(advice: Any, options: RenderOptions) -> str:
    resource = {"apiVersion": "monitoring.coreos.com/v1", "kind": "PrometheusRule",
                "metadata": {"name": "kafka-advisor", "labels": {"role": "alert-rules"}},
                "spec": {"groups": groups(advice)}}  # fmt: skip
    return HEAD + _dump(resource)
