"""Is a text metrics, and which kind? One answer for `analyze` (which reads it) and the config
loaders (which leave it alone): Prometheus exposition, a Prometheus API answer, or a client's
metrics (Java/kafka-python dump, librdkafka statistics, kafka-python's metrics())."""

from __future__ import annotations

EXPOSITION, API_RESULT, CLIENT, JMXTOOL = "prometheus", "prometheus-api", "client-metrics", "jmxtool"
NAMES = {EXPOSITION: "Prometheus exposition", API_RESULT: "a Prometheus API answer", CLIENT: "client metrics",
         JMXTOOL: "a JmxTool dump"}  # fmt: skip


def kind(head: str) -> str | None:
    """`prometheus`, `prometheus-api`, `client-metrics:<java|librdkafka|kafka-python>`,
    `jmxtool:<original|properties|csv|tsv>`, or None."""
    from advisor.metrics import clients, inputs, jmxtool, prometheus_api

    if prometheus_api.is_api_result(head):
        return API_RESULT
    client = clients.kind_of(head)
    if client:
        return f"{CLIENT}:{client}"
    report = jmxtool.kind_of(head)
    if report:
        return f"{JMXTOOL}:{report}"
    return EXPOSITION if inputs.is_exposition(head) else None


def described(found: str) -> str:
    return NAMES[found.split(":", 1)[0]]
