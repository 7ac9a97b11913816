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
