"""Operations in scripts and plans: kafka-reassign-partitions throttles, removed CLI flags,
replication factors at creation, reassignment plans.

Each check gets the rule context (rules/context.py) and the config set and returns Violations."""

from __future__ import annotations

from advisor import TYPE_CHECKING, catalog, lazy_re
from advisor.model.document import ConfigSet
from advisor.rules.registry import python_check
from advisor.rules.violation import Violation

if TYPE_CHECKING:
    from typing import Any


def _command(config_set: ConfigSet) -> dict[str, Any] | None:
    return config_set.facts.get("command")


@python_check()
def reassignment_without_throttle(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    command = _command(config_set)
    if command and command["tool"] == "kafka-reassign-partitions":
        flags = command["flags"]
        if "--execute" in flags and "--throttle" not in flags:
            message = "kafka-reassign-partitions --execute without --throttle"
            return [Violation(keys=("--execute", "--throttle"), line=command["line"], message=message)]
    return []


@python_check()
def throttle_never_removed(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    command = _command(config_set)
    if command and command["tool"] == "kafka-reassign-partitions":
        flags = command["flags"]
        if "--execute" in flags and "--throttle" in flags and not command.get("verified_later"):
            plan = flags.get("--reassignment-json-file") or "the plan"
            message = f"throttled reassignment of {plan} is never followed by --verify, which removes the throttle"
            return [Violation(keys=("--throttle", "--verify"), line=command["line"], message=message)]
    return []


@python_check()
def removed_zookeeper_flag(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    command = _command(config_set)
    if command and "--zookeeper" in command["flags"]:
        line = command["flag_lines"].get("--zookeeper", command["line"])
        message = f"{command['tool']} does not accept --zookeeper any more"
        return [Violation(keys=("--zookeeper",), line=line, message=message)]
    return []


@python_check()
def topic_created_with_rf_one(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    command = _command(config_set)
    creates = command is not None and command["tool"] == "kafka-topics" and "--create" in command["flags"]
    if creates and str(command["flags"].get("--replication-factor", "")).strip() == "1":
        line = command["flag_lines"].get("--replication-factor", command["line"])
        message = "kafka-topics --create --replication-factor 1: a single copy of the data"
        return [Violation(keys=("--replication-factor",), line=line, message=message)]
    return []


@python_check()
def alter_replication_factor(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """kafka-topics --alter with --replication-factor: every release's tool refuses it."""
    command = _command(config_set)
    if command is None or command["tool"] != "kafka-topics":
        return []
    flags = command["flags"]
    if "--alter" in flags and "--replication-factor" in flags:
        line = command["flag_lines"].get("--replication-factor", command["line"])
        return [Violation(keys=("--alter", "--replication-factor"), line=line)]
    return []


@python_check(arguments=("broker", "led", "partitions", "brokers", "fair"))
def plan_preferred_leader_skew(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """A plan whose first replicas (the preferred leaders) pile onto one broker."""
    plan = config_set.facts.get("plan", [])
    params = values["params"]
    if len(plan) < params["min_partitions"]:
        return []
    brokers = {str(r) for move in plan for r in move["replicas"]}
    firsts = [str(move["replicas"][0]) for move in plan if move["replicas"]]
    if len(brokers) < 2 or not firsts:
        return []
    top = max(sorted(brokers), key=firsts.count)
    led, fair = firsts.count(top), len(firsts) / len(brokers)
    if led <= params["max_share_of_fair"] * fair:
        return []
    first_line = next(move["line"] for move in plan if move["replicas"] and str(move["replicas"][0]) == top)
    arguments = {
        "broker": top,
        "led": str(led),
        "partitions": str(len(firsts)),
        "brokers": str(len(brokers)),
        "fair": f"{fair:.1f}".removesuffix(".0"),
    }
    return [Violation(line=first_line, arguments=arguments)]


@python_check()
def reassignment_duplicate_replica(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    outcomes: list[Violation] = []
    for move in config_set.facts.get("plan", []):
        twice = sorted({r for r in move["replicas"] if move["replicas"].count(r) > 1})
        if twice:
            where = f"{move['topic']}-{move['partition']}"
            outcomes.append(
                Violation(line=move["line"], message=f"{where} lists broker {', '.join(twice)} more than once")
            )
    return outcomes


@python_check()
def plan_uneven_replica_count(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """Moves that give a partition fewer replicas than other partitions of its topic in the same plan."""
    widest: dict[str, int] = {}
    for move in config_set.facts.get("plan", []):
        widest[move["topic"]] = max(widest.get(move["topic"], 0), len(move["replicas"]))
    outcomes: list[Violation] = []
    for move in config_set.facts.get("plan", []):
        count = len(move["replicas"])
        if count < widest[move["topic"]]:
            topic = move["topic"]
            message = f"{topic}-{move['partition']} gets {count} replica(s) while other partitions get {widest[topic]}"
            outcomes.append(Violation(line=move["line"], message=message))
    return outcomes


@python_check(cross_file=True)
def plan_unknown_broker(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """Moves naming brokers that the plan's cluster, fully described, does not have."""
    known = values["peers"]["broker_ids"]
    if not known:
        return []
    outcomes: list[Violation] = []
    for move in config_set.facts.get("plan", []):
        unknown = sorted(set(move["replicas"]) - {str(broker) for broker in known}, key=str)
        if unknown:
            where = f"{move['topic']}-{move['partition']}"
            names = ", ".join(unknown)
            message = f"{where} names broker {names}, not in the cluster (brokers {', '.join(map(str, known))})"
            outcomes.append(Violation(line=move["line"], message=message))
    return outcomes


# Operations that change data or the cluster; Read/Describe for everyone is a choice some make.
_CHANGING = {"all", "write", "create", "delete", "alter", "alterconfigs", "clusteraction", "idempotentwrite"}


@python_check(arguments=("operations", "resource"))
def acl_wildcard_principal(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """kafka-acls --add granting User:* (every principal, ANONYMOUS included) an operation that
    writes or changes something."""
    command = _command(config_set)
    if command is None or command["tool"] != "kafka-acls" or "--add" not in command["flags"]:
        return []
    flags = command["flags"]
    principals = [str(p).strip("'\"") for p in flags.get("--allow-principal", [])]
    if "User:*" not in principals:
        return []
    operations = [str(o) for o in flags.get("--operation", [])]
    changing = [o for o in operations if o.lower() in _CHANGING]
    if not changing:
        return []
    resource = next(
        (f"{flag[2:]} {flags[flag]}" for flag in ("--topic", "--group", "--transactional-id") if flag in flags),
        "the cluster" if "--cluster" in flags else "its resource",
    )
    line = command["flag_lines"].get("--allow-principal", command["line"])
    return [Violation(keys=("--allow-principal",), line=line,
                      arguments={"operations": ", ".join(changing), "resource": resource})]  # fmt: skip


# Kafka's SslConfigs.RECONFIGURABLE_CONFIGS: a broker takes them at run time only with a listener
# prefix (DynamicBrokerConfig.securityConfigsWithoutListenerPrefix); matched by name so the
# later additions (KIP-651's PEM keys) are in.
def _listener_only(key: str) -> bool:
    return key.startswith(("ssl.keystore.", "ssl.truststore.")) or key == "ssl.key.password"


# Listener settings a cluster-wide default may set (DynamicBrokerConfig.ClusterLevelListenerConfigs).
_CLUSTER_LEVEL_LISTENER_KEYS = ("max.connections", "max.connection.creation.rate", "num.network.threads")
_PREFIXED = lazy_re.compile(r"^listener\.name\.[^.]+\.(?P<base>.+)$")

REFUSALS = {
    "read-only": "Cannot update these configs dynamically",
    "listener-only": "These security configs can be dynamically updated only per-listener using the listener prefix",
    "per-broker": "Cannot update these configs at default cluster level, broker id must be specified",
}


def dynamic_refusal(key: str, release: str, cluster_default: bool) -> str | None:
    """Why a running broker of `release` refuses `key` from kafka-configs --alter on brokers
    (the three checks of DynamicBrokerConfig.validateConfigs), or None when it takes it or the
    key is not one of its own (custom keys pass; misspellings are KB101's)."""
    prefixed = _PREFIXED.match(key)
    if prefixed:
        base = prefixed["base"]
        return "per-broker" if cluster_default and base not in _CLUSTER_LEVEL_LISTENER_KEYS else None
    facts = catalog.lookup(key, "broker", kafka_version=release)
    if facts is None:
        return None
    if facts.dynamic in (None, "read-only"):
        return "read-only"
    if _listener_only(key):
        return "listener-only"
    return "per-broker" if cluster_default and facts.dynamic == "per-broker" else None


_WHY = {
    "read-only": "is read only at startup: the broker refuses to change it while running",
    "listener-only": "is taken at run time only per listener (listener.name.LISTENER.{key})",
    "per-broker": "is per broker: a cluster-wide default cannot set it (name the broker: --entity-name ID)",
}


@python_check(arguments=("key", "refusal", "why"))
def broker_config_not_dynamic(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """kafka-configs --alter --add-config on brokers with a key the running broker refuses."""
    command = _command(config_set)
    if command is None or "--alter" not in command["flags"]:
        return []
    entity = command.get("entity")
    if not entity or entity["type"] != "brokers":
        return []
    found = []
    for key, setting in config_set.settings.items():
        refusal = dynamic_refusal(key, values["kafka_version"], entity["default"])
        if refusal is not None:
            arguments = {"key": setting.spelling, "refusal": REFUSALS[refusal], "why": _WHY[refusal].format(key=key)}
            found.append(Violation(keys=(key,), arguments=arguments))
    return found
