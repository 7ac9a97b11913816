"""advisor/named_tuple.py builds the same classes typing.NamedTuple does, without compiling
annotations."""

from __future__ import annotations

import pickle
import typing

import pytest

from advisor.named_tuple import NamedTuple


class Ours(NamedTuple):
    """A point."""

    x: int
    label: str | None = None
    tags: tuple[str, ...] = ()
    LIMIT = 3  # a constant, not a field

    def shown(self) -> str:
        return f"{self.x}:{self.label}"


class Typing(typing.NamedTuple):
    """A point."""

    x: int
    label: str | None = None
    tags: tuple[str, ...] = ()
    LIMIT = 3

    def shown(self) -> str:
        return f"{self.x}:{self.label}"


def test_it_behaves_as_typing_s_named_tuple() -> None:
    ours, theirs = Ours(1, "a"), Typing(1, "a")
    assert tuple(ours) == tuple(theirs) and ours == theirs and hash(ours) == hash(theirs)
    assert Ours._fields == Typing._fields and Ours._field_defaults == Typing._field_defaults
    assert repr(ours) == repr(theirs).replace("Typing", "Ours")
    assert ours._replace(x=2) == theirs._replace(x=2) and ours._asdict() == theirs._asdict()
    assert Ours._make([5, "b", ()]) == Typing._make([5, "b", ()]) and ours.shown() == theirs.shown() == "1:a"
    assert Ours.LIMIT == 3 and "LIMIT" not in Ours._fields and Ours.__doc__ == "A point."
    assert (Ours.__module__, Ours.__qualname__) == (__name__, "Ours")
    assert pickle.loads(pickle.dumps(ours)) == ours and type(pickle.loads(pickle.dumps(ours))) is Ours
    assert list(Ours.__annotations__) == ["x", "label", "tags"]  # as written, uncompiled
    with pytest.raises(TypeError):
        Ours()  # x has no default, as with typing


def test_it_refuses_what_typing_refuses() -> None:
    with pytest.raises(TypeError, match="non-default"):

        class Misordered(NamedTuple):
            a: int = 1
            b: int

    with pytest.raises(AttributeError, match="_replace"):

        class Overwrites(NamedTuple):
            a: int

            def _replace(self, **changes: object) -> None: ...


def test_every_module_defining_one_writes_its_annotations_as_strings() -> None:
    """The class reads its fields from the body's `__annotations__`, which `from __future__ import
    annotations` keeps a plain dict of strings on every Python (3.14 evaluates other annotations
    lazily, through `__annotate__`, and a body would show no fields)."""
    from pathlib import Path

    package = Path(__file__).resolve().parents[2] / "advisor"
    users = [p for p in package.rglob("*.py") if "from advisor.named_tuple import NamedTuple" in p.read_text()]
    assert len(users) > 20
    missing = [str(p) for p in users if "from __future__ import annotations" not in p.read_text()]
    assert not missing, missing


def test_from_values_makes_what_the_class_makes() -> None:
    """The hot paths' records (spans, locations) made from a tuple of every field are the
    records the class's own constructor makes: equal, of the class, with its fields and methods."""
    from advisor.model.provenance import Location
    from advisor.named_tuple import from_values
    from advisor.sources.spans import LineIndex, Span

    span = from_values(Span, (2, 3, 2, 9, 14, 20))
    assert type(span) is Span and span == Span(2, 3, 2, 9, 14, 20) and span.end_offset == 20
    location = span.at("a.yaml")
    assert type(location) is Location and location == Location("a.yaml", 2, 3, 2, 9, 14, 20)
    assert location.to_dict() == Location("a.yaml", 2, 3, 2, 9, 14, 20).to_dict()
    assert LineIndex("ab\ncd\r\nef").span(4, 8) == Span(2, 2, 3, 2, 4, 8)
    assert pickle.loads(pickle.dumps(location)) == location
