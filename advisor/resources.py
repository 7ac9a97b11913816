"""Where the data that ships with the package lives.

In a wheel the top-level ``rules/`` folder is packaged as ``advisor/rules/definitions``
(beside the rule engine's modules);
in a source checkout (including an editable install) it is the sibling of
the ``advisor`` package. Callers never need to know which.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def rules_dir() -> Path:
    packaged = _PACKAGE_DIR / "rules" / "definitions"
    if packaged.is_dir():
        return packaged
    checkout = _PACKAGE_DIR.parent / "rules"
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"rule definitions not found in {packaged} or {checkout}")


def rule_files() -> list[Path]:
    return sorted(rules_dir().glob("*.yaml"))


def rule_docs_dir() -> Path:
    """The generated rule pages (docs/rules/), packaged as advisor/docs/rules in a wheel."""
    packaged = _PACKAGE_DIR / "docs" / "rules"
    return packaged if packaged.is_dir() else _PACKAGE_DIR.parent / "docs" / "rules"
