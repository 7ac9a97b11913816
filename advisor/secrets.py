"""Which values are secret. A secret value never appears in any output, log or report."""

from __future__ import annotations

import bisect
import itertools
import re
from functools import lru_cache

from advisor import lazy_re
from advisor.named_tuple import NamedTuple

# Kafka's PASSWORD-typed keys end in .password or are JAAS configs; librdkafka and
# kafka-python spell them with underscores too. Tokens and key material likewise (an Azure
# storage account key or connection string: the Zeebe broker's backup store). Broad on
# purpose ("pass" also catches misspelled "pasword"): hiding too much is the safe error.
_SECRET = lazy_re.compile(
    r"(pass|pas+w|pwd|p[a-z]?s+w(or)?d|secret|jaas|token|credential|private|ssl[._]key[._]|keystore[._]key|"
    r"api[._-]?key|oauthbearer[._]config|signature|certificate[._]chain|truststore[._]certificates|"
    r"user[._-]?info|account[._-]?key|connection[._-]?string)",
    re.IGNORECASE,
)
REDACTED = "[secret]"


# Words one of which every match of _SECRET contains (lower-cased): a few substring tests rule
# most keys and lines out before the regex, which is slow with IGNORECASE and many branches.
_SECRET_WORDS = ("pas", "pwd", "sw", "secret", "jaas", "token", "credential", "private", "ssl", "keystore", "api",
                 "oauthbearer", "signature", "certificate", "truststore", "user", "account",
                 "connection")  # fmt: skip


_ANY_SECRET_WORD = lazy_re.compile("|".join(map(re.escape, _SECRET_WORDS)))  # one scan, not one per word


def _may_be_secret(text: str) -> bool:
    # Folded as IGNORECASE matches: the long s (U+017F) is an "s", the Kelvin sign a "k".
    return _ANY_SECRET_WORD.search(text.casefold()) is not None


# A key that names where a secret is kept, not the secret: a Kubernetes Secret's name or a
# reference to one (tls.secretName, existingSecret, secretKeyRef, tokenSecretName). Its value is an
# object's name every chart shows; hiding it would garble every report that names the object.
_SECRET_REFERENCE = lazy_re.compile(r"(?:secretname|secretref|secretkeyref|^existingsecret\w*)$")


@lru_cache(maxsize=16_384)  # the same few hundred key names, file after file
def is_secret_key(key: str) -> bool:
    if not (_may_be_secret(key) and _SECRET.search(key)):
        return False
    return not _reference(key)


def _reference(key: str) -> bool:
    """A key (or an inline `key:`/`key=` prefix) that names a Kubernetes Secret or refers to one."""
    last = key.rstrip(" \t=:").replace("-", "").replace("_", "").casefold().rsplit(".", 1)[-1]
    return _SECRET_REFERENCE.search(last) is not None


# `key=value`, `key: value`, `KEY=value` at the start of a line (properties, YAML, env, shell).
_ASSIGNMENT = lazy_re.compile(
    r"^(?P<lead>\s*-?\s*[\"']?)(?P<key>[A-Za-z0-9_.\-\[\]]+)(?P<sep>[\"']?\s*[=:]\s*)(?P<value>.+)$"
)
# Secrets embedded in a value, e.g. a JAAS line: password="...", or --password x on a command line.
_INLINE = lazy_re.compile(
    r"(?P<key>(?:password|secret|token)[A-Za-z_]*\s*[=:]\s*)(?P<value>\"[^\"]*\"|'[^']*'|[^\s;,]+)", re.IGNORECASE
)


_INLINE_WORDS = ("password", "secret", "token")  # one of which every match of _INLINE and _FLAG holds
# Command-line flags that carry secrets: --password x, --sasl-password=x.
_FLAG = lazy_re.compile(
    r"(?P<flag>--[A-Za-z\-]*(?:password|secret|token)[A-Za-z\-]*(?:=|\s+))(?P<value>\S+)", re.IGNORECASE
)


# Credentials in a URL's user info: `https://user:secret@registry`, `SASL_SSL://user:secret@host`.
_URL_CREDENTIALS = lazy_re.compile(r"(?P<lead>\b[A-Za-z][A-Za-z0-9+.\-_]*://[^:@/\s'\"]+:)(?P<secret>[^@/\s'\"]+)@")


def redact_line(line: str) -> str:
    """A source line safe to show: secret values replaced, keys kept."""
    if "://" in line and "@" in line:
        line = _URL_CREDENTIALS.sub(lambda m: f"{m['lead']}{REDACTED}@", line)
    match = _ASSIGNMENT.match(line)
    if match and is_secret_key(match["key"]):
        return f"{match['lead']}{match['key']}{match['sep']}{REDACTED}"
    folded = line.casefold()  # as IGNORECASE matches (see _may_be_secret): never fewer lines than the patterns
    if not any(word in folded for word in _INLINE_WORDS):
        return line
    line = _INLINE.sub(lambda m: m[0] if _reference(m["key"]) else f"{m['key']}{REDACTED}", line)
    return _FLAG.sub(lambda m: f"{m['flag']}{REDACTED}", line) if "--" in line else line


# ---------------------------------------------------------------- secret values, by context


# Secret values by context (compiled when first needed: most runs need none of them).
# `key: value` / `key=value` / `"key": "value"` anywhere in a line: flow-style YAML maps
# (`environment: {KAFKA_SSL_KEY_PASSWORD: x}`), JSON, TOML, `- KEY=value`.
_PAIR = lazy_re.compile(
    r"(?P<key>[A-Za-z0-9_.\-\[\]]+)[\"']?\s*[=:]\s*(?P<value>\"(?:[^\"\\]|\\.)*\"|'[^']*'|[^\s,;{}\[\]\"']+)"
)
# Kubernetes/Helm env entries: `name: KAFKA_CFG_SSL_KEYSTORE_PASSWORD` then `value: x`.
_ENV_NAME = lazy_re.compile(r"^\s*-?\s*name:\s*[\"']?(?P<name>[A-Za-z0-9_.\-]+)")
_ENV_VALUE = lazy_re.compile(r"^\s*value:\s*(?P<value>.+?)\s*$")
_PEM = lazy_re.compile(r"-----BEGIN [A-Z ]*(?:PRIVATE KEY|CERTIFICATE)-----(?P<body>.*?)-----END", re.DOTALL)


def _starts_with_name(line: str) -> bool:
    """What _ENV_NAME needs before it: `name:` after blanks and at most one dash (a `hostname:`
    line, common in compose files, is no env entry and compiles nothing)."""
    rest = line.lstrip()
    return (rest[1:].lstrip() if rest.startswith("-") else rest).startswith("name:")


# Values never scrubbed from a whole report: no secret, or (the product names) words every report
# prints anyway — the tool's name, rule texts, key names — where hiding a password that equals one
# would garble the report and hide nothing. The line that sets such a password still shows
# `[secret]`: a secret key's value is hidden by its key (redact_line, Setting.secret).
_NOT_SECRET = frozenset({"true", "false", "null", "none", "[secret]", "kafka", "camunda", "zeebe"})
MIN_SECRET_LENGTH = 4  # shorter values are not hidden elsewhere in a report: "1" would garble it


def _unquoted(value: str) -> str:
    value = value.strip().rstrip(",;")
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def _worth_hiding(value: str) -> bool:
    """A value to hide wherever it shows: long enough to be a secret and not a reference to
    one (`${KEYSTORE_PASSWORD}`, `{{ .Values.password }}` say where a secret is, not what)."""
    return (
        len(value) >= MIN_SECRET_LENGTH and value.lower() not in _NOT_SECRET and not value.startswith(("$", "{{", "<%"))
    )


def secret_values(text: str) -> set[str]:
    """Every value in `text` that is secret by its key, its shape or its context: found once
    per input file, then hidden wherever a report shows it (Redactor)."""
    return set(scan(text).values)


class Scanned(NamedTuple):
    """What one input text holds that no output may show: its secret values, and whether it
    has a URL with credentials (hidden by shape wherever one shows)."""

    values: frozenset[str]
    urls: bool


def scan(text: str) -> Scanned:
    """A text's secret values, and whether a URL in it holds credentials, in one pass."""
    set_entries = _set_entry_secrets(text) if "name" in text and _HCL_NAME.search(text) else set()
    folded_text = text.casefold()  # as IGNORECASE matches (see _may_be_secret)
    if not any(word in folded_text for word in _SECRET_WORDS) and "://" not in text and "-----BEGIN" not in text:
        if set_entries:
            return Scanned(frozenset(value for value in set_entries if _worth_hiding(value)), False)
        return _NOTHING  # no secret-looking key, no URL, no PEM block: most files, at C speed
    urls = False  # a URL with credentials: a match cannot span lines ([^…\s]), so the lines tell
    found: set[str] = set()
    lines = text.splitlines()
    pending_env_secret = 0  # lines left in which a `value:` belongs to a secret `name:`
    # Only the lines holding what a pattern needs (a URL's "://", a secret word, "name:" and the
    # lines after it) are looked at, found in the whole text at once: the same finds as looking
    # at every line (tested), at a fraction of the cost.
    for index, has_word in _lines_to_read(folded_text, len(lines)):
        line = lines[index]
        if "://" in line and "@" in line:
            for match in _URL_CREDENTIALS.finditer(line):
                found.add(match["secret"])
                urls = True
        if has_word:  # a secret word in the folded line: what every pattern below needs
            folded = line.casefold()
            if "password" in folded or "secret" in folded or "token" in folded:
                for match in _INLINE.finditer(line):
                    if not _reference(match["key"]):
                        found.add(_unquoted(match["value"]))
                if "--" in line:
                    for match in _FLAG.finditer(line):
                        found.add(_unquoted(match["value"]))
            if ("=" in line or ":" in line) and _SECRET.search(line):  # a secret key, and what pairs and assigns need
                for match in _PAIR.finditer(line):
                    if is_secret_key(match["key"]):
                        found.add(_unquoted(match["value"]))
                assignment = _ASSIGNMENT.match(line)
                if assignment and is_secret_key(assignment["key"]):
                    found.add(_unquoted(assignment["value"]))
        name = _ENV_NAME.match(line) if "name:" in line and _starts_with_name(line) else None
        if name:
            pending_env_secret = 3 if is_secret_key(name["name"]) else 0
        elif pending_env_secret:
            pending_env_secret -= 1
            value = _ENV_VALUE.match(line)
            if value:
                found.add(_unquoted(value["value"]))
                pending_env_secret = 0
    for block in _PEM.finditer(text) if "-----BEGIN" in text else ():
        found.update(part.strip() for part in block["body"].split())
    found |= set_entries
    return Scanned(frozenset(value for value in found if _worth_hiding(value)), urls)


# A Terraform helm_release's set entries: `set { name = "a.password" value = "x" }`, or the
# provider's list form `set = [{ name = "…", value = "…" }]`; every value of a set_sensitive one.
_HCL_NAME = lazy_re.compile(r"name\s*=\s*\"")  # no \b first: a literal start is searched for at C speed
_HCL_ENTRY = lazy_re.compile(r"\{(?P<body>[^{}]*\bname\s*=[^{}]*)\}")
_HCL_ENTRY_NAME = lazy_re.compile(r"\bname\s*=\s*\"(?P<name>[^\"\n]*)\"")
_HCL_ENTRY_VALUE = lazy_re.compile(
    r"\bvalue\s*=\s*(?:\"(?P<quoted>(?:[^\"\\\n]|\\.)*)\"|<<-?(?P<marker>\w+)\n(?P<body>.*?)\n[ \t]*(?P=marker)\b"
    r"|(?P<bare>[^\s,}]+))",
    re.DOTALL,
)
_HCL_SET_KIND = lazy_re.compile(r"\b(set|set_sensitive|set_list|set_string)\s*(?:=\s*\[|\{)")


def _set_entry_secrets(text: str) -> set[str]:
    """The values of a helm_release's set entries that are secret: by their name, or all of a
    set_sensitive's (its values are secret whatever they are called)."""
    found: set[str] = set()
    for entry in _HCL_ENTRY.finditer(text):
        body = entry["body"]
        name, value = _HCL_ENTRY_NAME.search(body), _HCL_ENTRY_VALUE.search(body)
        if name is None or value is None:
            continue
        kinds = _HCL_SET_KIND.findall(text, max(0, entry.start() - 4096), entry.start() + 1)
        if not (is_secret_key(name["name"]) or (kinds and kinds[-1] == "set_sensitive")):
            continue
        if value["body"] is not None:
            found.update(line.strip() for line in value["body"].splitlines() if line.strip())
        elif value["quoted"] is not None:  # a bare value is an expression (var.x): no secret written here
            found.add(value["quoted"])
    return found


_NOTHING = Scanned(frozenset(), False)


def _lines_to_read(folded_text: str, count: int) -> list[tuple[int, bool]]:
    """The lines a pattern may match in, in order: (index as str.splitlines counts them, whether
    the case-folded line holds a secret word) for each line holding a secret word or "://", or
    "name:" and the three lines after it, where a secret env entry's `value:` may follow. Each
    is looked for with str.find over the whole folded text: a regex of them all is several
    times slower. Casefolding never makes or removes a line break (nor does a word or "://" hold
    one); were the count ever to differ, every line is read."""
    folded_lines = folded_text.splitlines(keepends=True)
    if len(folded_lines) != count:
        return [(index, True) for index in range(count)]
    starts = list(itertools.accumulate(map(len, folded_lines[:-1]), initial=0))
    chosen: dict[int, bool] = {}
    for needle in _SECRET_WORDS:
        at = folded_text.find(needle)
        while at != -1:
            chosen[bisect.bisect_right(starts, at) - 1] = True
            at = folded_text.find(needle, at + 1)
    for needle, following in (("://", 0), ("name:", 3)):
        at = folded_text.find(needle)
        while at != -1:
            line = bisect.bisect_right(starts, at) - 1
            for index in range(line, min(line + following + 1, count)):
                chosen.setdefault(index, False)
            at = folded_text.find(needle, at + 1)
    return sorted(chosen.items())


_WORDS = lazy_re.compile(r"[a-z]+(?:-[a-z]+)*")


def is_word(value: str) -> bool:
    """A value of lower-case words only (`connector`, `web-modeler`): a name's part as often as a secret."""
    return _WORDS.fullmatch(value) is not None


_WORD_TOKEN = r"(?<![A-Za-z0-9_./-]){}(?![A-Za-z0-9_/-])"  # a sentence's full stop may follow


class Redactor:
    """Hides known secret values (and the secret shapes redact_line knows) in any text a
    report shows: the one layer every output goes through (advisor/report/redaction.py)."""

    def __init__(
        self, values: set[str], urls_with_credentials: bool = True, spared: frozenset[str] = frozenset()
    ) -> None:
        # `spared`: lower-case words the tool's own texts use (a rule's "password", "broker"): a
        # dev password equal to one is hidden where it is set, not scrubbed from the tool's sentences.
        kept = sorted((v for v in values if _worth_hiding(v) and v not in spared), key=len, reverse=True)
        self._values = kept
        # A value of lower-case words (`connector`, `web-modeler`) is hidden where it stands as a
        # token of its own; inside a longer name (`connectors`, `camunda/web-modeler-restapi`) it
        # is that name's part, not the secret, and hiding it would garble the report. Any other
        # value (digits, capitals, symbols: what a real secret holds) is hidden wherever it shows.
        alternatives = [_WORD_TOKEN.format(re.escape(v)) if is_word(v) else re.escape(v) for v in kept]
        self._pattern = re.compile("|".join(alternatives)) if kept else None
        self._urls = urls_with_credentials

    @property
    def empty(self) -> bool:
        """Nothing to hide: no secret value in the input, and no URL with credentials (a short
        URL password is hidden by its shape, not as a value)."""
        return self._pattern is None and not self._urls

    def many(self, texts: list[str]) -> dict[str, str]:
        """The texts among these that hiding changes, each with what __call__ makes of it. A
        regex of many secrets is slow to run over every text of a large report, so each secret
        (and a URL's "://") is first looked for in all of them at once, at the speed of
        str.find, and only the texts it is found in are hidden one by one."""
        if self.empty or not texts:
            return {}
        joined = "\0".join(texts)
        starts = list(itertools.accumulate((len(text) + 1 for text in texts[:-1]), initial=0))
        found: set[int] = set()
        for needle in [*self._values, "://"]:  # __call__ hides a URL's credentials whatever _urls says
            at = joined.find(needle)
            while at != -1:
                found.add(bisect.bisect_right(starts, at) - 1)
                at = joined.find(needle, at + 1)
        changed = {}
        for index in sorted(found):
            text = texts[index]
            hidden = self(text)
            if hidden != text:
                changed[text] = hidden
        return changed

    def __call__(self, text: str) -> str:
        if not text:
            return text
        if self._pattern is not None:
            text = self._pattern.sub(REDACTED, text)
        if "://" in text:
            text = _URL_CREDENTIALS.sub(lambda m: f"{m['lead']}{REDACTED}@", text)
        return text
