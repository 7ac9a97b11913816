"""The Kafka release that judges a config set, and where it came from.

--kafka-version, else a version the input declares (directive, image tag), else the broker's
inter.broker.protocol.version (e.g. 3.9-IV0), else the last ZooKeeper release for a broker in
ZooKeeper mode, else the newest release. Pure: the rule runner, diff, recommend and the metric
rules' view of the configs beside them all ask here.
"""

from __future__ import annotations

from advisor import catalog
from advisor.model.document import ConfigSet
from advisor.model.vocabulary import Product, product_of
from advisor.named_tuple import NamedTuple


class Judged(NamedTuple):
    """The release that judges a config set, where it came from (None: nothing said it), and
    what was assumed to get there (None: nothing)."""

    release: str
    source: str | None
    assumed: str | None
    outside_catalog: bool = False  # the input names a release the catalog has no data for


NO_VERSION = (
    "Kafka {release}, the newest release: no version found; set --kafka-version, kafka-version in "
    "the project config, or a '# kafka-advisor: kafka-version=X.Y' line"
)


def resolve_release(config_set: ConfigSet, requested: str | None) -> str:
    return judged_release(config_set, requested).release


def _zookeeper_mode(config_set: ConfigSet) -> bool:
    """A broker configured for ZooKeeper: it names its ensemble, or an id without KRaft roles."""
    settings = config_set.settings
    if config_set.component != "broker":
        return False
    return "zookeeper.connect" in settings or ("broker.id" in settings and "process.roles" not in settings)


def _last_zookeeper_release() -> str:
    """The newest catalog release before 4.0 (the last that ran ZooKeeper mode)."""
    return [r for r in catalog.releases() if catalog.versions.parse(r) < (4, 0, 0)][-1]


def judged_release(config_set: ConfigSet, requested: str | None) -> Judged:
    """The catalog release that judges the set. A version from the input that the catalog
    cannot answer for (older than its oldest release, or not a version at all: `latest`, a
    template) is judged with the nearest release, and the findings say so; --kafka-version was
    checked before the run. A product pack's set: its product's release (analysis/camunda.py)."""
    if product_of(config_set.component) != Product.KAFKA:
        from advisor.analysis import camunda

        return camunda.judged_release(config_set)
    hint, source = requested, "--kafka-version" if requested else None
    if hint is None and config_set.kafka_version:
        hint, source = config_set.kafka_version, config_set.kafka_version_from or "the input"
    protocol = config_set.settings.get("inter.broker.protocol.version")
    if hint is None and protocol is not None:
        try:
            catalog.versions.parse(protocol.value)
            hint, source = protocol.value, f"inter.broker.protocol.version={protocol.value}"
        except catalog.UnknownVersionError:
            pass
    if hint is None and _zookeeper_mode(config_set):
        last = _last_zookeeper_release()
        how = "zookeeper.connect" if "zookeeper.connect" in config_set.settings else "broker.id without process.roles"
        return Judged(
            last, None, f"Kafka {last} assumed: the broker runs in ZooKeeper mode ({how}), which Kafka 4.0 removed"
        )
    try:
        return Judged(catalog.resolve_version(hint), source, None)
    except catalog.UnknownVersionError:
        releases = catalog.releases()
        try:
            catalog.versions.parse(hint or "")
        except catalog.UnknownVersionError:
            return Judged(
                releases[-1],
                None,
                f"Kafka {releases[-1]} assumed: {source} names the version {hint!r}, which is not one",
                outside_catalog=True,
            )
        return Judged(
            releases[0],
            source,
            f"judged as Kafka {releases[0]}, the oldest release the catalog knows: {source} names Kafka {hint}",
            outside_catalog=True,
        )
