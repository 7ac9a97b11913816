"""Near spellings of a word among a fixed vocabulary, as `difflib.get_close_matches` finds
them, without comparing the word with every entry.

difflib tries each entry in turn (~2 ms a word against a client's few hundred keys), so a
client dict of tens of thousands of application keys took minutes. Here each entry is a bit
in an integer; a word's characters select, with a few integer operations per character, the
entries that share enough characters with it to pass difflib's own `quick_ratio` bound; only
those few go to difflib, which decides. The answer is therefore exactly difflib's.
"""

from __future__ import annotations

from collections import Counter
from math import floor


class NearSpellings:
    """A vocabulary indexed by length and by how many of each character its entries hold."""

    def __init__(self, words: list[str]) -> None:
        self._words = sorted(set(words), key=len)
        # length -> the entries of that length, as bits (entries sorted by length: contiguous).
        self._of_length: dict[int, int] = {}
        # (character, n) -> the entries holding the character at least n times, as bits.
        self._holding: dict[tuple[str, int], int] = {}
        for bit, word in enumerate(self._words):
            self._of_length[len(word)] = self._of_length.get(len(word), 0) | (1 << bit)
            for character, count in Counter(word).items():
                for n in range(1, count + 1):
                    self._holding[character, n] = self._holding.get((character, n), 0) | (1 << bit)
        self._rarity = {item: bits.bit_count() for item, bits in self._holding.items()}
        self._allowed: dict[tuple[int, float], list[tuple[int, int]]] = {}

    def close(self, word: str, n: int = 3, cutoff: float = 0.8) -> list[str]:
        """The same list as `difflib.get_close_matches(word, vocabulary, n, cutoff)`."""
        import difflib  # only for a key no release knows (a one-file lint need not import it)

        if not word or not self._words or not 0.0 < cutoff <= 1.0:
            return difflib.get_close_matches(word, self._words, n=n, cutoff=cutoff)
        candidates = self._candidates(word, cutoff)
        return difflib.get_close_matches(word, candidates, n=n, cutoff=cutoff) if candidates else []

    def _candidates(self, word: str, cutoff: float) -> list[str]:
        allowed = self._misses_allowed(len(word), cutoff)
        if not allowed:
            return []
        most = max(misses for _, misses in allowed)
        reachable = 0
        for bits, _ in allowed:
            reachable |= bits
        items = [(character, k) for character, count in Counter(word).items() for k in range(1, count + 1)]
        items.sort(key=lambda item: self._rarity.get(item, 0))  # rare first: the set empties sooner
        holding_of = self._holding
        # at_most[t]: entries that missed at most t of the word's characters so far.
        at_most = [reachable] * (most + 1)
        for item in items:
            holding = holding_of.get(item, 0)
            for t in range(most, 0, -1):
                at_most[t] = (at_most[t] & holding) | at_most[t - 1]
            at_most[0] &= holding
            if not at_most[most]:
                return []
        survivors = 0
        for bits, misses in allowed:
            survivors |= at_most[misses] & bits
        return [self._words[bit] for bit in range(survivors.bit_length()) if survivors >> bit & 1]

    def _misses_allowed(self, size: int, cutoff: float) -> list[tuple[int, int]]:
        """Per entry length (as its bits): how many of a word's characters an entry may miss.
        difflib's quick_ratio is 2*shared/(len(a)+len(b)), shared counting characters with
        their multiplicity."""
        known = self._allowed.get((size, cutoff))
        if known is None:
            known = [
                (bits, size - shared)
                for length, bits in self._of_length.items()
                if (shared := _fewest_shared(size, length, cutoff)) <= min(size, length)
            ]
            self._allowed[size, cutoff] = known
        return known


def _fewest_shared(size: int, other: int, cutoff: float) -> int:
    """The fewest shared characters for which difflib's float ratio reaches the cutoff."""
    total = size + other
    shared = max(0, floor(cutoff * total / 2) - 1)
    while 2.0 * shared / total < cutoff:
        shared += 1
    return shared
