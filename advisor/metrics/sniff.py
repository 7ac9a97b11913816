"""Is a text metrics, and which kind? One answer for `analyze` (which reads it) and the config
loaders (which leave it alone): Prometheus exposition, a Prometheus API answer, or a client's
metrics (Java/kafka-python dump, librdkafka statistics, kafka-python's metrics())."""

from __future__ import annotations

from pathlib import Path

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


def read_head(path: Path, size: int = 8192) -> str:
    """A file's first `size` characters (what `kind` is asked about); '' when it cannot be read."""
    try:
        with path.open(encoding="utf-8", errors="replace") as stream:
            return stream.read(size)
    except OSError:
        return ""


def described(found: str) -> str:
    return NAMES[found.split(":", 1)[0]]


# kafka-python's metrics() groups, as its dict prints them with single quotes (a Python repr).
_PYTHON_GROUPS = ("'producer-metrics'", "'consumer-metrics'", "'consumer-fetch-manager-metrics'",
                  "'consumer-coordinator-metrics'", "'kafka-metrics-count'")  # fmt: skip


def near_miss(head: str) -> str | None:
    """What a text that reads as no metrics format but looks like client metrics is, and what to
    save instead: the reason a named file is refused and a walked one passed over (never in silence)."""
    start = head.lstrip("\ufeff \t\r\n")
    if start.startswith("{") and any(group in head for group in _PYTHON_GROUPS):
        return ("kafka-python's metrics() printed as a Python dict (print(), str() or repr()), not JSON: "
                "save json.dumps(producer.metrics()) instead (docs/metrics.md, client metrics)")  # fmt: skip
    if "MetricName [name=" in head and "group=" in head:
        return ("a Java client's metrics() map printed with toString() (MetricName [name=…, group=…, tags=…]=…), "
                "which drops the values' types: dump each MetricName's group, name and tags and the metric's "
                "value as JSON, one object a line, as docs/metrics.md shows (client metrics, Java)")  # fmt: skip
    return None
