"""A shell command line split into words as `shlex.shlex(line, posix=True,
punctuation_chars=";&|")` with `whitespace_split` and `#` comments splits it — in time linear
in the line. shlex builds each token a character at a time (`token = token + char`), which is
quadratic in a token's length: one 2 MB word took 39 s. tests/lint/test_shell_words.py holds
the two to the same answers on the fixtures' scripts and on random lines of quotes, escapes,
separators and comments.
"""

from __future__ import annotations

import re

from advisor import lazy_re

# One piece of a word: plain characters, a '…' string, a "…" string, or an escaped character.
_PIECE = lazy_re.compile(r"""[^\s'"\\;&|#]+|'[^']*'|"(?:[^"\\]|\\.)*"|\\.""", re.DOTALL)
_SPACE = lazy_re.compile(r"[ \t\r\n]+")
_PUNCTUATION = lazy_re.compile(r"[;&|]+")
_ESCAPED_IN_DOUBLE_QUOTES = lazy_re.compile(r'\\([\\"])')
_OPEN_ESCAPE = lazy_re.compile(r'"(?:[^"\\]|\\.)*\\\Z', re.DOTALL)  # "… ending in an escape
_WORD_END = frozenset(" \t\r\n;&|#")


def split(line: str) -> list[str]:
    """The words of `line`; ValueError as shlex raises it for an open quote or a final `\\`."""
    words: list[str] = []
    position, size = 0, len(line)
    while position < size:
        space = _SPACE.match(line, position)
        if space:
            position = space.end()
            continue
        char = line[position]
        if char == "#":
            break  # a comment runs to the end of the line
        if char in ";&|":
            run = _PUNCTUATION.match(line, position)
            assert run is not None
            words.append(run.group())
            position = run.end()
            continue
        pieces: list[str] = []
        while position < size and line[position] not in _WORD_END:
            piece = _PIECE.match(line, position)
            if piece is None:
                if line[position] == "\\" or _OPEN_ESCAPE.match(line, position):
                    raise ValueError("No escaped character")
                raise ValueError("No closing quotation")
            text = piece.group()
            if text[0] == "'":
                pieces.append(text[1:-1])
            elif text[0] == '"':
                pieces.append(_ESCAPED_IN_DOUBLE_QUOTES.sub(r"\1", text[1:-1]))
            elif text[0] == "\\":
                pieces.append(text[1])
            else:
                pieces.append(text)
            position = piece.end()
        words.append("".join(pieces))
        if position < size and line[position] == "#":
            break  # shlex starts a comment even inside a word (a#b is a), unlike a shell
    return words
