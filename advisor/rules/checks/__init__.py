"""Checks a JMESPath predicate cannot express, one module per domain. A check's one name is
`module:function` (registry.check_name), as rules write it in `python:`: a run imports only the
modules its rules name, and a module registers its checks when imported."""

from __future__ import annotations

import importlib
from pathlib import Path

from advisor import lazy_re

_NAME = lazy_re.compile(r"^([a-z_]+):[a-z_]+$")
_HERE = Path(__file__).resolve().parent


def module_of(name: str) -> str | None:
    """The module a check's name says holds it (None: no such module, or not module:function)."""
    match = _NAME.match(name)
    if match is None or not (_HERE / f"{match.group(1)}.py").is_file():
        return None
    return match.group(1)


def load(name: str) -> None:
    """Register the check `name` (import its module)."""
    module = module_of(name)
    if module is None:
        raise LookupError(f"no check {name!r}: a check is named module:function of advisor/rules/checks/")
    importlib.import_module(f"advisor.rules.checks.{module}")


def load_all() -> None:
    import pkgutil  # the docs' and rule validation's: a lint imports the modules its rules name

    for found in sorted(pkgutil.iter_modules([str(_HERE)]), key=lambda m: m.name):
        importlib.import_module(f"advisor.rules.checks.{found.name}")
