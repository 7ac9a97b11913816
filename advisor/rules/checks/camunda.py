"""The Camunda pack's broker checks (ZB rules): each setting judged as the judging release runs it,
whichever generation's key wrote it (analysis/camunda.py), against the facts the catalog read
from Camunda's configuration classes (catalog/camunda.py).

Each check gets the pack's rule context (release, effective values by unified key) and the set."""

from __future__ import annotations

import difflib
from pathlib import Path

from advisor import TYPE_CHECKING, lazy_re
from advisor.analysis import camunda as view
from advisor.catalog import camunda as catalog
from advisor.rules.registry import python_check
from advisor.rules.violation import NotJudged, Violation

if TYPE_CHECKING:
    from typing import Any

    from advisor.model.document import ConfigSet, Setting

REQUEST = "camunda.processing.flow-control.request."
WRITE = "camunda.processing.flow-control.write."
FREE_SPACE = "camunda.data.primary-storage.disk.free-space."
MONITORING = "camunda.data.primary-storage.disk.monitoring-enabled"


def _legacy_settings(config_set: ConfigSet, release: str) -> list[tuple[Setting, catalog.Facts]]:
    """The written keys the release reads only as a unified key's legacy spelling, with that key's facts."""
    found = []
    for setting in config_set.settings.values():
        reader = catalog.legacy_reader(setting.key, release)
        if reader is not None and catalog.uniform(reader.key) != catalog.uniform(setting.key):
            found.append((setting, reader))
    return found


def _unified_written(config_set: ConfigSet, key: str) -> Setting | None:
    wanted = catalog.uniform(key)
    return next((s for s in config_set.settings.values() if catalog.uniform(s.key) == wanted), None)


def _shown(setting: Setting) -> str:
    return "(secret)" if setting.secret else setting.value


def _named(setting: Setting) -> str:
    """A key as the finding names it: an environment variable also by the key it sets."""
    return f"{setting.spelling} ({setting.key})" if setting.spelling.isupper() else setting.key


@python_check(("key", "value", "unified", "expected"))
def legacy_refused(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """A legacy key the unified configuration accepts only when it equals the unified key's value
    (SUPPORTED_ONLY_IF_VALUES_MATCH), with another value: the broker refuses to start."""
    release = values["release"]
    violations = []
    for setting, reader in _legacy_settings(config_set, release):
        if reader.legacy_mode not in ("SUPPORTED_ONLY_IF_VALUES_MATCH", "NOT_SUPPORTED"):
            continue
        unified = _unified_written(config_set, reader.key)
        expected = unified.value if unified is not None else reader.default
        if reader.legacy_mode == "SUPPORTED_ONLY_IF_VALUES_MATCH":
            same = view.same_value(reader.type, setting.value, expected)
            if same is None or same:
                continue  # equal: accepted with a warning (ZB003); not a value of the type: not judged here
        elif unified is not None:
            continue  # NOT_SUPPORTED with the new key written: the legacy one is ignored with a warning
        where = "written" if unified is not None else "default"
        violations.append(Violation(
            keys=(setting.key, reader.key),
            arguments={"key": setting.key, "value": _shown(setting), "unified": reader.key,
                       "expected": f"{expected} ({where})" if expected is not None else "(none)"},
        ))  # fmt: skip
    return violations


@python_check(("key", "value", "unified", "unified_value"))
def legacy_shadowed(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """A legacy key read in SUPPORTED mode beside its unified key with another value: the unified
    key wins and the legacy value is ignored (a warning in the broker's log, nothing more)."""
    violations = []
    for setting, reader in _legacy_settings(config_set, values["release"]):
        if reader.legacy_mode != "SUPPORTED":
            continue
        unified = _unified_written(config_set, reader.key)
        if unified is None or view.same_value(reader.type, setting.value, unified.value) is not False:
            continue
        violations.append(Violation(
            keys=(setting.key, unified.key),
            arguments={"key": setting.key, "value": _shown(setting), "unified": unified.key,
                       "unified_value": _shown(unified)},
        ))  # fmt: skip
    return violations


@python_check(("key", "unified", "how"))
def legacy_key(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """A legacy key the release still reads (or accepts because it equals the unified value),
    without its unified key: it works, and the broker logs that it should be moved."""
    violations = []
    for setting, reader in _legacy_settings(config_set, values["release"]):
        if _unified_written(config_set, reader.key) is not None:
            continue  # both written: ZB001 or ZB002 judge the pair
        if reader.legacy_mode == "SUPPORTED":
            how = "read as its value"
        elif reader.legacy_mode == "SUPPORTED_ONLY_IF_VALUES_MATCH" and view.same_value(
            reader.type, setting.value, reader.default
        ):
            how = f"accepted only because it equals the default {reader.default}"
        else:
            continue
        violations.append(Violation(keys=(setting.key,), arguments={"key": setting.key, "unified": reader.key,
                                                                    "how": how}))  # fmt: skip
    return violations


@python_check(("key", "release", "why"))
def key_not_read(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """A flow-control or disk key the release does not define (Spring ignores it): a typo, or a key
    of another generation (zeebe.broker.flowControl.* before 8.6)."""
    release = values["release"]
    known = catalog.keys_at(release)
    spellings = {catalog.uniform(k): k for k in known}
    # a list or map of the user's own entries (the gateway's interceptors): any key beneath it is bound
    open_ended = tuple(catalog.uniform(k) + "." for k, facts in known.items() if facts.type in ("list", "map"))
    violations = []
    for setting in config_set.settings.values():
        uniform = catalog.uniform(setting.key)
        if not catalog.judged_subtree(setting.key) or uniform in spellings or uniform.startswith(open_ended):
            continue
        if view.read_by(setting.key, release):
            continue
        if catalog.legacy_reader(setting.key, release) is not None:
            continue
        elsewhere = catalog.defined_in(setting.key)
        later = catalog.unified_key_of(setting.key)
        if elsewhere:
            why = f"it is a key of Camunda {', '.join(elsewhere)}"
        elif later is not None:
            why = f"a later release's key: Camunda {catalog.releases()[-1]} reads it as the legacy spelling of {later}"
        else:
            close = difflib.get_close_matches(catalog.uniform(setting.key), list(spellings), n=1, cutoff=0.85)
            why = f"did you mean {spellings[close[0]]}?" if close else "no release the catalog read defines it"
        violations.append(Violation(keys=(setting.key,), arguments={"key": _named(setting), "release": release,
                                                                    "why": why}))  # fmt: skip
    return violations


@python_check(("ignored",))
def backpressure_ignored(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """8.6–8.8: a written zeebe.broker.flowControl.request replaces zeebe.broker.backpressure whole."""
    written = [catalog.uniform(s.key) for s in config_set.settings.values()]
    if not any(k.startswith("zeebe.broker.flowcontrol.request.") for k in written):
        return []
    ignored = [
        s.key for s in config_set.settings.values() if catalog.uniform(s.key).startswith("zeebe.broker.backpressure.")
    ]
    if not ignored:
        return []
    return [Violation(keys=tuple(ignored), arguments={"ignored": ", ".join(ignored)})]


def _effective(values: dict[str, Any], key: str) -> str | None:
    value = values["effective"].get(key)
    return None if value is None else str(value)


def _written_at(config_set: ConfigSet, concept: str) -> tuple[str, ...]:
    """The keys as written that set a concept (any generation's spelling)."""
    return tuple(s.key for s in view.written_concepts(config_set).get(concept, []))


@python_check(("processing", "replication"))
def free_space_order(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """Disk monitoring on, the processing free-space watermark not above the replication one: the
    broker refuses to start (SystemContext.validateDataConfig)."""
    if (_effective(values, MONITORING) or "true").lower() == "false":
        return []
    processing, replication = (
        _effective(values, FREE_SPACE + "processing"),
        _effective(values, FREE_SPACE + "replication"),
    )
    processing_bytes, replication_bytes = view.size_bytes(processing), view.size_bytes(replication)
    if processing_bytes is None or replication_bytes is None or processing_bytes > replication_bytes:
        return []
    keys = _written_at(config_set, FREE_SPACE + "processing") + _written_at(config_set, FREE_SPACE + "replication")
    if not keys:
        return []
    return [Violation(keys=keys, arguments={"processing": str(processing), "replication": str(replication)})]


@python_check(("algorithm",))
def fixed_limit(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    algorithm = _effective(values, REQUEST + "algorithm")
    keys = _written_at(config_set, REQUEST + "algorithm")
    if not keys or algorithm is None or algorithm.strip().lower() != "fixed":
        return []
    return [Violation(keys=keys, arguments={"algorithm": algorithm})]


@python_check(("timeout", "default"))
def aimd_timeout(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    concept = REQUEST + "aimd.request-timeout"
    keys = _written_at(config_set, concept)
    algorithm = (_effective(values, REQUEST + "algorithm") or "aimd").strip().lower()
    if not keys or algorithm != "aimd":
        return []
    written, default = _effective(values, concept), view.default(concept, values["release"])
    written_ms, default_ms = view.duration_ms(written), view.duration_ms(default)
    if written_ms is None or not default_ms or written_ms < values["params"]["factor"] * default_ms:
        return []
    return [Violation(keys=keys, arguments={"timeout": str(written), "default": str(default)})]


def _on(values: dict[str, Any], key: str) -> bool:
    return (_effective(values, key) or "").strip().lower() == "true"


@python_check(("limit",))
def write_limit_zero(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """The write limit enabled without a positive limit: RateLimit refuses `limit must be greater than 0`."""
    if not _on(values, WRITE + "enabled"):
        return []
    limit = _effective(values, WRITE + "limit")
    try:
        positive = limit is not None and int(limit.strip()) > 0
    except ValueError:
        return []
    if positive:
        return []
    keys = _written_at(config_set, WRITE + "enabled") + _written_at(config_set, WRITE + "limit")
    return [Violation(keys=keys, arguments={"limit": str(limit)})]


@python_check()
def throttle_without_limit(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    keys = _written_at(config_set, WRITE + "throttle.enabled")
    if not keys or not _on(values, WRITE + "throttle.enabled") or _on(values, WRITE + "enabled"):
        return []
    return [Violation(keys=keys + _written_at(config_set, WRITE + "enabled"))]


@python_check(("limit",))
def limit_without_throttle(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    keys = _written_at(config_set, WRITE + "enabled")
    if not keys or not _on(values, WRITE + "enabled") or _on(values, WRITE + "throttle.enabled"):
        return []
    limit = _effective(values, WRITE + "limit")
    if _number(limit or "") is None or _number(limit or "") <= 0:  # type: ignore[operator]
        return []  # no rate at all: ZB009 says the broker refuses it
    return [Violation(keys=keys, arguments={"limit": str(limit)})]


@python_check(("key", "value", "condition"))
def refused_value(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """A value the setter refuses at the judging release (checkArgument / checkPositive in the source)."""
    release = values["release"]
    violations = []
    for setting in config_set.settings.values():
        facts = catalog.lookup(setting.key, release)
        if facts is None or not facts.refuses_unless or setting.secret:
            continue
        number = view.duration_ms(setting.value) if facts.type == "Duration" else _number(setting.value)
        if number is None:
            continue
        failed = [c for c in facts.refuses_unless if not _holds(number, c)]
        if failed:
            condition = " and ".join(facts.refuses_unless)
            arguments = {"key": setting.key, "value": setting.value, "condition": condition}
            violations.append(Violation(keys=(setting.key,), arguments=arguments))
    return violations


def _number(value: str) -> float | None:
    try:
        return float(value.strip())
    except ValueError:
        return None


def _holds(number: float, condition: str) -> bool:
    operator, _, bound = condition.partition(" ")
    limit = float(bound)
    return {"<": number < limit, "<=": number <= limit, ">": number > limit, ">=": number >= limit}[operator]


@python_check()
def monitoring_off(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    keys = _written_at(config_set, MONITORING)
    if not keys or (_effective(values, MONITORING) or "true").strip().lower() != "false":
        return []
    return [Violation(keys=keys)]


# --- the clients (ZC rules): the SDKs' variables and the Spring starter's properties ---------------

PROFILE = "CAMUNDA_SDK_BACKPRESSURE_PROFILE"
ATTEMPTS = "CAMUNDA_SDK_HTTP_RETRY_MAX_ATTEMPTS"
BASE_DELAY, MAX_DELAY = "CAMUNDA_SDK_HTTP_RETRY_BASE_DELAY_MS", "CAMUNDA_SDK_HTTP_RETRY_MAX_DELAY_MS"


@python_check(("profile",))
def sdk_observe_only(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    setting = config_set.settings.get(PROFILE)
    if setting is None or setting.value.strip().upper() != "LEGACY":
        return []
    return [Violation(keys=(PROFILE,), arguments={"profile": setting.value.strip()})]


@python_check(("attempts",))
def sdk_no_retry(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    setting = config_set.settings.get(ATTEMPTS)
    number = _number(setting.value) if setting is not None else None
    if number is None or number > 1:
        return []
    return [Violation(keys=(ATTEMPTS,), arguments={"attempts": setting.value.strip()})]  # type: ignore[union-attr]


@python_check(("key", "value"))
def sdk_no_backoff(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """Retries with a base or maximum delay of 0: every retry is immediate (full jitter of 0)."""
    attempts = _number(str(values["effective"].get(ATTEMPTS) or ""))
    if attempts is not None and attempts <= 1:
        return []  # no retry at all: ZC002
    violations = []
    for key in (BASE_DELAY, MAX_DELAY):
        setting = config_set.settings.get(key)
        number = _number(setting.value) if setting is not None else None
        if number is not None and number <= 0:
            violations.append(Violation(keys=(key,), arguments={"key": key, "value": setting.value.strip()}))  # type: ignore[union-attr]
    return violations


@python_check(("key", "replacement", "how"))
def client_legacy_key(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """A legacy or deprecated Spring client property: the starter maps it (or no longer reads it).
    Where the set's release is stated and older than the camunda.client starter (a Connectors image
    of 8.7), the old names are that release's own: nothing to move."""
    if _before_starter(config_set.kafka_version):
        return []
    violations = []
    for setting in config_set.settings.values():
        if not setting.key.startswith(("camunda.client.", "zeebe.client.")) and not setting.spelling.isupper():
            continue
        found = catalog.spring_replacement(setting.key)
        if found is None:
            continue
        replacement, level = found
        how = {"mapped": "the starter reads it as", "error": "the starter no longer reads it: use"}.get(
            level, "deprecated in favour of"
        )
        violations.append(Violation(keys=(setting.key,), arguments={"key": _named(setting), "replacement": replacement,
                                                                    "how": how}))  # fmt: skip
    return violations


STARTER_FIRST = (8, 8)  # the first release of io.camunda:camunda-spring-boot-starter (camunda.client.*)


def _before_starter(version: str | None) -> bool:
    try:
        return version is not None and catalog.parse(version)[:2] < STARTER_FIRST
    except catalog.UnknownReleaseError:
        return False


# The Camunda Spring Boot starter's job worker (camunda.client.worker.*, the 8.8 starter's names).
WORKER = "camunda.client.worker."
AUTO_COMPLETE, MAX_RETRIES = WORKER + "defaults.auto-complete", WORKER + "defaults.max-retries"
WORKER_TIMEOUT, PREFER_REST = WORKER + "defaults.timeout", "camunda.client.prefer-rest-over-grpc"
# What a worker runs with where nothing sets it: @JobWorker's own defaults (autoComplete true,
# maxRetries -1), which the starter's property customizer keeps (tests/integration/test_camunda_starter_oracle.py).
ANNOTATION_AUTO_COMPLETE, ANNOTATION_MAX_RETRIES = "true", "-1"


def _client_setting(config_set: ConfigSet, key: str) -> Setting | None:
    """The setting that gives a starter property: its own name first, else a legacy name the
    starter maps onto it."""
    current = _unified_written(config_set, key)
    if current is not None:
        return current
    settings = config_set.settings.values()
    return next((s for s in settings if (catalog.spring_replacement(s.key) or ("",))[0] == key), None)


def _overrides(config_set: ConfigSet) -> dict[str, dict[str, Setting]]:
    """Each worker type's own settings (camunda.client.worker.override.<type>.<property>), by the
    property's uniform name."""
    found: dict[str, dict[str, Setting]] = {}
    prefix = catalog.uniform(WORKER + "override.")
    for setting in config_set.settings.values():
        parts = setting.key.split(".")
        if catalog.uniform(setting.key).startswith(prefix) and len(parts) > 5:
            found.setdefault(".".join(parts[4:-1]), {})[catalog.uniform(parts[-1])] = setting
    return found


@python_check(("what", "timeout"))
def completion_not_retried(values: dict[str, Any], config_set: ConfigSet) -> list[Violation] | NotJudged:
    """Job workers auto-complete and nothing sends a refused completion again: max-retries unset or
    at most 1 (it counts attempts), or any max-retries with commands over REST, which the starter's
    command handler does not retry. Judged where the 8.8 starter's worker properties are written:
    the defaults, and each worker type whose override sets auto-complete or max-retries."""
    if _before_starter(config_set.kafka_version):
        return NotJudged(f"Camunda {config_set.kafka_version} ({config_set.kafka_version_from}) runs a Spring starter "
                         "older than 8.8's, whose job workers were not measured")  # fmt: skip
    worker = [s for s in config_set.settings.values() if catalog.uniform(s.key).startswith(catalog.uniform(WORKER))]
    if not worker:
        return _worker_unknown(config_set)
    rest = _client_setting(config_set, PREFER_REST)
    over_rest = (rest.value if rest else str(values["defaults"].get(PREFER_REST, "true"))).strip().lower() == "true"
    transport = f"{_named(rest)} is {rest.value.strip()}" if rest else f"{PREFER_REST} is true, the default"
    defaults = {"autocomplete": _client_setting(config_set, AUTO_COMPLETE),
                "maxretries": _client_setting(config_set, MAX_RETRIES),
                "timeout": _client_setting(config_set, WORKER_TIMEOUT)}  # fmt: skip
    judged = [("", defaults, worker[0].key)]
    for kind, own in _overrides(config_set).items():
        if "autocomplete" in own or "maxretries" in own:
            judged.append((f"worker {kind}: ", {**defaults, **own}, next(iter(own.values())).key))
    violations, undecided = [], []
    release = _grpc_unretried(config_set)
    for who, settings, place in judged:
        what = _not_retried(settings["autocomplete"], settings["maxretries"], over_rest, transport, release)
        if what is None:
            auto = settings["autocomplete"]
            if not over_rest and (auto.value if auto else ANNOTATION_AUTO_COMPLETE).strip().lower() == "true":
                undecided.append(who.removesuffix(": ") or "the defaults")  # gRPC with attempts to spare
            continue
        timeout = settings["timeout"]
        shown = timeout.value.strip() if timeout else f"{values['defaults'].get(WORKER_TIMEOUT, 'PT5M')}, the default"
        # The place: the retries or auto-complete as written, else the first worker setting (the defaults apply there).
        keys = tuple(s.key for s in (settings["maxretries"], settings["autocomplete"]) if s is not None) or (place,)
        violations.append(Violation(keys=keys, arguments={"what": who + what, "timeout": shown}))
    if undecided and not violations:
        stated = config_set.kafka_version_from if config_set.kafka_version else "no starter release stated"
        return NotJudged(GRPC_UNDECIDED.format(who=", ".join(undecided), stated=stated))
    return violations


GRPC_UNDECIDED = (
    "{who}: auto-complete over gRPC with max-retries above 1 — whether a refused completion is sent again "
    "depends on the starter's release (8.8.0 to 8.8.14, measured, send it once; later sources retry), "
    "and it is not known here ({stated})"
)


SPRING_CLIENT = tuple(catalog.uniform(p) for p in ("camunda.client.", "zeebe.client."))
WORKERS_UNKNOWN = (
    "it writes no {worker}* setting, so whether the application runs job workers, and with which starter's "
    "defaults, is not in the file"
)
LEGACY_WORKERS = (
    "its worker settings are in the legacy names ({shown}), which the 8.8 starter maps onto {worker}* "
    "but older starters read with their own defaults; the starter's release is not in the file"
)


def _worker_unknown(config_set: ConfigSet) -> list[Violation] | NotJudged:
    """A Spring client file with no worker setting in the 8.8 starter's names is said as not judged
    (a file of only the SDK's variables, or none of a client, is no business of this rule)."""
    spring = [s for s in config_set.settings.values() if catalog.uniform(s.key).startswith(SPRING_CLIENT)]
    if not spring:
        return []
    legacy = [s for s in spring if (catalog.spring_replacement(s.key) or ("",))[0].startswith(WORKER)]
    if legacy:
        return NotJudged(LEGACY_WORKERS.format(shown=_named(legacy[0]), worker=WORKER))
    return NotJudged(WORKERS_UNKNOWN.format(worker=WORKER))


# Starter releases measured sending a refused completion once over gRPC whatever max-retries says
# (their handler throws on every retriable code): tests/integration/test_camunda_starter_oracle.py.
GRPC_UNRETRIED = ((8, 8, 0), (8, 8, 14))


def _grpc_unretried(config_set: ConfigSet) -> str | None:
    """The starter release, where it is stated to the patch and lies in the measured range."""
    version = config_set.kafka_version
    if version is None or version.count(".") < 2:
        return None  # a minor line alone (8.8) says nothing of the patch that decides
    try:
        parsed = catalog.parse(version)
    except catalog.UnknownReleaseError:
        return None
    low, high = GRPC_UNRETRIED
    return version if low <= parsed <= high else None


def _not_retried(auto: Setting | None, retries: Setting | None, over_rest: bool, transport: str,
                 grpc_unretried: str | None = None) -> str | None:  # fmt: skip
    """Why one worker's refused completion is not sent again, or None: it is (or it completes itself)."""
    if (auto.value if auto else ANNOTATION_AUTO_COMPLETE).strip().lower() != "true":
        return None  # the handler completes its jobs itself
    attempts = _number(retries.value) if retries is not None else float(ANNOTATION_MAX_RETRIES)
    if attempts is not None and attempts <= 1:
        written = f"is {retries.value.strip()}" if retries else f"is unset ({ANNOTATION_MAX_RETRIES})"
        return f"auto-complete is on and {_named(retries) if retries else MAX_RETRIES} {written}"
    if over_rest and retries is not None:
        return (f"{_named(retries)} is {retries.value.strip()}, but the starter retries only gRPC errors and "
                f"job commands go over REST ({transport})")  # fmt: skip
    if grpc_unretried is not None and retries is not None:
        return (
            f"{_named(retries)} is {retries.value.strip()}, but starter {grpc_unretried} sends a refused "
            "completion over gRPC once whatever it says (its handler gives up on every retriable code)"
        )
    return None  # gRPC with attempts to spare: retried where the starter's handler works (see the rule)


# --- alerting rules (what the run's Prometheus rules say of the broker) ------------------------------

_REFUSALS = lazy_re.compile(r"zeebe_dropped_request_count_total|RESOURCE_EXHAUSTED|(?:status|code)\s*=~?\s*\"5?03\"")
_DENOMINATOR = lazy_re.compile(r"zeebe_received_request_count_total|\s/\s")
_ANY_AT_ALL = lazy_re.compile(r"(?:>\s*0(?:\.0+)?|!=\s*0(?:\.0+)?|>=\s*1(?:\.0+)?)\s*\)*\s*$")
EXPORT_LAG_ALERT = (
    "max by (partition) (zeebe_log_appender_last_committed_position) - min by (partition) "
    "(zeebe_exporter_last_exported_position) > 100000, for 10m"
)


@python_check(("alert", "expr"))
def alert_on_any_refusal(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """An alert that fires on any refusal at all: a count or rate of refusals compared with 0, no
    share of the commands received."""
    violations = []
    for setting in config_set.settings.values():
        expr = setting.value
        if _REFUSALS.search(expr) and not _DENOMINATOR.search(expr) and _ANY_AT_ALL.search(expr):
            name = setting.key.removeprefix("alert.")
            violations.append(Violation(keys=(setting.key,), arguments={"alert": name, "expr": expr}))
    return violations


@python_check(("alerts", "query"))
def no_export_lag_alert(values: dict[str, Any], config_set: ConfigSet) -> list[Violation]:
    """Write throttling off (nothing slows writes to the exporters' pace) and no alerting rule given
    that measures export lag: the backlog grows unseen until the disk watermark refuses every command."""
    if _on(values, WRITE + "throttle.enabled") and _on(values, WRITE + "enabled"):
        return []
    # Alerting rules count for a broker's file on evidence only: kept in its folder, or a folder above
    # or below it (files named together are not one repository by being named together).
    folder = Path(config_set.path).resolve().parent
    alerts = [a for a in values["peers"].get("alerts", []) if _counts_for(folder, a)]
    if any("last_exported_position" in a["expr"] and "last_committed_position" in a["expr"] for a in alerts):
        return []
    files = {a["path"] for a in alerts}
    read = "no alerting rule beside it (its folder, above or below)"
    if alerts:
        read = (f"none of the {len(alerts)} alerting rule(s) over Zeebe's metrics beside it or loaded by the "
                f"Prometheus server given ({len(files)} file(s) or server(s))")  # fmt: skip
    return [Violation(keys=_written_at(config_set, WRITE + "throttle.enabled"),
                      arguments={"alerts": read, "query": EXPORT_LAG_ALERT})]  # fmt: skip


def _related(folder: Path, other: Path) -> bool:
    return folder == other or folder.is_relative_to(other) or other.is_relative_to(folder)


def _counts_for(folder: Path, alert: dict[str, Any]) -> bool:
    """An alerting rule counts for a broker's file when kept beside it (its folder, above or below),
    or when a Prometheus server given has it loaded: that one watches the running cluster."""
    if "://" in alert["path"]:
        return True
    return _related(folder, Path(alert["path"]).resolve().parent)
