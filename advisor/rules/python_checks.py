"""Checks that a JMESPath predicate cannot express, registered by name for rule files.

Each takes the rule context (see rules/context.py) and the config set and returns
None or a dict overriding the rule's message/keys/recommended for this finding.
"""

from __future__ import annotations

import re
from typing import Any

from advisor import catalog
from advisor.analysis.peers import place
from advisor.analysis.values import is_template, value_problem
from advisor.model.document import ConfigSet
from advisor.rules.registry import python_check


def _release_minor(release: str) -> str:
    return ".".join(release.split(".")[:2])


_LISTENER_PREFIX = re.compile(r"^listener\.name\.[^.]+\.(?P<rest>.+)$")


def _listener_key_known(name: str, release: str) -> bool:
    """listener.name.<listener>.[<sasl mechanism>.]<broker key> overrides a broker key per listener."""
    match = _LISTENER_PREFIX.match(name)
    if not match:
        return False
    rest = match["rest"]
    candidates = [rest, rest.split(".", 1)[1] if "." in rest else rest]
    return any(catalog.exists(c, "broker", kafka_version=release) for c in candidates)


@python_check("unknown-key", arguments=("key",))
def unknown_key(values: dict[str, Any], config_set: ConfigSet) -> list[dict[str, Any]]:
    """One finding per key this component/client/version does not know: a removed key
    names its release, a wrong-place key its owner, others get the closest spelling.

    Java brokers, topics and clients also take keys outside Kafka's own ConfigDefs (authorizer,
    metric reporter, serializer and interceptor configs), so for them an unknown key is only
    reported with evidence: removed, owned by another component, or a near spelling of a known
    key. librdkafka and kafka-python refuse every unknown name, so there all are reported."""
    component, client, release = config_set.component, config_set.client, values["kafka_version"]
    outcomes = []
    for key, setting in config_set.settings.items():
        # Clients other than Java are judged by the name as written (snake_case, aliases).
        name = key if client == "java" else setting.spelling
        if catalog.exists(name, component, kafka_version=release, client=client):
            continue
        if component == "broker" and _listener_key_known(name, release):
            continue
        what = f"{setting.spelling} is not a {client} {component} setting in Kafka {_release_minor(release)}"
        removed = [e for e in catalog.history(name, component) if e.event == "removed"] if client == "java" else []
        legacy = catalog.legacy_removal(name, component, release) if client == "java" else None
        owners = [o for o in catalog.owners(name, kafka_version=release) if o != component]
        hint = catalog.suggest(name, component, kafka_version=release, client=client)
        if removed:
            what = f"{setting.spelling} was removed in Kafka {_release_minor(removed[-1].version)}"
            recommended = "remove it"
        elif legacy:
            what = f"{setting.spelling} was removed in Kafka {legacy.removed_in}; {legacy.replacement} replaces it"
            recommended = f"remove it (see {legacy.replacement})"
        elif hint:
            what += f" (did you mean {hint[0]}?)"
            recommended = hint[0]
        elif owners:
            what += f"; it is a {'/'.join(owners)} setting"
            recommended = f"set it on the {owners[0]}"
        elif client == "java":
            continue  # maybe a plugin's key (authorizer, reporter, serializer): no evidence of a mistake
        else:
            recommended = "remove it or correct the spelling"
        outcomes.append({"keys": [key], "message": what, "recommended": recommended})
    return outcomes


@python_check("never-per-config-set")
def never(values: dict[str, Any], config_set: ConfigSet) -> list[dict[str, Any]]:
    """For rules reported outside config-set evaluation (KO001 comes from advisor/suppress.py)."""
    return []


_PARALLEL_GC = re.compile(r"-XX:\+UseParallel(Old)?GC\b")
_XMX = re.compile(r"-Xmx(\d+)([kKmMgGtT]?)\b")
_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}
HEAP_LIMIT = 8 * 1024**3


@python_check("jvm-parallel-gc")
def jvm_parallel_gc(values: dict[str, Any], config_set: ConfigSet) -> list[dict[str, Any]]:
    """-XX:+UseParallelGC in any JVM variable (-XX:ParallelGCThreads alone is not this collector)."""
    for variable, entry in (config_set.facts.get("jvm") or {}).items():
        if _PARALLEL_GC.search(entry["value"]):
            return [{"line": entry["line"], "message": f"{variable} selects the Parallel collector"}]
    return []


@python_check("jvm-heap-too-large")
def jvm_heap_too_large(values: dict[str, Any], config_set: ConfigSet) -> list[dict[str, Any]]:
    for variable, entry in (config_set.facts.get("jvm") or {}).items():
        for number, unit in _XMX.findall(entry["value"]):
            size = int(number) * _UNITS[unit.lower()]
            if size > HEAP_LIMIT:
                gib = size / 1024**3
                return [{"line": entry["line"], "message": f"{variable} gives the broker a {gib:g} GiB heap"}]
    return []


@python_check("spring-unknown-property")
def spring_unknown_property(values: dict[str, Any], config_set: ConfigSet) -> list[dict[str, Any]]:
    """spring.kafka.* names no Spring Boot release defines (the loader records them)."""
    outcomes = []
    for entry in config_set.facts.get("spring_unknown", []):
        hint = f" (did you mean {entry['suggestion']}?)" if entry["suggestion"] else ""
        outcomes.append(
            {
                "line": entry["line"],
                "message": f"{entry['name']} is not a Spring Boot property{hint}",
                "recommended": entry["suggestion"] or "set it through spring.kafka.*.properties",
            }
        )
    return outcomes


@python_check("strimzi-managed-key")
def strimzi_managed_key(values: dict[str, Any], config_set: ConfigSet) -> list[dict[str, Any]]:
    return [
        {"keys": [key], "message": f"{key} is managed by the Strimzi operator, not by spec.kafka.config"}
        for key in config_set.facts.get("strimzi_forbidden", [])
    ]


def _command(config_set: ConfigSet) -> dict[str, Any] | None:
    return config_set.facts.get("command")


@python_check("reassignment-without-throttle")
def reassignment_without_throttle(values: dict[str, Any], config_set: ConfigSet) -> list[dict[str, Any]]:
    command = _command(config_set)
    if command and command["tool"] == "kafka-reassign-partitions":
        flags = command["flags"]
        if "--execute" in flags and "--throttle" not in flags:
            return [{"line": command["line"], "message": "kafka-reassign-partitions --execute without --throttle"}]
    return []


@python_check("throttle-never-removed")
def throttle_never_removed(values: dict[str, Any], config_set: ConfigSet) -> list[dict[str, Any]]:
    command = _command(config_set)
    if command and command["tool"] == "kafka-reassign-partitions":
        flags = command["flags"]
        if "--execute" in flags and "--throttle" in flags and not command.get("verified_later"):
            plan = flags.get("--reassignment-json-file") or "the plan"
            message = f"throttled reassignment of {plan} is never followed by --verify, which removes the throttle"
            return [{"line": command["line"], "message": message}]
    return []


@python_check("removed-zookeeper-flag")
def removed_zookeeper_flag(values: dict[str, Any], config_set: ConfigSet) -> list[dict[str, Any]]:
    command = _command(config_set)
    if command and "--zookeeper" in command["flags"]:
        line = command["flag_lines"].get("--zookeeper", command["line"])
        return [{"line": line, "message": f"{command['tool']} does not accept --zookeeper any more"}]
    return []


@python_check("topic-created-with-rf-one")
def topic_created_with_rf_one(values: dict[str, Any], config_set: ConfigSet) -> list[dict[str, Any]]:
    command = _command(config_set)
    creates = command is not None and command["tool"] == "kafka-topics" and "--create" in command["flags"]
    if creates and str(command["flags"].get("--replication-factor", "")).strip() == "1":
        line = command["flag_lines"].get("--replication-factor", command["line"])
        return [{"line": line, "message": "kafka-topics --create --replication-factor 1: a single copy of the data"}]
    return []


@python_check("reassignment-duplicate-replica")
def reassignment_duplicate_replica(values: dict[str, Any], config_set: ConfigSet) -> list[dict[str, Any]]:
    outcomes = []
    for move in config_set.facts.get("plan", []):
        twice = sorted({r for r in move["replicas"] if move["replicas"].count(r) > 1})
        if twice:
            where = f"{move['topic']}-{move['partition']}"
            outcomes.append(
                {"line": move["line"], "message": f"{where} lists broker {', '.join(twice)} more than once"}
            )
    return outcomes


@python_check("plan-uneven-replica-count")
def plan_uneven_replica_count(values: dict[str, Any], config_set: ConfigSet) -> list[dict[str, Any]]:
    """Moves that give a partition fewer replicas than other partitions of its topic in the same plan."""
    widest: dict[str, int] = {}
    for move in config_set.facts.get("plan", []):
        widest[move["topic"]] = max(widest.get(move["topic"], 0), len(move["replicas"]))
    outcomes = []
    for move in config_set.facts.get("plan", []):
        count = len(move["replicas"])
        if count < widest[move["topic"]]:
            topic = move["topic"]
            message = f"{topic}-{move['partition']} gets {count} replica(s) while other partitions get {widest[topic]}"
            outcomes.append({"line": move["line"], "message": message})
    return outcomes


@python_check("plan-unknown-broker", cross_file=True)
def plan_unknown_broker(values: dict[str, Any], config_set: ConfigSet) -> list[dict[str, Any]]:
    """Moves naming brokers that the plan's cluster, fully described, does not have."""
    known = values["peers"]["broker_ids"]
    if not known:
        return []
    outcomes = []
    for move in config_set.facts.get("plan", []):
        unknown = sorted(set(move["replicas"]) - {str(broker) for broker in known}, key=str)
        if unknown:
            where = f"{move['topic']}-{move['partition']}"
            names = ", ".join(unknown)
            message = f"{where} names broker {names}, not in the cluster (brokers {', '.join(map(str, known))})"
            outcomes.append({"line": move["line"], "message": message})
    return outcomes


@python_check("value-outside-definition", arguments=("key",))
def value_outside_definition(values: dict[str, Any], config_set: ConfigSet) -> list[dict[str, Any]]:
    """One finding per written value that the key's definition (type, range, choices) refuses."""
    component, client, release = config_set.component, config_set.client, values["kafka_version"]
    outcomes = []
    for key, setting in config_set.settings.items():
        name = key if client == "java" else setting.spelling
        facts = catalog.lookup(name, component, kafka_version=release, client=client)
        if facts is None or not facts.applies or facts.type == "PASSWORD":
            continue
        problem = value_problem(setting.value, facts)
        if problem:
            where = f"Kafka {_release_minor(release)}" if client == "java" else f"librdkafka {facts.client_version}"
            # A key that looks secret (password.encoder.iterations) is judged, but its value is not shown.
            written = setting.spelling if setting.secret else f"{setting.spelling}={setting.value.strip()}"
            outcomes.append(
                {
                    "keys": [key],
                    "message": f"{written} {problem} ({where} refuses it)",
                    "recommended": facts.default_text or "a value the definition accepts",
                }
            )
    return outcomes


_SECRET_NAME = re.compile(r"(password|secret)$", re.IGNORECASE)
_JAAS_PASSWORD = re.compile(r"password\s*=\s*(?P<value>\"[^\"]*\"|'[^']*'|[^\s;]+)", re.IGNORECASE)


def _is_reference(value: str) -> bool:
    """${file:...}/${env:...} config providers, ${VAR} templates and {{ }} chart values hold no secret."""
    value = value.strip().strip("\"'")
    return value == "" or is_template(value)


@python_check("plaintext-secret", arguments=("key",))
def plaintext_secret(values: dict[str, Any], config_set: ConfigSet) -> list[dict[str, Any]]:
    """Passwords written into the config itself. The value is never read into the finding."""
    outcomes = []
    for key, setting in config_set.settings.items():
        if not setting.secret:
            continue  # every password-typed key is secret (tests/lint/test_secrets.py): skip the rest cheaply
        if key.endswith("jaas.config"):  # listener.name.<l>.<mechanism>.sasl.jaas.config too
            literal = [m["value"] for m in _JAAS_PASSWORD.finditer(setting.value) if not _is_reference(m["value"])]
            if literal:
                outcomes.append({"keys": [key], "message": f"{setting.spelling} holds a password in clear text"})
            continue
        facts = catalog.lookup(key, config_set.component, kafka_version=values["kafka_version"])
        is_password = (facts is not None and facts.type == "PASSWORD") or bool(_SECRET_NAME.search(key))
        if is_password and not _is_reference(setting.value):
            outcomes.append({"keys": [key], "message": f"{setting.spelling} is written in clear text"})
    return outcomes


_LISTENER = re.compile(r"^\s*(?P<name>[A-Za-z0-9_]+)://(?P<host>\[[^\]]*\]|[^:]*):(?P<port>\d+)\s*$")
_LOOPBACK = re.compile(r"^(localhost|127(\.\d+){3}|\[?::1\]?)$", re.IGNORECASE)


def _protocol_map(text: str | None) -> dict[str, str]:
    pairs = (item.split(":", 1) for item in (text or "").split(",") if ":" in item)
    return {name.strip().upper(): protocol.strip().upper() for name, protocol in pairs}


@python_check("plaintext-listener-beyond-loopback")
def plaintext_listener_beyond_loopback(values: dict[str, Any], config_set: ConfigSet) -> list[dict[str, Any]]:
    """Client-facing PLAINTEXT listeners bound to anything but loopback (controller listeners aside)."""
    effective = values["effective"]
    listeners = values["set"].get("listeners")  # the written value: a partial file says nothing of the default
    if not listeners or is_template(str(listeners)) or "listeners" in config_set.facts.get("strimzi_forbidden", []):
        return []  # Strimzi builds listeners from spec.kafka.listeners, not from config (KB109)
    protocols = _protocol_map(effective.get("listener.security.protocol.map"))
    controllers = {n.strip().upper() for n in str(effective.get("controller.listener.names") or "").split(",")}
    exposed = []
    for item in str(listeners).split(","):
        match = _LISTENER.match(item)
        if not match or match["name"].upper() in controllers:
            continue
        name = match["name"].upper()
        if protocols.get(name, name) == "PLAINTEXT" and not _LOOPBACK.match(match["host"]):
            exposed.append(f"{match['name']}://{match['host'] or '(all interfaces)'}:{match['port']}")
    if not exposed:
        return []
    message = f"PLAINTEXT listener {', '.join(exposed)} accepts unauthenticated, unencrypted clients"
    return [{"keys": ["listeners"], "message": message}]


@python_check("tenants-without-quotas", cross_file=True)
def tenants_without_quotas(values: dict[str, Any], config_set: ConfigSet) -> list[dict[str, Any]]:
    """Reported once, on the ACL command or KafkaUser that lets in the cluster's second principal."""
    peers = values["peers"]
    if peers["second_principal_at"] != place(config_set) or peers["quota_sources"]:
        return []
    return [{"line": config_set.anchor.line}]
