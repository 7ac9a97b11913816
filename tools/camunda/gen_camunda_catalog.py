#!/usr/bin/env python3
"""Generate advisor/catalog/data/camunda.json — the Camunda 8 (Zeebe) broker's flow-control and
disk settings per release — from Camunda's own configuration classes.

Two kinds of source, both Camunda's Java:

* an engine repository with its release tags (`--git PATH`, repeatable: a clone or mirror of
  camunda/zeebe, which holds 8.4.x, 8.5.x and the 8.6 alphas, or of camunda/camunda). Each minor
  release from 8.4 on is read at its newest final tag (a minor with only pre-releases, at its
  newest pre-release, said so): the broker's `*Cfg` classes under
  `…/broker/system/configuration/`, walked from `BrokerCfg` (`zeebe.broker`) through the
  subtrees this pack judges (backpressure, flowControl, data);
* a folder of the unified configuration's classes (`--unified DIR`, `io.camunda.configuration`:
  one class per property prefix, each getter naming the legacy properties it still reads and how),
  with the release line its SOURCES.json states. Camunda's repository is over `fetch`'s size limit
  here: the folder holds the newest versions the public index stores, with their commits.

Nothing is typed by hand: a key, its type, default, refusal (`checkArgument`/`checkPositive` in its
setter) and legacy spellings come from the source or are not in the catalog.

    tools/camunda/gen_camunda_catalog.py --git ../zeebe --unified .cache/camunda-source/unified
    tools/camunda/gen_camunda_catalog.py --check      # without sources: the catalog is this generator's
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import java_config as java  # noqa: E402 - tools/camunda/java_config.py

REPO_ROOT = HERE.parent.parent
OUTPUT = REPO_ROOT / "advisor" / "catalog" / "data" / "camunda.json"
SCHEMA_VERSION = 1
FIRST_MINOR = (8, 4)
CONFIG_DIRS = (
    "zeebe/broker/src/main/java/io/camunda/zeebe/broker/system/configuration/",
    "broker/src/main/java/io/camunda/zeebe/broker/system/configuration/",
)
BROKER_ROOT = ("BrokerCfg", "zeebe.broker")
SUBTREES = ("backpressure", "flowControl", "data")  # the broker settings this pack judges
GATEWAY_DIRS = (
    "zeebe/gateway/src/main/java/io/camunda/zeebe/gateway/impl/configuration/",
    "gateway/src/main/java/io/camunda/zeebe/gateway/impl/configuration/",
)
# The standalone gateway's settings, and the same classes as the broker's embedded gateway
# (EmbeddedGatewayCfg extends GatewayCfg: zeebe.broker.gateway.*, with its own `enable`).
GATEWAY_ROOTS = (("GatewayCfg", "zeebe.gateway"), ("EmbeddedGatewayCfg", "zeebe.broker.gateway"))
UNIFIED_ROOTS = ("camunda.processing.flow-control", "camunda.data.primary-storage.disk")
_TAG = re.compile(r"^(\d+)\.(\d+)\.(\d+)(?:-(\w+?)(\d*))?$")
_VALUE_TYPES = frozenset({"String", "Duration", "DataSize", "Boolean", "Integer", "Double", "Long", "int", "long",
                          "boolean", "double", "float"})  # fmt: skip
_JAVA_TYPES = {"Integer": "int", "Long": "long", "Double": "double", "Boolean": "boolean", "Float": "float"}


# --- engine tags ------------------------------------------------------------------------------


def release_tags(repository: Path) -> dict[str, tuple[str, bool]]:
    """minor (8.5) → (the tag read, whether it is a pre-release): the newest final tag of each
    minor from FIRST_MINOR on, else its newest pre-release."""
    tags = subprocess.run(["git", "-C", str(repository), "tag"], capture_output=True, text=True, check=True).stdout
    best: dict[str, tuple[tuple[Any, ...], str, bool]] = {}
    for tag in tags.split():
        match = _TAG.match(tag)
        if match is None or (int(match.group(1)), int(match.group(2))) < FIRST_MINOR:
            continue
        pre = match.group(4)
        if pre not in (None, "alpha", "rc"):
            continue  # build variants (8.6.0-alpha3-optimize) are not the engine's releases
        rank = (pre is None, int(match.group(3)), 0 if pre is None else (pre == "rc", int(match.group(5) or 0)))
        minor = f"{match.group(1)}.{match.group(2)}"
        if minor not in best or rank > best[minor][0]:
            best[minor] = (rank, tag, pre is not None)
    return {minor: (tag, pre) for minor, (_, tag, pre) in sorted(best.items(), key=lambda i: _minor_key(i[0]))}


def _minor_key(minor: str) -> tuple[int, ...]:
    return tuple(int(p) for p in minor.split("."))


def sources_at(repository: Path, tag: str, folders: tuple[str, ...] = CONFIG_DIRS) -> tuple[dict[str, str], str, str]:
    """The configuration classes at a tag: {file name: text}, the folder read and the commit."""

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(repository), *args], capture_output=True, text=True,
                              check=True).stdout  # fmt: skip

    commit = git("rev-list", "-n", "1", tag).strip()
    listing = git("ls-tree", "-r", "--name-only", tag)
    for folder in folders:
        paths = [p for p in listing.splitlines() if p.startswith(folder) and p.endswith(".java")]
        if paths:
            return {p[len(folder) :]: git("show", f"{tag}:{p}") for p in paths}, folder, commit
    raise SystemExit(f"gen_camunda_catalog: no configuration classes under {folders[0]} at {tag} in {repository}")


# --- the broker's Cfg classes -------------------------------------------------------------------


def classes_of(files: dict[str, str]) -> dict[str, java.JavaClass]:
    found: dict[str, java.JavaClass] = {}
    for _, text in sorted(files.items()):
        for name, cls in java.parse(text).items():
            found.setdefault(name, cls)
    return found


def _leaf_type(java_type: str, classes: dict[str, java.JavaClass]) -> tuple[str, list[str]]:
    """A field's type as the catalog says it, and an enum's values."""
    bare = re.sub(r"<.*>", "", java_type).split(".")[-1]
    if bare in classes and classes[bare].kind == "enum":
        return "enum", classes[bare].enum_values
    if bare in ("Map", "HashMap", "List", "Set"):
        return bare.lower().replace("hash", ""), []
    return _JAVA_TYPES.get(bare, bare), []


def walk_broker(classes: dict[str, java.JavaClass]) -> dict[str, dict[str, Any]]:
    """Every key of the judged subtrees, from BrokerCfg down: {key: facts}."""
    root_name, prefix = BROKER_ROOT
    keys: dict[str, dict[str, Any]] = {}
    root = classes[root_name]
    for f in java.bound_fields(root):
        if f.name in SUBTREES:
            _walk(classes, f, root, f"{prefix}.{f.name}", keys, set(), unset=f.init == "null")
    return dict(sorted(keys.items()))


def walk_gateway(classes: dict[str, java.JavaClass]) -> dict[str, dict[str, Any]]:
    """Every key of the gateway's classes, standalone and embedded in the broker: {key: facts}.
    A list of objects (interceptors, filters) is one key, its entries the user's own."""
    keys: dict[str, dict[str, Any]] = {}
    for root_name, prefix in GATEWAY_ROOTS:
        root = classes.get(root_name)
        if root is None:
            continue
        fields = {f.name: f for f in java.bound_fields(classes["GatewayCfg"])} if root_name != "GatewayCfg" else {}
        fields.update({f.name: f for f in java.bound_fields(root)})  # the embedded one's own beside its base's
        for f in fields.values():
            owner = root if any(g.name == f.name for g in java.bound_fields(root)) else classes["GatewayCfg"]
            _walk(classes, f, owner, f"{prefix}.{f.name}", keys, set(), unset=f.init == "null")
    return dict(sorted(keys.items()))


def _walk(
    classes: dict[str, java.JavaClass], f: java.Field, owner: java.JavaClass, key: str,
    keys: dict[str, dict[str, Any]], seen: set[str], unset: bool, overrides: dict[str, str] | None = None,
    set_here: str | None = None,
) -> None:  # fmt: skip
    bare = re.sub(r"<.*>", "", f.type).split(".")[-1]
    nested = classes.get(bare)
    if nested is not None and nested.kind == "class" and bare not in seen:
        inner_overrides = _constructor_overrides(nested)
        for inner in java.bound_fields(nested):
            # a value the enclosing constructor sets on this object (FlowControlCfg's append limit) wins
            set_here = (overrides or {}).get(inner.name)
            _walk(classes, inner, nested, f"{key}.{inner.name}", keys, seen | {bare}, unset or inner.init == "null",
                  inner_overrides.get(inner.name), set_here)  # fmt: skip
        return
    kind, choices = _leaf_type(f.type, classes)
    default = java.evaluate(set_here if set_here is not None else f.init, f.type.split(".")[-1], owner, classes)
    facts: dict[str, Any] = {"type": kind}
    if isinstance(default, java.Unparsed):
        facts["unparsed_default"] = str(default)
    elif default is not None:
        facts["default"] = default
    if choices:
        facts["choices"] = choices
    if unset:
        facts["unset_by_default"] = True  # a parent object is null unless written
    if java.write_only(owner, f):
        facts["write_only"] = True  # bound through its setter alone (the class reads it itself)
    refused = java.checks(owner).get(f.name)
    if refused:
        facts["refuses_unless"] = refused
    if f.doc:
        facts["doc"] = f.doc
    keys[key] = facts


def _constructor_overrides(cls: java.JavaClass) -> dict[str, dict[str, str]]:
    """`field.setX(V)` statements of the constructor: field → {x: V} (FlowControlCfg's append limit)."""
    constructor = cls.method(cls.name)
    found: dict[str, dict[str, str]] = {}
    if constructor is None:
        return found
    for target, setter, value in re.findall(r"(\w+)\.set(\w+)\(([^;]*)\);", constructor.body):
        found.setdefault(target, {})[setter[0].lower() + setter[1:]] = value.strip()
    return found


# --- the unified configuration ------------------------------------------------------------------


def walk_unified(classes: dict[str, java.JavaClass]) -> dict[str, dict[str, Any]]:
    keys: dict[str, dict[str, Any]] = {}
    for cls in classes.values():
        prefix = java.evaluate(cls.constant("PREFIX"), "String", cls, classes)
        if not isinstance(prefix, str) or isinstance(prefix, java.Unparsed) or not prefix.startswith(UNIFIED_ROOTS):
            continue
        _unified_fields(classes, cls, prefix, keys)
        for read in java.legacy_reads(cls):
            key = prefix + str(read["suffix"])
            facts = keys.setdefault(
                key,
                {
                    "type": _JAVA_TYPES.get(str(read["type"]), str(read["type"])),
                    "not_read": "its class is not in the source read: no default",
                },
            )
            facts["legacy"] = read["legacy"]
            facts["legacy_mode"] = read["mode"]
    return dict(sorted(keys.items()))


def _unified_fields(
    classes: dict[str, java.JavaClass], cls: java.JavaClass, prefix: str, keys: dict[str, dict[str, Any]]
) -> None:
    for f in java.bound_fields(cls):
        key = f"{prefix}.{java.kebab(f.name)}"
        nested = classes.get(re.sub(r"<.*>", "", f.type))
        if nested is not None and nested.kind == "class":
            if nested.constant("PREFIX") is None:  # bound under this class's prefix
                _unified_fields(classes, nested, key, keys)
            continue
        if f.type not in _VALUE_TYPES and not (nested is not None and nested.kind == "enum"):
            continue  # a nested class not in the source read: its keys come from the legacy getters only
        facts: dict[str, Any] = {"type": _JAVA_TYPES.get(f.type, f.type)}
        default = java.evaluate(f.init, f.type, cls, classes)
        if isinstance(default, java.Unparsed):
            facts["unparsed_default"] = str(default)
        elif default is not None:
            facts["default"] = default
        if f.doc:
            facts["doc"] = f.doc
        keys[key] = facts


# --- the catalog ------------------------------------------------------------------------------


def generator_digest() -> str:
    """What made the catalog: this script and the Java reader, by content."""
    digest = hashlib.sha256()
    for path in (Path(__file__), HERE / "java_config.py"):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def build(repositories: list[Path], unified: Path | None) -> dict[str, Any]:
    releases: list[dict[str, Any]] = []
    keys: dict[str, dict[str, Any]] = {}
    for repository in repositories:
        name = _repository_name(repository)
        for minor, (tag, prerelease) in release_tags(repository).items():
            if any(r["release"] == minor for r in releases):
                continue  # an earlier repository answered for this minor
            files, folder, commit = sources_at(repository, tag)
            try:
                gateway_files, gateway_folder, _ = sources_at(repository, tag, GATEWAY_DIRS)
            except SystemExit:  # a tree without the gateway's classes: said in the release's record
                gateway_files, gateway_folder = {}, None
            releases.append({"release": minor, "repository": name, "tag": tag, "commit": commit,
                             "prerelease": prerelease, "tagged": True, "generation": "zeebe.broker",
                             "folder": folder, "gateway_folder": gateway_folder})  # fmt: skip
            for key, facts in walk_broker(classes_of(files)).items():
                keys.setdefault(key, {})[minor] = facts
            both = classes_of({**gateway_files, **{f"broker/{n}": t for n, t in files.items()}})
            for key, facts in walk_gateway(both).items():
                keys.setdefault(key, {})[minor] = facts
    if unified is not None:
        about = json.loads((unified / "SOURCES.json").read_text())
        files = {p.name: p.read_text() for p in sorted(unified.glob("*.java"))}
        release = about["release"]
        releases.append({"release": release, "repository": about["repository"], "line": about["line"],
                         "files": about["files"], "generation": "camunda (unified)",
                         "folder": about["path"], "prerelease": False, "tagged": False})  # fmt: skip
        for key, facts in walk_unified(classes_of(files)).items():
            keys.setdefault(key, {})[release] = facts
    releases.sort(key=lambda r: _minor_key(r["release"]))
    return {
        "about": "generated by tools/camunda/gen_camunda_catalog.py from Camunda's configuration classes; do not edit",
        "schema_version": SCHEMA_VERSION,
        "generator": generator_digest(),
        "releases": releases,
        "keys": dict(sorted(keys.items())),
    }


def _repository_name(repository: Path) -> str:
    remote = subprocess.run(["git", "-C", str(repository), "config", "--get", "remote.origin.url"],
                            capture_output=True, text=True).stdout.strip()  # fmt: skip
    match = re.search(r"github\.com[:/]([^/]+/[^/.]+)", remote)
    if match:
        return match.group(1)
    mirrored = re.search(r"([^/+]+)\+([^/]+)/repo/?$", str(repository.resolve()))  # the fetch tool's mirrors
    return f"{mirrored.group(1)}/{mirrored.group(2)}" if mirrored else repository.resolve().name


def render(catalog: dict[str, Any]) -> str:
    return json.dumps(catalog, indent=1, sort_keys=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--git", action="append", type=Path, default=[], help="an engine repository with release tags")
    parser.add_argument("--unified", type=Path, help="a folder of unified configuration classes with SOURCES.json")
    parser.add_argument("--check", action="store_true", help="fail if the committed catalog is stale")
    args = parser.parse_args(argv)
    if not args.git and args.unified is None:
        if not args.check:
            parser.error("name the sources: --git PATH and/or --unified DIR")
        committed = json.loads(OUTPUT.read_text())
        if committed.get("generator") != generator_digest():
            shown = OUTPUT.relative_to(REPO_ROOT)
            how = "run tools/camunda/gen_camunda_catalog.py with its sources (docs/camunda.md)"
            print(f"{shown} is stale: the generator changed since it was written; {how}", file=sys.stderr)
            return 1
        return 0
    text = render(build(args.git, args.unified))
    if args.check:
        if not OUTPUT.exists() or OUTPUT.read_text() != text:
            print(
                f"{OUTPUT.relative_to(REPO_ROOT)} is stale: run tools/camunda/gen_camunda_catalog.py", file=sys.stderr
            )
            return 1
        return 0
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT.relative_to(REPO_ROOT)} ({len(text):,} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
