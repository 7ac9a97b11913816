"""The normalized document: what loaders produce and rules read.

Every input format becomes config sets (one broker, one topic, one client ...)
whose settings use canonical Kafka key names and remember where and how they
were written. The metrics read beside them join it as its observations.
"""

from __future__ import annotations

from functools import cached_property

from advisor import TYPE_CHECKING, lazy_re
from advisor.model.provenance import Location
from advisor.model.record import Value
from advisor.model.topology import Cluster
from advisor.model.vocabulary import Component
from advisor.named_tuple import NamedTuple

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from advisor.model.observations import Observations

COMPONENTS = Component.values()


# What loaders may state about a config set beyond its settings (`ConfigSet.facts`), by name.
FACTS = {
    "broker_count": "brokers of the cluster the set stands for, when the file says (compose, Strimzi, Helm)",
    "image": "compose: the service's image",
    "jvm": "JVM variables/options: {name: {value, line}}",
    "kafka_defaults": "compose: the image builds its config from the variables alone (Kafka's own defaults apply)",
    "rack_aware": "Strimzi: spec.kafka.rack is set",
    "strimzi_forbidden": "Strimzi: keys in spec.kafka.config that the operator manages (and drops: no settings)",
    "strimzi_forbidden_at": "Strimzi: where each of those keys is written",
    "quotas": "quota names the set configures (KafkaUser, kafka-configs, cluster quotas)",
    "principals": "principals the set lets in (kafka-acls --add, KafkaUser)",
    "topic_name": "topic: the Kafka topic the set defines or changes (KafkaTopic spec.topicName or its name, --topic)",
    "partitions": "topic: partition count as declared",
    "replicas": "topic: replication factor as declared",
    "command": "shell: the tool, flags, line and flag lines of one CLI invocation",
    "chart_values": "Helm values: {chart, version (or null), identified (the chart's own), nested, paths, places}",
    "dynamic_update": "shell: kafka-configs alters running brokers: {default: cluster-wide or not, broker: its id}",
    "defaults_unknown": "what the set leaves unwritten is not Kafka's default (MSK, cp-ansible, a dynamic update)",
    "plan": "reassignment plan: its moves (topic, partition, replicas, line)",
    "spring": "Spring Boot: the set comes from spring.kafka.*",
    "spring_unknown": "Spring Boot: spring.kafka.* names no Boot release defines",
    "transaction_id_prefix": "Spring Boot: spring.kafka.producer.transaction-id-prefix is set",
    "profile": "a file's `# kafka-advisor: profile=` directive",
    "shared_roles": "a client config whose keys name no role, linted as each of these roles",
    "endpoints": "host:port names the loader knows a broker by (a Strimzi bootstrap service, a compose service)",
    "repeated": "keys written twice in one place: [{key, spelling, first, line, later_wins}] (properties, CR config)",
}


class Problem(NamedTuple):
    """An input the run could not use, as a record (never a string parsed back).

    kind: input (unreadable or malformed), missing, unsupported (no reader for it),
    config (the project config), baseline, internal (a bug, reported with the file that
    triggered it)."""

    path: str
    line: int | None
    message: str
    kind: str = "input"
    kafka: bool = False  # a file passed over that mentions Kafka: with --unread=error, an error

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}" if self.line else f"{self.path}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "line": self.line, "message": self.message, "kind": self.kind}


class LoadError(Exception):
    """Raised where input cannot be read; becomes a `Problem` (`path:line: message`, exit 2)."""

    def __init__(self, path: str, line: int | None, message: str, kind: str = "input") -> None:
        self.problem = Problem(path, line, message, kind)
        super().__init__(str(self.problem))
        self.path, self.line, self.message = path, line, message


class Setting(NamedTuple):
    key: str  # canonical Kafka name, e.g. min.insync.replicas
    value: str  # the value Kafka would receive, as a string
    spelling: str  # the key as written, e.g. KAFKA_CFG_MIN_INSYNC_REPLICAS
    location: Location  # the key as written: its span, where the reader knows it
    secret: bool = False  # the value must never be shown
    value_location: Location | None = None  # the value as written (a writer replaces exactly this)
    raw: str | None = None  # the value's text as written (quotes, escapes, units, continuations)


class ConfigSet(Value):
    """One configured thing: a broker, a topic, or a client."""

    __slots__ = ("anchor", "client", "cluster", "component", "facts", "kafka_version", "kafka_version_from", "name",
                 "path", "settings")  # fmt: skip

    def __init__(
        self,
        component: str,
        path: str,
        anchor: Location,  # where findings about absent keys point
        name: str = "",  # service, topic or file name, for messages
        client: str = "java",  # java | librdkafka | kafka-python (broker/topic: java)
        settings: dict[str, Setting] | None = None,
        kafka_version: str | None = None,  # a hint found in the input itself
        kafka_version_from: str | None = None,  # where it was found, for findings to say
        cluster: str | None = None,  # brokers of one cluster share this id
        facts: dict[str, Any] | None = None,  # loader extras (replicas, JVM options, ...)
    ) -> None:
        self.component = component
        self.path = path
        self.anchor = anchor
        self.name = name
        self.client = client
        self.settings: dict[str, Setting] = {} if settings is None else settings
        self.kafka_version = kafka_version
        self.kafka_version_from = kafka_version_from
        self.cluster = cluster
        self.facts: dict[str, Any] = {} if facts is None else facts

    def add(self, setting: Setting) -> None:
        self.settings[setting.key] = setting  # the last occurrence wins, as in Java Properties

    def runs_broker_role(self) -> bool:
        """A broker config that serves clients (not a KRaft controller-only node)."""
        roles = self.settings.get("process.roles")
        return roles is None or "broker" in {r.strip() for r in roles.value.split(",")}


class Directive(NamedTuple):
    """A `# kafka-advisor: ...` comment line."""

    line: int
    verb: str  # disable-next-line | disable | enable | disable-file | profile | kafka-version
    argument: str
    reason: str = ""


class SourceFile(Value):
    __slots__ = ("__dict__", "cluster_parts", "consulted", "directives", "format", "includes", "notes", "path", "text")

    def __init__(
        self,
        path: str,
        text: str,  # as read (a writer's edits are offsets into it)
        format: str,  # properties | compose | ...
        directives: list[Directive] | None = None,
        # What a file says about a cluster beyond its config sets (Strimzi node pools), for the
        # loader's `link` step, which joins such parts across files once all are loaded.
        cluster_parts: list[dict[str, Any]] | None = None,
        # Files read as part of this one (a compose file's `.env` and env_file:s), by path: their
        # config sets of their own are dropped, and findings in them show their lines.
        includes: dict[str, str] | None = None,
        notes: list[Problem] | None = None,  # not read, not fatal: a missing env_file
        # Files read for what they say of this one, not as part of it (the .tf whose helm_release
        # sets values over a values file), by path: their secrets are hidden in every output too.
        consulted: dict[str, str] | None = None,
    ) -> None:
        self.path = path
        self.text = text
        self.format = format
        self.directives: list[Directive] = [] if directives is None else directives
        self.cluster_parts: list[dict[str, Any]] = [] if cluster_parts is None else cluster_parts
        self.includes: dict[str, str] = {} if includes is None else includes
        self.notes: list[Problem] = [] if notes is None else notes
        self.consulted: dict[str, str] = {} if consulted is None else consulted

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        """Its fields without what is cached: a forked reader's file crosses to the parent as its
        text alone, not also its text again as lines (a large chart's values: twice the bytes)."""
        return None, {name: getattr(self, name) for name in self._fields}

    @cached_property
    def lines(self) -> list[str]:
        """Its lines, broken where Java and the spans break them (\\n, \\r\\n, \\r)."""
        return split_lines(self.text)

    def some_lines(self, wanted: Iterable[int]) -> dict[int, str]:
        """The lines numbered `wanted` (1-based, as `lines` numbers them) that the file has, without
        keeping its lines: a report shows a few lines of each of thousands of files, and every
        file's lines held at once took more memory than the files' texts."""
        numbers = [n for n in wanted if n > 0]
        if "lines" in self.__dict__:  # split already
            lines = self.lines
            return {n: lines[n - 1] for n in numbers if n <= len(lines)}
        if not numbers:
            return {}
        parts = split_lines(self.text, max(numbers))  # split no further than the last line wanted
        return {n: parts[n - 1] for n in numbers if n <= len(parts)}


_LINE_BREAK = lazy_re.compile(r"\r\n|\n|\r")


def split_lines(text: str, most: int = 0) -> list[str]:
    """A text's lines, broken where Java and the spans break them (\\n, \\r\\n, \\r); with
    `most`, split no more than that many times (the rest is the last part)."""
    text = text.removesuffix("\n").removesuffix("\r")
    if not text:
        return []
    return text.split("\n", most or -1) if "\r" not in text else _LINE_BREAK.split(text, most)


class Document(Value):
    __slots__ = ("_clusters_of", "_indexed", "clusters", "config_sets", "errors", "files", "notes", "observations",
                 "options")  # fmt: skip

    def __init__(
        self,
        files: list[SourceFile] | None = None,
        config_sets: list[ConfigSet] | None = None,
        observations: Observations | None = None,  # the metrics read beside (None: the run named none)
        errors: list[Problem] | None = None,
        notes: list[Problem] | None = None,  # what was not read and why, not errors
        clusters: dict[str, Cluster] | None = None,  # by id, once linked (sources/topology.py)
        options: Any = None,  # the sources.LoadOptions it was read with: a writer's edit is read back alike
    ) -> None:
        self.files: list[SourceFile] = [] if files is None else files
        self.config_sets: list[ConfigSet] = [] if config_sets is None else config_sets
        self.observations = observations
        self.errors: list[Problem] = [] if errors is None else errors
        self.notes: list[Problem] = [] if notes is None else notes
        self.clusters: dict[str, Cluster] = {} if clusters is None else clusters
        self.options = options
        self._clusters_of: dict[tuple[str, str], list[ConfigSet]] | None = None
        self._indexed = 0

    def reindex(self) -> None:
        """Forget the cluster index (config sets were relinked)."""
        self._clusters_of = None

    def cluster_brokers(self, cluster: str | None) -> list[ConfigSet]:
        return self._cluster_members("broker", cluster)

    def cluster_topics(self, cluster: str | None) -> list[ConfigSet]:
        return self._cluster_members("topic", cluster)

    def _cluster_members(self, component: str, cluster: str | None) -> list[ConfigSet]:
        if cluster is None:
            return []
        # Indexed once per document: scanning every set for every broker would be quadratic.
        if self._clusters_of is None or self._indexed != len(self.config_sets):
            index: dict[tuple[str, str], list[ConfigSet]] = {}
            for config_set in self.config_sets:
                if config_set.cluster is not None:
                    index.setdefault((config_set.component, config_set.cluster), []).append(config_set)
            self._clusters_of, self._indexed = index, len(self.config_sets)
        return self._clusters_of.get((component, cluster), [])
