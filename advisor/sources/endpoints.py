"""The network addresses a config set serves or reaches: the evidence that joins files into
one cluster (sources/topology.py).

A broker serves its advertised listeners (else its listeners; controller listeners aside),
plus names its loader knows (a compose service name, a Strimzi bootstrap service: the
`endpoints` fact). A client reaches its bootstrap.servers; a CLI invocation its
--bootstrap-server. A KRaft broker or controller names its quorum; a ZooKeeper-mode broker
its zookeeper.connect. Loopback addresses (localhost, 127.0.0.0/8, ::1, all interfaces) are
kept apart: every laptop setup has them, so they only ever support a guess. Short names
without a dot (`kafka:9092`, a compose service, a Kubernetes service of the same namespace)
are local to one compose project or namespace: `kafka-1:9092` in two unrelated repositories'
examples is two clusters.
"""

from __future__ import annotations

from advisor import lazy_re
from advisor.analysis.values import is_template
from advisor.model.document import ConfigSet
from advisor.model.vocabulary import CLIENT_COMPONENTS
from advisor.named_tuple import NamedTuple

_LISTENER = lazy_re.compile(r"^\s*(?:(?P<name>[A-Za-z0-9_]+)://)?(?P<host>\[[^\]]*\]|[^:/,\s]*):(?P<port>\d+)\s*$")
_LOOPBACK = lazy_re.compile(r"^(localhost|127(\.\d+){3}|::1|0\.0\.0\.0|::|host\.docker\.internal|)$")
_K8S_SUFFIX = lazy_re.compile(r"\.svc(\.cluster\.local)?\.?$")


class Endpoint(NamedTuple):
    host: str
    port: str

    @property
    def loopback(self) -> bool:
        return bool(_LOOPBACK.match(self.host))

    @property
    def local(self) -> bool:
        """Meaningful only near where it is defined: loopback, or a name without a domain."""
        return self.loopback or "." not in self.host

    def __str__(self) -> str:
        return f"{self.host or 'localhost'}:{self.port}"


def normalize_host(host: str) -> str:
    """Case, brackets and a trailing dot do not count; a Kubernetes service is its
    `service.namespace` whatever suffix is written (`.svc`, `.svc.cluster.local`)."""
    host = host.strip().strip("[]").lower().rstrip(".")
    return _K8S_SUFFIX.sub("", host)


def parse(text: str, skip: set[str] | None = None) -> list[Endpoint]:
    """`PLAINTEXT://kafka-1:9092,CONTROLLER://:9093` or `a:9092,b:9092` → endpoints; listener
    names in `skip` (controller listeners) and templated values give none."""
    if not text or is_template(text):
        return []
    found = []
    for item in text.split(","):
        match = _LISTENER.match(item)
        if match and not (skip and (match["name"] or "").upper() in skip):
            found.append(Endpoint(normalize_host(match["host"]), match["port"]))
    return found


def written_value(config_set: ConfigSet, key: str) -> str:
    setting = config_set.settings.get(key)
    return setting.value if setting is not None else ""


def served(config_set: ConfigSet) -> list[Endpoint]:
    """Where clients reach this broker."""
    if config_set.component != "broker":
        return []
    names = written_value(config_set, "controller.listener.names").split(",")
    controllers = {n.strip().upper() for n in names if n.strip()}
    written = written_value(config_set, "advertised.listeners") or written_value(config_set, "listeners")
    endpoints = parse(written, controllers)
    known = [Endpoint(normalize_host(e.rpartition(":")[0]), e.rpartition(":")[2])
             for e in config_set.facts.get("endpoints", [])]  # fmt: skip
    return endpoints + known


def reached(config_set: ConfigSet) -> list[Endpoint]:
    """Where this client, or this CLI invocation, connects."""
    command = config_set.facts.get("command")
    if command is not None:
        flag = command["flags"].get("--bootstrap-server")
        return parse(flag) if isinstance(flag, str) else []
    if config_set.component in CLIENT_COMPONENTS:
        return parse(written_value(config_set, "bootstrap.servers"))
    return []


def quorum(config_set: ConfigSet) -> tuple[str, bool, bool] | None:
    """The broker's controller quorum or ZooKeeper ensemble, normalized, whether it is all
    loopback and whether all its hosts are local names; None when it names none."""
    if config_set.component != "broker":
        return None
    for key in ("controller.quorum.voters", "controller.quorum.bootstrap.servers", "zookeeper.connect"):
        text = written_value(config_set, key)
        if text and not is_template(text):
            ensemble, _, chroot = text.strip().partition("/")  # zookeeper.connect may end in a chroot
            parts = sorted(normalize_host(part.strip()) for part in ensemble.split(",") if part.strip())
            hosts = [part.rpartition("@")[2].rpartition(":")[0] or part for part in parts]
            loopback = all(_LOOPBACK.match(host) for host in hosts)
            local = all(_LOOPBACK.match(host) or "." not in host for host in hosts)
            return f"{key}={','.join(parts)}{'/' + chroot if chroot else ''}", loopback, local
    return None
