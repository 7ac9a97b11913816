"""Where metrics come from: exposition files and exporter endpoints, read into Captures.

A Capture is what one read gave: its origin (a path, or an endpoint with any credentials in
its address hidden), the time of a scrape, and the samples of the families the rules read.
Files are streamed line by line (limits.metric_bytes bounds the time a file may cost, the
line length and limits.metric_points the memory); an endpoint's body is bounded the same way.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO
from urllib.parse import unquote, urlsplit, urlunsplit

from advisor import lazy_re
from advisor.metrics import columns, exposition
from advisor.model.document import LoadError
from advisor.named_tuple import NamedTuple
from advisor.sources.limits import Limits

_SAMPLE = lazy_re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})?[ \t]+[-+0-9.eEInfNa]+([ \t]+-?\d+)?\s*\Z")
SNIFF_LINES = 20


class Capture(NamedTuple):
    origin: str
    time: float | None  # when an endpoint was scraped; None for a file (its samples may say)
    samples: list[exposition.Sample]
    is_file: bool
    gathered: columns.Gathered | None = None  # the lines of high-cardinality metrics taken as read, no sample made


def is_exposition(head: str) -> bool:
    """Does this start of a text read as Prometheus exposition? `# HELP`/`# TYPE` lines, or
    lines that are all `name{labels} number` with at least one label set or underscore — a
    `.properties` line `key value` has dots in its key or no number after it."""
    seen = 0
    for line in head.splitlines()[:SNIFF_LINES]:
        line = line.strip()
        if not line:
            continue
        if line.startswith(("# HELP ", "# TYPE ")):
            return True
        if line.startswith("#"):
            continue
        if not _SAMPLE.match(line):
            return False
        seen += "{" in line or "_" in line.split()[0]
    return seen > 0


def shown_origin(url: str) -> str:
    """An endpoint as every output shows it: user and password in its address replaced."""
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    return urlunsplit((parts.scheme, "***@" + parts.netloc.rpartition("@")[2], parts.path, parts.query, ""))


def request_for(url: str):  # type: ignore[no-untyped-def]
    """An HTTP request for an address; credentials in it are HTTP basic auth (as Prometheus's
    basic_auth), sent in a header — never in the address urllib would try to resolve, never shown."""
    import base64
    import urllib.request

    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return urllib.request.Request(url)
    host = parts.netloc.rpartition("@")[2]
    request = urllib.request.Request(urlunsplit((parts.scheme, host, parts.path, parts.query, "")))
    pair = f"{unquote(parts.username or '')}:{unquote(parts.password or '')}".encode()
    request.add_header("Authorization", "Basic " + base64.b64encode(pair).decode("ascii"))
    return request


class Asking(NamedTuple):
    """How an address is named in the errors of one kind of request."""

    kind: str  # "a metrics endpoint"
    noun: str  # "the endpoint"
    verb: str  # "scraped"
    limit: str  # the limit's name in [limits]


def fetch(
    url: str, asking: Asking, limit: int, timeout: float, form: bytes | None = None, json_errors: bool = False,
    origin: str | None = None,
) -> bytes:  # fmt: skip
    """An http(s) GET (a form POST with `form`), at most `limit` bytes; LoadError naming the
    address (credentials hidden) otherwise. `json_errors`: an error status with a JSON body is
    returned as the body (a Prometheus server explains its errors there)."""
    import urllib.error
    import urllib.request

    origin = origin or shown_origin(url)
    if urlsplit(url).scheme not in ("http", "https"):
        raise LoadError(origin, None, f"{asking.kind} must be an http:// or https:// address")
    try:
        request = request_for(url)
        if form is not None:
            request.data = form
            request.add_header("Content-Type", "application/x-www-form-urlencoded")
        with urllib.request.urlopen(request, timeout=timeout) as response:  # the scheme is checked above
            body = response.read(limit + 1)
    except urllib.error.HTTPError as error:
        body = error.read(limit + 1) if json_errors else b""
        if not body.lstrip().startswith(b"{"):
            raise LoadError(origin, None, f"{asking.noun} answered HTTP {error.code}") from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", None) or getattr(error, "strerror", None) or type(error).__name__
        raise LoadError(origin, None, f"cannot be {asking.verb}: {reason}") from None
    if len(body) > limit:
        raise LoadError(origin, None, f"answered more than {limit:,} bytes (limits.{asking.limit})")
    return body


def bounded_lines(stream: IO[str], path: str, limits: Limits) -> Iterator[str]:
    """The stream's lines, each at most limits.line_chars, the whole at most limits.metric_bytes."""
    total = 0
    number = 0
    readline = stream.readline
    limit = limits.line_chars + 1
    while True:
        line = readline(limit)
        if not line:
            return
        number += 1
        total += len(line)
        if len(line) >= limit and not line.endswith("\n"):
            raise LoadError(path, number, f"line longer than {limits.line_chars:,} characters (limits.line-chars)")
        if total > limits.metric_bytes:
            raise LoadError(path, number, f"more than {limits.metric_bytes:,} characters (limits.metric-bytes)")
        yield line


def _samples(
    lines: Iterator[str], origin: str, wanted: frozenset[str], limits: Limits, gathered: columns.Gathered
) -> tuple[list[exposition.Sample], columns.Gathered]:
    """The wanted samples, and the lines of high-cardinality metrics taken into columns as read."""
    samples: list[exposition.Sample] = []
    for sample in exposition.parse(lines, origin, wanted, take=gathered.take):
        samples.append(sample)
        if len(samples) + gathered.count > limits.metric_points:
            raise LoadError(origin, sample.line, f"more than {limits.metric_points:,} samples (limits.metric-points)")
    if len(samples) + gathered.count > limits.metric_points:
        raise LoadError(origin, None, f"more than {limits.metric_points:,} samples (limits.metric-points)")
    return samples, gathered


def read_file(path: Path, wanted: frozenset[str], limits: Limits, paired: bool = True) -> Capture:
    """An exposition file's wanted samples; LoadError (path:line) when it cannot be read.
    `paired`: other files are read beside it (targets.py may compare their series)."""
    origin = str(path)
    try:
        with path.open(encoding="utf-8", errors="replace", newline="") as stream:
            lines = bounded_lines(stream, origin, limits)
            samples, gathered = _samples(lines, origin, wanted, limits, columns.Gathered(paired, file=True))
            return Capture(origin, None, samples, True, gathered)
    except OSError as error:
        raise LoadError(origin, None, f"cannot be read: {error.strerror or type(error).__name__}") from None


def scrape(url: str, wanted: frozenset[str], limits: Limits, timeout: float = 10.0) -> Capture:
    """One scrape of an exporter endpoint (http or https); LoadError naming the endpoint when it
    does not answer with exposition text."""
    import io

    origin = shown_origin(url)
    started = time.time()
    asking = Asking("a metrics endpoint", "the endpoint", "scraped", "metric-bytes")
    body = fetch(url, asking, limits.metric_bytes, timeout)
    text = body.decode("utf-8", errors="replace")
    if not is_exposition(text[:8192]):
        raise LoadError(origin, None, "the endpoint did not answer with Prometheus text exposition")
    lines = bounded_lines(io.StringIO(text, newline=""), origin, limits)
    samples, gathered = _samples(lines, origin, wanted, limits, columns.Gathered(digest=False, file=False))
    return Capture(origin, started, samples, False, gathered)
