"""What a wheel's build already did, so an installed run does not do it again.

A run from a checkout validates the rule files and catalog data with their pydantic models and
remembers each validation in the user's cache, keyed by the content's digest: files there change
under the developer's hands. An installed package's files do not, and a CI runner starts with an
empty cache — every run there would be a first run (~250 ms of YAML parsing and validation). So
the wheel's build hook (hatch_build.py) calls `write`: the rule set is parsed, validated and its
predicates compiled, the catalog data validated — a failure fails the build — and the results
ship as the package advisor/_built: Python modules of literals, so an installed run loads them as
bytecode compiled at install, about three times faster than parsing the same JSON, and imports no
json. The build also tabulates what the catalog says of each Java component's keys at every
release (`java_keys`), which a run would otherwise work out from every key's record. A checkout
has no such package (it is never committed) and keeps validating.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from types import ModuleType

from advisor import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

PACKAGE = "_built"  # advisor/_built in a wheel
LAYOUT = 3  # bumped when the modules' shape changes


@cache
def load() -> ModuleType | None:
    """The build's index (rules, trees, validated catalog files), or None in a checkout (or a
    package of another layout)."""
    try:
        index = importlib.import_module(f"advisor.{PACKAGE}.index")
    except ImportError:
        return None
    return index if getattr(index, "LAYOUT", None) == LAYOUT else None


def rule_set() -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Each packaged rule file's validated content and predicate tree, by file name."""
    index = load()
    return (index.RULES, index.TREES) if index is not None else None


def catalog_data(data_file: str) -> Any:
    """A catalog data file's content as the build read it — validated, when its model is one of
    the catalog's (store.MODELS) — or None in a checkout."""
    index = load()
    if index is None or data_file not in index.DATA_FILES:
        return None
    return importlib.import_module(f"advisor.{PACKAGE}.{module_name(data_file)}").DATA


def java_keys(table: str, component: str, release: str) -> Any:
    """What the catalog says of a Java component's keys at a catalog release, as the build
    computed it — `accepted` (catalog.lookup's `_accepted`), `known` (`known_keys`) and
    `defaults` (analysis.effective's, as key and value columns) — or None in a checkout or for a
    release the catalog has no data for. Each would otherwise build every key's record (~350
    for a broker, ~3 ms)."""
    index = load()
    if index is None:
        return None
    tables = importlib.import_module(f"advisor.{PACKAGE}.java_keys").TABLES
    return tables[table].get(component, {}).get(release)


def module_name(data_file: str) -> str:
    """kafka_python.json → kafka_python"""
    return data_file.removesuffix(".json").replace("-", "_").replace(".", "_")


def build(rules_dir: Path) -> dict[str, Any]:
    """Validate and compile what an installed run would otherwise check on its first run; raises
    (LoadError, ValidationError) on anything the models reject. The index, each catalog data
    file's content by file name, and each Java component's keys at each catalog release."""
    from advisor import catalog
    from advisor.analysis import effective
    from advisor.catalog import store
    from advisor.rules import registry

    raw_by_path, trees = registry.compile_rule_set(sorted(rules_dir.glob("*.yaml")))
    data = {path.name: store.read(path.name) for path in sorted(store.DATA_DIR.glob("*.json"))}
    for data_file in store.MODELS:
        store.validate(data_file, data[data_file])
    index = {
        "LAYOUT": LAYOUT,
        "RULES": {path.name: raw for path, raw in raw_by_path.items()},
        "TREES": {path.name: tree for path, tree in trees.items()},
        "CATALOG": tuple(sorted(store.MODELS)),  # validated
        "DATA_FILES": tuple(data),
    }
    lookup = importlib.import_module("advisor.catalog.lookup")  # the module (the package exports its function)
    releases, components = catalog.releases(), catalog.COMPONENTS
    tables = {
        "accepted": {c: {r: tuple(sorted(lookup._accepted(c, r, "java"))) for r in releases} for c in components},
        "known": {c: {r: tuple(catalog.known_keys(c, kafka_version=r)) for r in releases} for c in components},
        "defaults": {c: {r: _columns(effective.defaults(c, "java", r)) for r in releases} for c in components},
    }
    return {"index": index, "catalog": data, "java_keys": tables}


def _columns(table: dict[str, str | None]) -> tuple[tuple[str, ...], tuple[str | None, ...]]:
    """A table as its keys and its values: tuples of constants, which load without building
    anything, and shared between the releases whose defaults did not change."""
    return tuple(table), tuple(table.values())


def write(rules_dir: Path, folder: Path) -> None:
    """The package advisor/_built, into `folder`."""
    built = build(rules_dir)
    folder.mkdir(parents=True, exist_ok=True)
    _module(folder / "__init__.py", "The wheel's build results (advisor/prebuilt.py); never in a checkout.", {})
    _module(folder / "index.py", "The rule set validated and compiled; the catalog files validated.", built["index"])
    for data_file, data in built["catalog"].items():
        _module(folder / f"{module_name(data_file)}.py", f"advisor/catalog/data/{data_file}, as read", {"DATA": data})
    _module(folder / "java_keys.py", "Java components' keys by catalog release.", {"TABLES": built["java_keys"]})


def _module(path: Path, doc: str, names: dict[str, Any]) -> None:
    """A module binding each name to its value as a literal, checked to read back equal."""
    import ast

    lines = [f'"""{doc}"""']
    for name, value in names.items():
        literal = _literal(value)
        if ast.literal_eval(literal) != value:
            raise ValueError(f"{path.name}: {name} does not read back as written")
        lines.append(f"{name} = {literal}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _literal(value: Any) -> str:
    """Python source for JSON-shaped data. An infinite float (JSON's Infinity, a default of
    "never" in kafka-python's data) is written 1e999, which Python reads as infinity; NaN, which
    equals nothing, and any other type fail the build."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_literal(k)}: {_literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        items = ", ".join(_literal(item) for item in value)
        return f"[{items}]" if isinstance(value, list) else f"({items}{',' if len(value) == 1 else ''})"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "1e999" if value > 0 else "-1e999"
    if isinstance(value, float) and value != value:
        raise ValueError("no literal for NaN")
    if value is None or isinstance(value, str | int | float):  # bool is an int
        return repr(value)
    raise ValueError(f"no literal for {type(value).__name__}")
