"""The cheap test that rules keys and lines out before the secret-key regex (secrets._may_be_secret)
never rules out what the regex would match — ASCII, mixed case, and the characters IGNORECASE
folds onto ASCII letters (the long s, the Kelvin sign) — so skipping the regex hides no secret."""

from __future__ import annotations

import random

from advisor.secrets import _SECRET, _may_be_secret, is_secret_key, secret_values


def test_the_prefilter_passes_everything_the_regex_matches() -> None:
    rnd = random.Random(20261201)
    alphabet = "paswodrkeytnijucflgbhPASWDKTJ._-\u017f\u212a\u0130\u0131\u00df"
    for _ in range(100_000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(2, 14)))
        if _SECRET.search(text):
            assert _may_be_secret(text), text


def test_a_folded_spelling_is_still_secret() -> None:
    key = "ssl.keystore.pa\u017f\u017fword"  # two long s: IGNORECASE reads them as "ss"
    assert is_secret_key(key)
    assert "hunter2-long" in secret_values(f"{key}=hunter2-long\n")


def test_hiding_many_texts_at_once_changes_what_hiding_each_changes() -> None:
    """Redactor.many looks for every secret in all the texts at once: it finds each text hiding
    changes — a secret at either end, twice, overlapping another, inside a URL's user info —
    and no other, whatever the texts around it."""
    from advisor.secrets import Redactor

    secrets = {"s3cr3t-one", "one-two", "hunter22", "x\0y-pass"}
    rnd = random.Random(20261202)
    words = ["s3cr3t-one", "one-two", "hunter22", "plain", "https://u:pw0rd@host:9092", "://", "", "x", "\0", "two"]
    for urls in (True, False):
        hide = Redactor(secrets, urls)
        for _ in range(2_000):
            texts = ["".join(rnd.choice(words) for _ in range(rnd.randint(0, 4))) for _ in range(rnd.randint(0, 6))]
            expected = {text: hide(text) for text in texts if hide(text) != text}
            assert hide.many(texts) == expected, texts
    assert Redactor(set(), False).many(["hunter22"]) == {}


def _every_line(text: str) -> set[str]:
    """secret_values as it was written first: every line looked at, every pattern tried."""
    from advisor import secrets as s

    found: set[str] = set()
    pending = 0
    for line in text.splitlines():
        found.update(m["secret"] for m in s._URL_CREDENTIALS.finditer(line))
        found.update(s._unquoted(m["value"]) for m in s._INLINE.finditer(line))
        found.update(s._unquoted(m["value"]) for m in s._FLAG.finditer(line))
        if s._SECRET.search(line):
            found.update(s._unquoted(m["value"]) for m in s._PAIR.finditer(line) if is_secret_key(m["key"]))
            assignment = s._ASSIGNMENT.match(line)
            if assignment and is_secret_key(assignment["key"]):
                found.add(s._unquoted(assignment["value"]))
        name = s._ENV_NAME.match(line)
        if name:
            pending = 3 if is_secret_key(name["name"]) else 0
        elif pending:
            pending -= 1
            value = s._ENV_VALUE.match(line)
            if value:
                found.add(s._unquoted(value["value"]))
                pending = 0
    for block in s._PEM.finditer(text):
        found.update(part.strip() for part in block["body"].split())
    return {value for value in found if s._worth_hiding(value)}


def test_the_lines_chosen_find_what_reading_every_line_finds() -> None:
    """secret_values tries each pattern only on lines holding what it needs: on every fixture,
    and on random texts of every line break str.splitlines knows, of characters whose case
    folding is longer than they are, and of env entries whose value comes lines after the name,
    it finds what trying every pattern on every line finds."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "fixtures"
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in sorted(root.rglob("*")) if p.is_file()]
    assert len(texts) > 100
    rnd = random.Random(20261203)
    pieces = ["- name: KAFKA_SSL_KEY_PASSWORD", "  value: s3cr3t-val", "name: TOKEN", "tokename: x", "value: v4lue-x",
              "password=hunter22", "ß", "İ", "ﬁ", "\u017f", "https://u:pw0rd@host", "  ", "x: y", "--password pw-pw-pw",
              "\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029", "sasl.jaas.config=a b=c;",
              "@", "x://a:b@c"]  # fmt: skip
    texts += ["".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 30))) for _ in range(5_000)]
    from advisor.secrets import _URL_CREDENTIALS, scan

    for text in texts:
        assert secret_values(text) == _every_line(text), text[:200]
        assert scan(text).urls == (_URL_CREDENTIALS.search(text) is not None), text[:200]
