"""Plain mutable records for every run's start-up path, instead of dataclasses: importing
`dataclasses` imports `inspect` (with ast, dis, tokenize), ~10 ms of a one-file lint, and each
dataclass execs generated methods when its module is imported. A record writes its own
`__init__`, whose parameters are its fields; this gives it a repr, `_replace` (as NamedTuple's)
and, for a `Value`, equality over the fields."""

from __future__ import annotations

from advisor import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, ClassVar, TypeVar

    _R = TypeVar("_R", bound="Record")


class Record:
    """Fields: its `__init__`'s parameters, in their order (the slots hold them, and a `__dict__`
    slot leaves room for cached properties)."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        code = getattr(cls.__init__, "__code__", None)  # none for a base that writes no __init__
        if code is not None:
            cls._fields = code.co_varnames[1 : code.co_argcount]

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({shown})"

    def _replace(self: _R, **changes: Any) -> _R:
        """A new record of these fields but `changes` (its __init__ runs: nothing cached is kept)."""
        unknown = set(changes).difference(self._fields)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(sorted(unknown))}")
        return type(self)(**{name: changes.get(name, getattr(self, name)) for name in self._fields})


class Value(Record):
    """A record equal to another of its type whose fields are all equal (so, mutable, unhashable)."""

    __slots__ = ()
    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self._fields)
