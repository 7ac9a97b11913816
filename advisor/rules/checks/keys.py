"""Checks of every written key against the catalog: unknown, removed or misplaced keys, and values
the software refuses (type, range, choices).

Each check gets the rule context (rules/context.py) and the config set and returns Violations."""

from __future__ import annotations

from advisor import TYPE_CHECKING, catalog, lazy_re
from advisor.analysis.values import accepted_choices, nearest_valid, value_problem
from advisor.model.changes import Change
from advisor.model.document import ConfigSet
from advisor.rules.registry import python_check
from advisor.rules.violation import Violation

if TYPE_CHECKING:
    from typing import Any


def _release_minor(release: str) -> str:
    return ".".join(release.split(".")[:2])


_LISTENER_PREFIX = lazy_re.compile(r"^listener\.name\.[^.]+\.(?P<rest>.+)$")


def _listener_key_known(name: str, release: str) -> bool:
    """listener.name.<listener>.[<sasl mechanism>.]<broker key> overrides a broker key per listener."""
    match = _LISTENER_PREFIX.match(name)
    if not match:
        return False
    rest = match["rest"]
    candidates = [rest, rest.split(".", 1)[1] if "." in rest else rest]
    return any(catalog.exists(c, "broker", kafka_version=release) for c in candidates)


# Key namespaces of vendor brokers and plugins built on Kafka (Confluent Server: license,
# balancer, tiering, metrics reporter, RBAC) that Kafka's ConfigDefs do not hold.
_VENDOR_NAMESPACES = ("confluent.",)


def _library_release(client: str, release: str) -> str:
    """What judged the key: a Kafka release for Java; the library's own version for the others."""
    from advisor.catalog import store

    if client == "librdkafka":
        return f"librdkafka {store.librdkafka().librdkafka_version}"
    if client == "kafka-python":
        return f"kafka-python {store.kafka_python().kafka_python_version}"
    return f"Kafka {_release_minor(release)}"


# A config set with more unknown keys than this is not a client config someone misspelled; a
# key longer than any Kafka key (the longest is under 80 characters) is no misspelling of one.
MAX_COMPARED_KEYS = 200
MAX_COMPARED_KEY_LENGTH = 128


# The Changes this module's checks compute, for docs/fix.md: (check, action, applicability, when).
COMPUTED_FIXES = (("keys:unknown_key", "remove", "safe", "a key Kafka removed: the software ignores it"),)


@python_check(arguments=("key",))
def unknown_key(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """One finding per key this component/client/version does not know: a removed key
    names its release, a wrong-place key its owner, others get the closest spelling.

    Java brokers, topics and clients also take keys outside Kafka's own ConfigDefs (authorizer,
    metric reporter, serializer and interceptor configs), so for them an unknown key is only
    reported with evidence: removed, owned by another component, or a near spelling of a known
    key. librdkafka and kafka-python refuse every unknown name, so there all are reported."""
    component, client, release = config_set.component, config_set.client, values["kafka_version"]
    outcomes: list[Violation] = []
    compared = 0
    for key, setting in config_set.settings.items():
        # Clients other than Java are judged by the name as written (snake_case, aliases).
        name = key if client == "java" else setting.spelling
        if catalog.exists(name, component, kafka_version=release, client=client):
            continue
        shared = [r for r in config_set.facts.get("shared_roles", ()) if r != component]
        if any(catalog.exists(name, r, kafka_version=release, client=client) for r in shared):
            continue  # one config for producer and consumer: the other role's key is in its place
        if component == "broker" and _listener_key_known(name, release):
            continue
        if client == "java" and name.startswith(_VENDOR_NAMESPACES):
            continue  # Confluent Server's own keys: not Kafka's, and no misspelling of Kafka's
        what = f"{setting.spelling} is not a {client} {component} setting in {_library_release(client, release)}"
        removed = [e for e in catalog.history(name, component) if e.event == "removed"] if client == "java" else []
        legacy = catalog.legacy_removal(name, component, release) if client == "java" else None
        early = catalog.early_removal(name, component) if client == "java" and not legacy else None
        owners = [o for o in catalog.owners(name, kafka_version=release) if o != component]
        compared += 1  # near spellings cost ~0.4 ms a key: bounded per config set (docs/reliability.md)
        hint = (
            catalog.suggest(name, component, kafka_version=release, client=client)
            if compared <= MAX_COMPARED_KEYS and len(name) <= MAX_COMPARED_KEY_LENGTH
            else []
        )
        change = None
        if removed or legacy or early:  # the software ignores a removed key: removing it changes nothing that works
            change = Change("remove", key, None, "safe", config_set.path, config_set.name)
        if removed:
            what = f"{setting.spelling} was removed in Kafka {_release_minor(removed[-1].version)}"
            recommended = "remove it"
        elif legacy:
            gone = f" with {legacy.gone_with}" if legacy.gone_with else ""
            what = (
                f"{setting.spelling} was removed in Kafka {legacy.removed_in}{gone}; {legacy.replacement} replaces it"
            )
            recommended = f"remove it (see {legacy.replacement})"
        elif early:
            what = f"{setting.spelling} was removed in Kafka {early.removed_in} (last read by {early.last})"
            recommended = "remove it"
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
        outcomes.append(Violation(keys=(key,), message=what, recommended=recommended, change=change))
    return outcomes


def _accepted_text(facts: catalog.KeyFacts) -> str:
    """What to write when no accepted value is near the written one: the choices, or the
    key's definition (never the default alone: it would silently change what was meant)."""
    if choices := accepted_choices(facts):
        return f"one of {', '.join(choices)}"
    if facts.type in ("BOOLEAN", "boolean"):
        return "true or false"
    kind = "a whole number" if facts.type in ("INT", "LONG", "SHORT", "integer") else "a number"
    low, high = (_bound(b) for b in (facts.min, facts.max))
    if low is not None and high is not None:
        return f"{kind} from {low} to {high}"
    if low is not None or high is not None:
        return f"{kind} of {low} or more" if low is not None else f"{kind} of {high} or less"
    if facts.type in ("INT", "LONG", "SHORT", "DOUBLE", "integer", "float"):
        return kind
    return "a value the definition accepts" + (f" ({facts.valid})" if facts.valid else "")


def _bound(number: float | None) -> str | None:
    return None if number is None else str(int(number)) if float(number).is_integer() else str(number)


def _listener_base(key: str, release: str) -> catalog.KeyFacts | None:
    """A listener's own copy of a broker key (listener.name.L.KEY, or listener.name.L.MECHANISM.KEY for
    SASL): the broker parses it with KEY's definition when it builds the listener, and refuses what
    that definition refuses (tests/integration/test_listener_prefix_oracle.py)."""
    match = _LISTENER_PREFIX.match(key)
    if not match:
        return None
    rest = match["rest"]
    for base in (rest, rest.split(".", 1)[1] if "." in rest else ""):
        facts = catalog.lookup(base, "broker", kafka_version=release) if base else None
        if facts is not None:
            return facts
    return None


@python_check(arguments=("key",))
def value_outside_definition(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """One finding per written value that the key's definition (type, range, choices) refuses."""
    component, client, release = config_set.component, config_set.client, values["kafka_version"]
    outcomes: list[Violation] = []
    for key, setting in config_set.settings.items():
        name = key if client == "java" else setting.spelling
        facts = catalog.lookup(name, component, kafka_version=release, client=client)
        if facts is None and component == "broker" and key.startswith("listener.name."):
            facts = _listener_base(key, release)
        if facts is None or not facts.applies or facts.type == "PASSWORD":
            continue
        problem = value_problem(setting.value, facts)
        if problem:
            where = f"Kafka {_release_minor(release)}" if client == "java" else f"librdkafka {facts.client_version}"
            # A key that looks secret (password.encoder.iterations) is judged, but its value is not shown.
            written = setting.spelling if setting.secret else f"{setting.spelling}={setting.value.strip()}"
            outcomes.append(
                Violation(
                    keys=(key,),
                    message=f"{written} {problem} ({where} refuses it)",
                    recommended=nearest_valid(setting.value, facts) or _accepted_text(facts),
                )
            )
    return outcomes


@python_check(arguments=("key",))
def key_written_twice(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """Each key a loader saw twice in one place (facts["repeated"]), at its second occurrence."""
    found = []
    for entry in config_set.facts.get("repeated") or ():
        lines = f"lines {entry['first']} and {entry['line']}"
        if entry["later_wins"]:
            outcome = f"the one at line {entry['line']} replaces the other without a word"
        else:
            outcome = "YAML forbids a repeated key: one is dropped without a word, or a strict reader refuses the file"
        message = f"{entry['spelling']} is written twice ({lines}): {outcome}"
        found.append(Violation(keys=(entry["key"],), line=entry["line"], message=message,
                               arguments={"key": entry["spelling"]}))  # fmt: skip
    return found
