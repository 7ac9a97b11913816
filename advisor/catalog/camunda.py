"""The Camunda pack's catalog: the Zeebe broker's flow-control and disk settings per release,
generated from Camunda's own configuration classes (data/camunda.json, tools/camunda/,
docs/camunda.md) — keys, types, defaults, what a setter refuses, and for the unified
configuration (8.9 on) the legacy spellings each key still reads and how.

Spring Boot binds a key however it is spelled (requestTimeout, request-timeout, request_timeout,
REQUESTTIMEOUT in an environment variable): keys are matched in that relaxed form, `uniform`.
"""

from __future__ import annotations

from functools import cache

from advisor import TYPE_CHECKING, lazy_re
from advisor.named_tuple import NamedTuple

if TYPE_CHECKING:
    from typing import Any

DATA_FILE = "camunda.json"
UNIFIED = "camunda (unified)"
# The settings this pack judges, in each generation's spelling: a key under one of these that no
# release defines is one Spring would ignore (Camunda binds with unknown fields allowed).
JUDGED_SUBTREES = (
    "zeebe.broker.backpressure.",
    "zeebe.broker.flowcontrol.",
    "zeebe.broker.data.disk.",
    "zeebe.broker.gateway.",  # the embedded gateway
    "zeebe.gateway.",  # a standalone gateway
    "camunda.processing.flowcontrol.",
    "camunda.data.primarystorage.disk.",
)
_VERSION = lazy_re.compile(r"^v?(\d+)\.(\d+)(?:\.(\d+))?(?:[-.+].*)?$")


class UnknownReleaseError(ValueError):
    """Not a Camunda 8 version this pack can judge with."""


class Facts(NamedTuple):
    key: str  # as the catalog spells it (Camunda's documentation spelling)
    release: str  # the catalog release that answered
    type: str
    default: str | None = None
    choices: tuple[str, ...] = ()
    refuses_unless: tuple[str, ...] = ()  # what the setter refuses, e.g. ("< 1.0", ">= 0.5")
    unset_by_default: bool = False  # a parent object that is null unless written (flowControl.request)
    legacy: tuple[str, ...] = ()  # unified keys: the legacy keys still read
    legacy_mode: str | None = None  # SUPPORTED | SUPPORTED_ONLY_IF_VALUES_MATCH | NOT_SUPPORTED
    doc: str = ""


def uniform(key: str) -> str:
    """A key as Spring's relaxed binding compares it: lower case, without dashes and underscores."""
    return key.lower().replace("-", "").replace("_", "")


def variable(key: str) -> str:
    """The environment variable Spring's relaxed binding reads for a key (the inverse of from_env)."""
    return key.replace("-", "").replace(".", "_").upper()


def from_env(name: str) -> str:
    """An environment variable's key, in the uniform form (ZEEBE_BROKER_DATA_DISK_FREESPACE_PROCESSING
    → zeebe.broker.data.disk.freespace.processing): Spring reads `_` as the dot."""
    return ".".join(part for part in name.lower().split("_") if part)


@cache
def _data() -> dict[str, Any]:
    from advisor.catalog import store

    return store.read(DATA_FILE)  # type: ignore[no-any-return]


@cache
def _index() -> dict[str, tuple[str, dict[str, Any]]]:
    """uniform key → (catalog spelling, facts by release)."""
    return {uniform(key): (key, by_release) for key, by_release in _data()["keys"].items()}


@cache
def _legacy_index() -> dict[tuple[str, str], str]:
    """(uniform legacy key, release) → the unified key that reads it."""
    found = {}
    for key, by_release in _data()["keys"].items():
        for release, facts in by_release.items():
            for legacy in facts.get("legacy", ()):
                found[(uniform(legacy), release)] = key
    return found


def releases() -> tuple[str, ...]:
    """The releases the catalog read, oldest first (minor lines: 8.4, 8.5, …)."""
    return tuple(r["release"] for r in _data()["releases"])


def release_info(release: str) -> dict[str, Any]:
    """Where the catalog read a release: repository, tag or files, commit, whether a pre-release."""
    return next(r for r in _data()["releases"] if r["release"] == release)


def parse(version: str) -> tuple[int, int, int]:
    match = _VERSION.match(version.strip())
    if match is None or int(match.group(1)) != 8:
        raise UnknownReleaseError(f"not a Camunda 8 version: {version!r} (expected e.g. 8.6 or 8.9.2)")
    return int(match.group(1)), int(match.group(2)), int(match.group(3) or 0)


def answering(version: str) -> str:
    """The catalog release that answers for a version: its own minor line, else the newest before
    it. Raises UnknownReleaseError for a version older than the catalog's oldest."""
    wanted = parse(version)[:2]
    candidates = [r for r in releases() if parse(r)[:2] <= wanted]
    if not candidates:
        raise UnknownReleaseError(f"Camunda {version} is older than the catalog's oldest release ({releases()[0]})")
    return candidates[-1]


def read_exactly(version: str) -> bool:
    """Whether the catalog read this version's own minor line at a final release's tag."""
    try:
        release = answering(version)
    except UnknownReleaseError:
        return False
    info = release_info(release)
    return parse(release)[:2] == parse(version)[:2] and info.get("tagged", False) and not info.get("prerelease")


def generation(release: str) -> str:
    """Which configuration a catalog release reads: `zeebe.broker` (8.x Cfg classes) or the unified one."""
    return str(release_info(release)["generation"])


def _facts(key: str, release: str, raw: dict[str, Any]) -> Facts:
    return Facts(
        key=key,
        release=release,
        type=raw.get("type", ""),
        default=raw.get("default"),
        choices=tuple(raw.get("choices", ())),
        refuses_unless=tuple(raw.get("refuses_unless", ())),
        unset_by_default=bool(raw.get("unset_by_default")),
        legacy=tuple(raw.get("legacy", ())),
        legacy_mode=raw.get("legacy_mode"),
        doc=raw.get("doc", ""),
    )


def lookup(key: str, release: str) -> Facts | None:
    """What catalog release `release` (as `answering` gives it) says of a key, however it is spelled."""
    found = _index().get(uniform(key))
    if found is None or release not in found[1]:
        return None
    return _facts(found[0], release, found[1][release])


def spelling(key: str) -> str | None:
    """The catalog's spelling of a key some release defines, else of a legacy key the unified
    configuration still reads (zeebe.broker.flowControl.write.limit, whose 8.6–8.8 classes the
    catalog may not hold): one spelling for every way a file writes it."""
    found = _index().get(uniform(key))
    return found[0] if found else _legacy_spellings().get(uniform(key))


@cache
def _legacy_spellings() -> dict[str, str]:
    """uniform legacy key → its spelling in the unified classes' legacy lists."""
    return {uniform(legacy): legacy for by_release in _data()["keys"].values() for facts in by_release.values()
            for legacy in facts.get("legacy", ())}  # fmt: skip


def defined_in(key: str) -> tuple[str, ...]:
    """The catalog releases that define a key."""
    found = _index().get(uniform(key))
    return tuple(r for r in releases() if found and r in found[1])


def legacy_reader(key: str, release: str) -> Facts | None:
    """The unified key that reads `key` as one of its legacy spellings at `release`, with its facts."""
    unified = _legacy_index().get((uniform(key), release))
    return lookup(unified, release) if unified else None


def unified_key_of(key: str) -> str | None:
    """The unified key a legacy key maps to, in any release that says (a concept shared across
    generations: zeebe.broker.backpressure.algorithm → camunda.processing.flow-control.request.algorithm)."""
    wanted = uniform(key)
    for (legacy, _), unified in _legacy_index().items():
        if legacy == wanted:
            return unified
    found = _index().get(wanted)
    return found[0] if found and found[0].startswith("camunda.") else None


def judged_subtree(key: str) -> bool:
    """A key under one of the subtrees the catalog reads whole (so an unknown key there is a typo)."""
    return uniform(key).startswith(JUDGED_SUBTREES)


def keys_at(release: str) -> dict[str, Facts]:
    """Every key a catalog release defines, by its spelling."""
    return {
        spelled: _facts(spelled, release, by_release[release])
        for spelled, by_release in _index().values()
        if release in by_release
    }


# --- the clients (data/camunda_clients.json: the TypeScript SDK's schema, the Spring starter's properties) ---

CLIENTS_FILE = "camunda_clients.json"


@cache
def _clients() -> dict[str, Any]:
    from advisor.catalog import store

    return store.read(CLIENTS_FILE)  # type: ignore[no-any-return]


def sdk_variable(name: str) -> dict[str, Any] | None:
    """What the SDK's configuration schema says of an environment variable (CAMUNDA_SDK_…)."""
    return _clients()["sdk"]["variables"].get(name)  # type: ignore[no-any-return]


def sdk_variables() -> tuple[str, ...]:
    return tuple(_clients()["sdk"]["variables"])


def spring_properties() -> dict[str, dict[str, Any]]:
    return _clients()["spring"]["properties"]  # type: ignore[no-any-return]


def sdk_about() -> str:
    sdk = _clients()["sdk"]
    return f"{sdk['package']} {sdk['version']}"


@cache
def _spring_index() -> dict[str, str]:
    return {uniform(key): key for key in _clients()["spring"]["properties"]}


def spring_property(key: str) -> tuple[str, dict[str, Any]] | None:
    """(the starter's spelling, its metadata) of a camunda.client.* / zeebe.client.* property."""
    spelled = _spring_index().get(uniform(key))
    return (spelled, _clients()["spring"]["properties"][spelled]) if spelled else None


@cache
def _spring_legacy() -> dict[str, str]:
    """uniform legacy spelling → the property the starter maps it to."""
    return {uniform(old): new for new, olds in _clients()["spring"]["legacy"].items() for old in olds}


def spring_replacement(key: str) -> tuple[str, str] | None:
    """(the property a legacy or deprecated client key is read as, how): `mapped` (the starter
    reads it as the new one), or `deprecated`/`error` (its declared deprecation level)."""
    mapped = _spring_legacy().get(uniform(key))
    if mapped is not None:
        return mapped, "mapped"
    found = spring_property(key)
    deprecation = found[1].get("deprecation") if found else None
    if deprecation and deprecation.get("replacement"):
        return deprecation["replacement"], deprecation.get("level") or "deprecated"
    return None


def spring_about() -> str:
    return str(_clients()["spring"]["artifact"])
