"""The setting a measured client runs with: its own configuration when one given names it by
client.id, else its library's default (said so: the client may set it elsewhere)."""

from __future__ import annotations

from advisor.analysis.effective import defaults
from advisor.model.document import Document
from advisor.model.provenance import Location
from advisor.named_tuple import NamedTuple


class ClientSetting(NamedTuple):
    value: str | None
    written: Location | None  # where its configuration writes it
    source: str  # "client.id orders-api in app.properties", "the librdkafka default"


class ClientSettings:
    def __init__(self, document: Document | None, kafka_version: str | None = None) -> None:
        from advisor.analysis.release import resolve_release

        self._sets = [(c, resolve_release(c, kafka_version)) for c in (document.config_sets if document else [])
                      if c.component in ("producer", "consumer")]  # fmt: skip
        from advisor import catalog

        self._newest = catalog.resolve_version(kafka_version)

    def value(self, client_id: str, role: str, library: str, key: str) -> ClientSetting:
        for config_set, release in self._sets:
            named = config_set.settings.get("client.id")
            if config_set.component == role and named is not None and named.value.strip() == client_id:
                setting = config_set.settings.get(key)
                where = f"client.id {client_id} in {config_set.path.rsplit('/', 1)[-1]}"
                if setting is not None:
                    return ClientSetting(None if setting.secret else setting.value.strip(), setting.location, where)
                default = defaults(role, config_set.client, release).get(key)
                return ClientSetting(default, None, f"the default ({where})")
        default = defaults(role, library or "java", self._newest).get(key)
        return ClientSetting(default, None, f"the {library or 'java'} default: no configuration given names client.id "
                                            f"{client_id}")  # fmt: skip


class Beside(NamedTuple):
    """The configuration given beside metrics, as metric checks read it."""

    brokers: object  # broker_settings.BrokerSettings
    clients: ClientSettings
    document: object = None  # the configurations given (a product pack's checks read its own sets)
