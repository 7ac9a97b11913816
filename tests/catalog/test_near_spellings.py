"""The indexed near-spelling search answers exactly as difflib does, on the real vocabularies."""

from __future__ import annotations

import difflib
import random
import string

import pytest

from advisor import catalog
from advisor.catalog.near_spellings import NearSpellings


def _mutations(words: list[str], count: int, seed: int) -> list[str]:
    """Typos (a character replaced, dropped, inserted, swapped), prefixed words and unrelated keys."""
    chance = random.Random(seed)
    out = []
    for _ in range(count):
        letters = list(chance.choice(words))
        for _ in range(chance.randrange(1, 4)):
            at = chance.randrange(len(letters))
            kind = chance.randrange(4)
            if kind == 0:
                letters[at] = chance.choice(string.ascii_lowercase + ".")
            elif kind == 1 and len(letters) > 1:
                del letters[at]
            elif kind == 2:
                letters.insert(at, chance.choice("aeiou._"))
            elif at + 1 < len(letters):
                letters[at], letters[at + 1] = letters[at + 1], letters[at]
        out.append("".join(letters))
    out += [f"service.cache.region{i}.ttl.seconds" for i in range(0, 400, 37)]
    out += ["", "a", "x" * 300, "linger.ms", "LINGER.MS", "ümlaut.ß.key"]
    return out


VOCABULARIES = [("producer", "java"), ("broker", "java"), ("consumer", "librdkafka")]


@pytest.mark.parametrize(("component", "client"), VOCABULARIES)
@pytest.mark.parametrize("cutoff", [0.7, 0.8, 0.9])
def test_the_same_matches_as_difflib(component, client, cutoff) -> None:
    words = catalog.known_keys(component, client=client)
    near = NearSpellings(words)
    for word in _mutations(words, 120, seed=len(words)):
        assert near.close(word, n=3, cutoff=cutoff) == difflib.get_close_matches(word, words, n=3, cutoff=cutoff), word


def test_a_typo_is_found_and_an_application_key_is_not() -> None:
    near = NearSpellings(catalog.known_keys("producer"))
    assert near.close("linger.mss")[0] == "linger.ms"
    assert near.close("service.cache.region7.ttl.seconds") == []
