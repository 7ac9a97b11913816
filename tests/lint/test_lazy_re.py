"""advisor/lazy_re.py: a pattern compiled on first use answers as the compiled pattern does."""

from __future__ import annotations

import re

import pytest

from advisor import lazy_re


def test_it_answers_every_call_as_re_compile_does() -> None:
    source, flags = r"(?P<key>[a-z.]+)\s*=\s*(?P<value>\S*)", re.IGNORECASE
    lazy, eager = lazy_re.compile(source, flags), re.compile(source, flags)
    text = "Linger.MS = 5\nacks=all\n"
    assert lazy.match(text).groupdict() == eager.match(text).groupdict()
    assert lazy.search(text, 5).span() == eager.search(text, 5).span()
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in eager.finditer(text)]
    assert lazy.findall(text) == eager.findall(text)
    assert lazy.sub(r"\g<key>", text) == eager.sub(r"\g<key>", text)
    assert lazy.subn("x", text) == eager.subn("x", text)
    assert lazy.split(text) == eager.split(text)
    assert lazy.fullmatch("a=b") is not None and lazy.fullmatch("a") is None
    assert (lazy.pattern, lazy.flags, lazy.groups, lazy.groupindex) == (eager.pattern, eager.flags, eager.groups,
                                                                         eager.groupindex)  # fmt: skip


def test_it_compiles_once_and_only_when_used(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[str] = []
    real = re.compile
    monkeypatch.setattr(re, "compile", lambda source, flags=0: compiled.append(source) or real(source, flags))
    pattern = lazy_re.compile("a+")
    assert compiled == []
    assert pattern.match("aa") and pattern.sub("b", "aa") == "b" and pattern.search("xa")
    assert compiled == ["a+"]


def test_a_bad_pattern_fails_when_used_as_re_would() -> None:
    pattern = lazy_re.compile("(unclosed")
    with pytest.raises(re.error):
        pattern.match("x")


def test_every_pattern_of_the_package_compiles() -> None:
    """A pattern is compiled only when used, so a broken one in a rarely run module would fail
    late: every module's patterns are compiled here."""
    import importlib
    import pkgutil

    import advisor

    found = 0
    for module_info in pkgutil.walk_packages(advisor.__path__, "advisor."):
        if module_info.name.startswith("advisor._built") or module_info.name == "advisor.__main__":
            continue
        module = importlib.import_module(module_info.name)
        for value in vars(module).values():
            if isinstance(value, lazy_re._OnFirstUse):
                assert value.pattern  # compiles it
                found += 1
    assert found > 50
