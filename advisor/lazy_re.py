"""Regular expressions compiled on first use, not at import.

`re` compiles in Python (~0.1-0.7 ms a pattern here), and a module's patterns were all compiled
when it was imported, though a one-file lint uses few of them: a secret's patterns only when a
file holds one, a format's only when a file is of it. `compile` returns a stand-in that compiles
on the first attribute asked of it, then keeps the compiled pattern's methods as its own, so
later calls cost what a compiled pattern's do.
"""

from __future__ import annotations

import re
import sys
from types import ModuleType

from advisor import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

# What a stand-in takes over from its compiled pattern on first use.
_ATTRIBUTES = ("match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer", "pattern", "flags",
               "groups", "groupindex")  # fmt: skip


class _OnFirstUse:
    def __init__(self, source: str, flags: int) -> None:
        self._source = source
        self._flags = flags

    def __getattr__(self, name: str) -> Any:  # only for what the instance does not hold yet
        if name.startswith("__"):
            raise AttributeError(name)
        compiled = re.compile(self._source, self._flags)
        for attribute in _ATTRIBUTES:
            setattr(self, attribute, getattr(compiled, attribute))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy_re.compile({self._source!r}, {self._flags!r})"


def compile(source: str, flags: int = 0) -> re.Pattern[str]:
    """A pattern as `re.compile` gives it, compiled when first used."""
    return _OnFirstUse(source, flags)  # type: ignore[return-value]  # answers as one


def import_package(name: str) -> ModuleType:
    """Import a library whose import compiles patterns it may never use, with those of its own
    modules compiled on first use: PyYAML's reader compiles a Unicode class (~5 ms) that the C
    loader never runs, and its resolver a dozen patterns of which a file needs a few. Patterns
    compiled by any other module (a standard module the library imports) stay as they are."""
    if name in sys.modules:
        return sys.modules[name]
    real = re.compile

    def compile_for(source: Any, flags: int = 0) -> Any:
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if isinstance(source, str) and (caller == name or caller.startswith(f"{name}.")):
            return _OnFirstUse(source, flags)
        return real(source, flags)

    re.compile = compile_for  # type: ignore[assignment]
    try:
        return __import__(name)
    finally:
        re.compile = real
