"""`typing.NamedTuple`, defined at a third of its cost.

A lint defines ~40 NamedTuples at start-up, ~250 fields, ~11 ms of a one-file run: under
`from __future__ import annotations` every field's annotation is a string, and typing turns each
into a ForwardRef, compiling it. Nothing here reads annotations at run time, so this keeps them
as written and builds the class as typing does otherwise (collections.namedtuple, then the
class body's methods and constants). Type checkers see typing's own NamedTuple. Its modules
write `from __future__ import annotations` (tested), which keeps a class body's annotations a
dict of strings on every Python.
"""

from __future__ import annotations

from advisor import TYPE_CHECKING

# A NamedTuple given every field, made at C speed: `from_values(Span, (1, 2, ...))` is
# `Span(1, 2, ...)` without the class's __new__, Python code that maps arguments to fields — a
# frame per record, hundreds of thousands of them in a large run's spans and locations.
from_values = tuple.__new__

if TYPE_CHECKING:
    from typing import Any
    from typing import NamedTuple as NamedTuple
else:
    import collections

    # As typing: what a class body may not define, and what it defines that is not copied.
    _PROHIBITED = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults",
                             "_make", "_replace", "_asdict", "_source"})  # fmt: skip
    _SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})

    class _NamedTupleMeta(type):
        def __new__(cls, typename: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> type:
            if bases != (_Base,):
                raise TypeError("a NamedTuple inherits from NamedTuple alone")
            if "__annotations__" not in namespace and "__annotate__" in namespace:
                # Python 3.14+ evaluates annotations lazily unless the module says otherwise.
                raise TypeError(f"{typename}: its module needs `from __future__ import annotations`")
            annotations = namespace.get("__annotations__", {})
            defaults: list[Any] = []
            for field in annotations:
                if field in namespace:
                    defaults.append(namespace[field])
                elif defaults:
                    raise TypeError(f"non-default field {field} cannot follow default fields")
            built = collections.namedtuple(typename, annotations, defaults=defaults, module=namespace["__module__"])
            built.__annotations__ = built.__new__.__annotations__ = dict(annotations)
            for key, value in namespace.items():
                if key in _PROHIBITED:
                    raise AttributeError(f"cannot overwrite NamedTuple attribute {key}")
                if key not in _SPECIAL and key not in built._fields:
                    setattr(built, key, value)
            return built

    _Base = type.__new__(_NamedTupleMeta, "NamedTuple", (), {})

    class _Subclassed:
        """What `class Point(NamedTuple): x: int` names as its base (as typing's NamedTuple, a
        stand-in whose __mro_entries__ gives the real base)."""

        def __mro_entries__(self, bases: tuple[Any, ...]) -> tuple[type, ...]:
            return (_Base,)

    NamedTuple = _Subclassed()
