"""Effective configuration: what is written, on top of the catalog's defaults for the
Kafka version and client. An absent key is effectively its default, and rules see it."""

from __future__ import annotations

from functools import cache

from advisor import catalog
from advisor.model.document import ConfigSet
from advisor.model.vocabulary import Product, product_of
from advisor.secrets import REDACTED


@cache
def defaults(component: str, client: str, release: str) -> dict[str, str | None]:
    """Default values as Kafka (or the client library) renders them, keyed by the names rules use
    (a product pack's component: its product's, by the pack's names)."""
    if product_of(component) != Product.KAFKA:
        from advisor.analysis import camunda

        return camunda.defaults_at(release) if component == "zeebe-broker" else {}
    lookup_client = client if component in catalog.CLIENT_COMPONENTS else "java"
    if lookup_client == "java":
        from advisor import prebuilt

        built = prebuilt.java_keys("defaults", component, release)
        if built is not None:  # what this function computed when the wheel was built
            return dict(zip(*built, strict=True))
    result: dict[str, str | None] = {}
    for key in catalog.known_keys(component, kafka_version=release, client=lookup_client):
        facts = catalog.lookup(key, component, kafka_version=release, client=lookup_client)
        text = facts.default_text
        if lookup_client == "kafka-python":
            key = facts.java_key or key  # rules read Kafka's names
            value = facts.default
            text = None if value is None else (str(value).lower() if isinstance(value, bool) else str(value))
        result[key] = None if facts.required or text in (None, "[hidden]") else text
    return result


def written(config_set: ConfigSet) -> dict[str, str]:
    """What the input sets, secret values replaced: rules never see a secret."""
    return {key: REDACTED if s.secret else s.value for key, s in config_set.settings.items()}


def effective(config_set: ConfigSet, release: str) -> dict[str, str | None]:
    return {**defaults(config_set.component, config_set.client, release), **written(config_set)}
