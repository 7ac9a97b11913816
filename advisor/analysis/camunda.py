"""The Camunda pack's view of a config set: the release that judges it, and what the broker
actually runs with for each flow-control and disk setting — whichever generation's key the file
wrote it in (`zeebe.broker.backpressure.*` up to 8.5, `zeebe.broker.flowControl.*` from 8.6,
`camunda.processing.flow-control.*` and `camunda.data.primary-storage.disk.*` from 8.9).

Each setting is named by its unified key (its "concept"): the catalog's legacy lists say which
older keys are the same setting. Pure: the rule runner and the pack's checks ask here.
"""

from __future__ import annotations

import re
from functools import cache

from advisor import TYPE_CHECKING
from advisor.analysis.release import Judged
from advisor.catalog import camunda as catalog
from advisor.named_tuple import NamedTuple

if TYPE_CHECKING:
    from typing import Any

    from advisor.model.document import ConfigSet, Setting

NO_VERSION = (
    "no Camunda version found (an image tag camunda/zeebe:8.x or camunda/camunda:8.x, a camunda-platform chart "
    "version, or a '# kafka-advisor: camunda-version=8.X' line): the rules that depend on the release were not "
    "judged"
)
# Where each generation's request limit lives, as written (uniform form): 8.6–8.8 read
# flowControl.request when any of it is written, else backpressure (LogStreamPartitionTransitionStep).
_REQUEST_8_6 = "zeebe.broker.flowcontrol.request."
_BACKPRESSURE = "zeebe.broker.backpressure."


def judged_release(config_set: ConfigSet) -> Judged:
    """The catalog release that judges a Camunda set; `source` None when nothing stated a version
    (then the newest is used and release-dependent rules are not judged)."""
    hint, source = config_set.kafka_version, config_set.kafka_version_from or "the input"
    newest = catalog.releases()[-1]
    if hint is None:
        return _from_generation(config_set) or Judged(newest, None, None)
    if config_set.component == "camunda-client":
        # A client's release is its own (the starter's, the Connectors image's): the broker catalog,
        # whose releases answer for broker keys, has nothing to say of it.
        try:
            major, minor, _ = catalog.parse(hint)
        except catalog.UnknownReleaseError as error:
            return Judged(newest, None, f"Camunda {newest} assumed: {source} names {hint!r} ({error})", True)
        return Judged(f"{major}.{minor}", source, None)
    try:
        release = catalog.answering(hint)
    except catalog.UnknownReleaseError as error:
        return Judged(newest, None, f"Camunda {newest} assumed: {source} names {hint!r} ({error})", True)
    assumed = None
    if not catalog.read_exactly(hint):
        info = catalog.release_info(release)
        read = f"the tag {info['tag']}" if info.get("tag") else f"{info['repository']}'s {info['line']}"
        assumed = f"Camunda {hint} judged with the configuration classes of {read}: no release tag of {hint} was read"
    return Judged(release, source, assumed)


def _from_generation(config_set: ConfigSet) -> Judged | None:
    """Where no version is stated: the lower bound its keys give, when every catalogued key it
    writes is the unified configuration's (camunda.processing.*, camunda.data.*), which no release
    before the unified one reads. The exact release stays unknown: said as assumed, so the rules
    that need it are not judged. Keys of an older generation, alone or beside, say nothing here."""
    unified = [r for r in catalog.releases() if catalog.generation(r) != "zeebe.broker"]
    if not unified:
        return None
    first, written = unified[0], []
    for setting in config_set.settings.values():
        releases = catalog.defined_in(setting.key)
        if not releases:
            continue  # not catalogued (another subtree, a typo): no evidence either way
        if any(catalog.generation(r) == "zeebe.broker" for r in releases):
            return None  # an older generation's key: the file may be written for that one
        written.append(setting.key)
    if not written:
        return None
    source = f"its unified configuration keys ({written[0]}), which Camunda reads from {first} on"
    return Judged(first, source, f"Camunda {first} or later, from the keys it writes: no version is stated")


def stated(judged: Judged) -> bool:
    return judged.source is not None and not judged.outside_catalog


class Value(NamedTuple):
    """What the broker runs with for one setting: the value, the key as written (None: the
    default), and why a written key is not the one in force."""

    value: str | None
    setting: Setting | None = None
    note: str = ""


def concept_of(key: str) -> str:
    """The unified key a written key is a spelling of (itself when it has none)."""
    return catalog.unified_key_of(key) or catalog.spelling(key) or key


def written_concepts(config_set: ConfigSet) -> dict[str, list[Setting]]:
    """Every written setting grouped by the concept it sets, in the order written."""
    grouped: dict[str, list[Setting]] = {}
    for setting in config_set.settings.values():
        grouped.setdefault(concept_of(setting.key), []).append(setting)
    return grouped


# The first release of the zeebe.broker.flowControl generation (FlowControlCfg appears at 8.6's tags):
# from it on, a key the unified configuration lists as a legacy spelling is one its releases read,
# even where the catalog read only an early tag of the line (8.6.0-alpha3 has no write limit yet).
FLOW_CONTROL_GENERATION = (8, 6)


def _legacy_generation(release: str) -> bool:
    return catalog.generation(release) != catalog.UNIFIED and catalog.parse(release)[:2] >= FLOW_CONTROL_GENERATION


def default(concept: str, release: str) -> str | None:
    """The default of a concept at a catalog release, from the key that release reads it by."""
    facts = catalog.lookup(concept, release)
    if facts is not None:
        return facts.default
    unified = catalog.lookup(concept, catalog.releases()[-1])
    for legacy in unified.legacy if unified else ():
        older = catalog.lookup(legacy, release)
        if older is not None and older.default is not None:
            return older.default
    if (
        unified is not None
        and _legacy_generation(release)
        and any(catalog.uniform(k).startswith("zeebe.broker.flowcontrol.") for k in unified.legacy)
    ):
        return unified.default  # a setting of the flowControl generation the catalog's early tag lacks
    return None


def read_by(key: str, release: str) -> bool:
    """Whether the broker of a catalog release reads a key (any spelling)."""
    if catalog.lookup(key, release) is not None:
        return True
    return (
        _legacy_generation(release)
        and catalog.uniform(key).startswith("zeebe.broker.flowcontrol.")
        and (catalog.unified_key_of(key) is not None)
    )


def in_force(config_set: ConfigSet, concept: str, release: str) -> Value:
    """The value the broker of `release` runs a concept with, given everything the set writes."""
    settings = written_concepts(config_set).get(concept, [])
    fallback = default(concept, release)
    if not settings:
        return Value(fallback)
    if catalog.generation(release) == catalog.UNIFIED:
        unified = [s for s in settings if catalog.uniform(s.key) == catalog.uniform(concept)]
        if unified:
            return Value(unified[-1].value, unified[-1])
        facts = catalog.lookup(concept, release)
        legacy = settings[-1]
        if facts is not None and facts.legacy_mode == "SUPPORTED":
            return Value(legacy.value, legacy)
        return Value(fallback, legacy, f"{legacy.key} is not read as a value by Camunda {release}")
    read = [s for s in settings if read_by(s.key, release)]
    if not read:
        return Value(fallback, settings[-1], f"{settings[-1].key} is not a key of Camunda {release}")
    request_written = any(catalog.uniform(s.key).startswith(_REQUEST_8_6) and read_by(s.key, release)
                          for s in config_set.settings.values())  # fmt: skip
    if request_written:  # 8.6–8.8: a written flowControl.request replaces backpressure whole
        chosen = [s for s in read if not catalog.uniform(s.key).startswith(_BACKPRESSURE)]
        if not chosen:
            return Value(default(concept, release), read[-1], "zeebe.broker.flowControl.request is written: "
                         "the broker reads the request limit from it, not from zeebe.broker.backpressure")  # fmt: skip
        read = chosen
    return Value(read[-1].value, read[-1])


@cache
def defaults_at(release: str) -> dict[str, str | None]:
    """Every setting's default at a catalog release, by unified key (or its own, without one)."""
    found: dict[str, str | None] = {}
    for spelled in (*catalog.keys_at(release), *catalog.keys_at(catalog.releases()[-1])):
        concept = concept_of(spelled)
        if concept not in found and (value := default(concept, release)) is not None:
            found[concept] = value
    return found


@cache
def client_defaults() -> dict[str, str | None]:
    """A client's defaults: the SDK's variables and the Spring starter's properties, as written."""
    found: dict[str, str | None] = {}
    for name in catalog.sdk_variables():
        value = (catalog.sdk_variable(name) or {}).get("default")
        if value is not None:
            found[name] = str(value).lower() if isinstance(value, bool) else str(value)
    for key, facts in catalog.spring_properties().items():
        if facts.get("default") is not None:
            value = facts["default"]
            found[key] = str(value).lower() if isinstance(value, bool) else str(value)
    return found


def peers(config_sets: list[ConfigSet]) -> dict[str, Any]:
    """What the run's other Camunda files say that a set's rules read: the alerting rules given
    (their names, expressions and files), for rules about what nobody alerts on (each rule decides
    which of them count for its set)."""
    alerts = [{"name": s.key.removeprefix("alert."), "expr": s.value, "path": s.location.path}
              for cs in config_sets if cs.component == "camunda-alerts" for s in cs.settings.values()]  # fmt: skip
    return {"alerts": alerts}


def context(
    config_set: ConfigSet, judged: Judged, profile: str, others: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The rule context of a Camunda set (rules/context.py's fields, with the pack's values):
    `effective` and `defaults` by unified key, as the judging release runs them."""
    from advisor.analysis.effective import written

    release = judged.release
    if config_set.component == "camunda-client":  # the client libraries' defaults, not the broker release's
        defaults = dict(client_defaults())
        effective = {**defaults, **written(config_set)}
    else:
        defaults = dict(defaults_at(release))
        effective = dict(defaults)
        for concept in written_concepts(config_set):
            effective[concept] = in_force(config_set, concept, release).value
    return {
        "component": config_set.component,
        "client": config_set.client,
        "kafka_version": None,
        "release": release,
        "version": list(catalog.parse(release)),
        "profile": profile,
        "name": config_set.name,
        "roles": [],
        "set": written(config_set),
        "effective": effective,
        "defaults": defaults,
        "cluster": None,
        "facts": config_set.facts,
        "peers": others or {},
    }


# --- values as Spring converts them --------------------------------------------------------------

_DURATION_UNITS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3, "h": 3600e3, "d": 86400e3}
_SIZE_UNITS = {"b": 1, "kb": 1 << 10, "mb": 1 << 20, "gb": 1 << 30, "tb": 1 << 40}


def duration_ms(value: str | None) -> float | None:
    """A Spring Duration in milliseconds: `200ms`, `1s`, `PT0.2S`, or a bare number (milliseconds)."""
    if value is None:
        return None
    text = value.strip().lower()
    simple = re.fullmatch(r"([+-]?\d+)(ns|us|ms|s|m|h|d)?", text)
    if simple:
        return int(simple.group(1)) * _DURATION_UNITS[simple.group(2) or "ms"]
    iso = re.fullmatch(r"pt(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s)?", text)
    if iso and any(iso.groups()):
        hours, minutes, seconds = (float(g) if g else 0.0 for g in iso.groups())
        return (hours * 3600 + minutes * 60 + seconds) * 1000
    return None


def size_bytes(value: str | None) -> int | None:
    """A Spring DataSize in bytes: `2GB`, `512MB`, or a bare number (bytes)."""
    if value is None:
        return None
    match = re.fullmatch(r"([+-]?\d+)\s*([a-zA-Z]{0,2})", value.strip())
    if match is None or match.group(2).lower() not in ("", *_SIZE_UNITS):
        return None
    return int(match.group(1)) * _SIZE_UNITS[match.group(2).lower() or "b"]


def same_value(kind: str, left: str | None, right: str | None) -> bool | None:
    """Whether two written values are one value of a key's type, as Spring converts them (None:
    one of them is not a value of the type). Strings compare exactly, as the unified check does."""
    if left is None or right is None:
        return left is right
    if kind not in ("Duration", "DataSize", "boolean", "int", "long", "double", "float"):
        return left.strip() == right.strip()
    a, b = _converted(kind, left), _converted(kind, right)
    if a is None or b is None:
        return None
    return a == b


def _converted(kind: str, value: str) -> float | str | None:
    if kind == "Duration":
        return duration_ms(value)
    if kind == "DataSize":
        size = size_bytes(value)
        return None if size is None else float(size)
    if kind == "boolean":
        lowered = value.strip().lower()
        return lowered if lowered in ("true", "false") else None
    try:
        return float(value)
    except ValueError:
        return None
