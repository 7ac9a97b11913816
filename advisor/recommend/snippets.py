"""The recommended values as snippets in the forms people keep them: Spring Boot's
application.yml (typed properties where Boot has them, its `properties` map otherwise), a
docker-compose environment for the apache/kafka and Confluent images (the inverse of
catalog.surfaces.env_to_property), Strimzi's Kafka and KafkaTopic resources, and the Bitnami Kafka
chart's values (`overrideConfiguration`, charts 32 and later: what advisor/sources/helm.py reads)."""

from __future__ import annotations

from advisor.catalog import surfaces
from advisor.recommend.values import Recommendation

FORMATS = ("spring", "compose", "strimzi", "helm")
_SIMPLE_TYPES = ("java.lang.String", "java.lang.Integer", "java.lang.Boolean", "org.springframework.util.unit.DataSize")


def _spring_property(key: str, role: str) -> tuple[str, str] | None:
    """Boot's typed property that sets exactly this key for this role, and its type."""
    properties = surfaces._spring()["boot"][surfaces.spring_boot_releases()[-1]]["properties"]
    for name, record in properties.items():
        if record.get("sets", {}).get(role) == [key] and record.get("type") in _SIMPLE_TYPES:
            return name, record["type"]
    return None


def spring(recommendations: list[Recommendation]) -> str:
    lines = ["spring:", "  kafka:"]
    for role in ("producer", "consumer"):
        chosen = [r for r in recommendations if r.component == role]
        if not chosen:
            continue
        typed, mapped = [], []
        for r in chosen:
            found = _spring_property(r.key, role)
            if found:
                name, kind = found
                value = f"{r.value}B" if kind.endswith("DataSize") else r.value
                typed.append(f"      {name.rsplit('.', 1)[-1]}: {value}")
            else:
                mapped.append(f'        "[{r.key}]": {r.value}')
        lines += [f"    {role}:", *typed]
        if mapped:
            lines += ["      properties:", *mapped]
    return "\n".join(lines) + "\n"


_ENV = {".": "_", "_": "__", "-": "___"}


def property_to_env(key: str) -> str | None:
    """apache/kafka's and Confluent's variable for a broker property: `.` → `_`, `_` → `__`, `-` →
    `___`. None for a key holding "kafka": apache/kafka removes every KAFKA_ in a name."""
    if "kafka" in key.lower():
        return None
    return "KAFKA_" + "".join(_ENV.get(c, c) for c in key).upper()


def compose(recommendations: list[Recommendation]) -> str:
    broker = [r for r in recommendations if r.component == "broker" or r.key in ("min.insync.replicas",)]
    if not broker:
        return ""
    lines = ["services:", "  kafka:", "    environment:"]
    lines += [f'      {property_to_env(r.key)}: "{r.value}"' for r in broker if property_to_env(r.key)]
    return "\n".join(lines) + "\n"


def strimzi(recommendations: list[Recommendation]) -> str:
    broker = [r for r in recommendations if r.component == "broker" or r.key == "min.insync.replicas"]
    topic = {r.key: r.value for r in recommendations if r.component == "topic"}
    lines = ["# Kafka resource", "spec:", "  kafka:", "    config:"]
    lines += [f"      {r.key}: {r.value}" for r in broker]
    lines += ["---", "# KafkaTopic resource", "spec:"]
    if "partitions" in topic:
        lines.append(f"  partitions: {topic['partitions']}")
    if "replication.factor" in topic:
        lines.append(f"  replicas: {topic['replication.factor']}")
    config = {k: v for k, v in topic.items() if k not in ("partitions", "replication.factor")}
    if config:
        lines += ["  config:", *(f"    {k}: {v}" for k, v in config.items())]
    return "\n".join(lines) + "\n"


def helm(recommendations: list[Recommendation]) -> str:
    broker = [r for r in recommendations if r.component == "broker" or r.key == "min.insync.replicas"]
    if not broker:
        return ""
    lines = ["# Bitnami Kafka chart 32 and later (earlier charts: the same lines as extraConfig text)",
             "overrideConfiguration:"]  # fmt: skip
    lines += [f'  {r.key}: "{r.value}"' for r in broker]
    return "\n".join(lines) + "\n"


def render(name: str, recommendations: list[Recommendation]) -> str:
    return {"spring": spring, "compose": compose, "strimzi": strimzi, "helm": helm}[name](recommendations)
