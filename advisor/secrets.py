"""Which values are secret. A secret value never appears in any output, log or report."""

from __future__ import annotations

import re

# Kafka's PASSWORD-typed keys end in .password or are JAAS configs; librdkafka and
# kafka-python spell them with underscores too. Tokens and key material likewise. Broad on
# purpose ("pass" also catches misspelled "pasword"): hiding too much is the safe error.
_SECRET = re.compile(
    r"(pass|pas+w|pwd|p[a-z]?s+w(or)?d|secret|jaas|token|credential|private|ssl[._]key[._]|keystore[._]key|"
    r"api[._-]?key|oauthbearer[._]config|signature|certificate[._]chain|truststore[._]certificates|"
    r"user[._-]?info)",
    re.IGNORECASE,
)
REDACTED = "[secret]"


def is_secret_key(key: str) -> bool:
    return bool(_SECRET.search(key))


# `key=value`, `key: value`, `KEY=value` at the start of a line (properties, YAML, env, shell).
_ASSIGNMENT = re.compile(
    r"^(?P<lead>\s*-?\s*[\"']?)(?P<key>[A-Za-z0-9_.\-\[\]]+)(?P<sep>[\"']?\s*[=:]\s*)(?P<value>.+)$"
)
# Secrets embedded in a value, e.g. a JAAS line: password="...", or --password x on a command line.
_INLINE = re.compile(
    r"(?P<key>(?:password|secret|token)[A-Za-z_]*\s*[=:]\s*)(?P<value>\"[^\"]*\"|'[^']*'|[^\s;,]+)", re.IGNORECASE
)


# Command-line flags that carry secrets: --password x, --sasl-password=x.
_FLAG = re.compile(r"(?P<flag>--[A-Za-z\-]*(?:password|secret|token)[A-Za-z\-]*(?:=|\s+))(?P<value>\S+)", re.IGNORECASE)


# Credentials in a URL's user info: `https://user:secret@registry`, `SASL_SSL://user:secret@host`.
_URL_CREDENTIALS = re.compile(r"(?P<lead>\b[A-Za-z][A-Za-z0-9+.\-_]*://[^:@/\s'\"]+:)(?P<secret>[^@/\s'\"]+)@")


def redact_line(line: str) -> str:
    """A source line safe to show: secret values replaced, keys kept."""
    line = _URL_CREDENTIALS.sub(lambda m: f"{m['lead']}{REDACTED}@", line)
    match = _ASSIGNMENT.match(line)
    if match and is_secret_key(match["key"]):
        return f"{match['lead']}{match['key']}{match['sep']}{REDACTED}"
    line = _INLINE.sub(lambda m: f"{m['key']}{REDACTED}", line)
    return _FLAG.sub(lambda m: f"{m['flag']}{REDACTED}", line)
