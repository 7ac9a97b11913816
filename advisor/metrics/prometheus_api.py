"""Prometheus HTTP API results: `/api/v1/query` (a vector) and `/api/v1/query_range` (a matrix),
from a saved response or asked of a server (`--prometheus URL`).

    {"status": "success", "data": {"resultType": "vector" | "matrix", "result": [
        {"metric": {"__name__": "...", "instance": "...", ...}, "value": [<unix seconds>, "<value>"]},
        {"metric": {...}, "values": [[<unix seconds>, "<value>"], ...]}]}}

Each result becomes samples of its `__name__` with its labels and times, so a saved range query
is a time series per node (Prometheus adds `instance` and `job`). A file is read with exact
spans (advisor/sources/json_reader.py): a finding points at the line of the value it judged.
An error body (`"status": "error"`), a scalar or string result, or a result without
`__name__` (an expression's result, which names no metric) is a clear error.
"""

from __future__ import annotations

import time
from typing import Any

from advisor.metrics.exposition import Sample
from advisor.metrics.inputs import Asking, Capture, fetch, shown_origin
from advisor.model.document import LoadError
from advisor.sources.limits import Limits

DEFAULT_WINDOW = 900.0  # seconds of history asked for with --prometheus
DEFAULT_STEP = 30.0


def is_api_result(head: str) -> bool:
    """Does this start of a JSON text read as a Prometheus API response? (Prometheus writes
    `status` first, then `data` with `resultType`.)"""
    start = head.lstrip("\ufeff \t\r\n")
    return start.startswith("{") and '"status"' in head and '"resultType"' in head


def _number(text: Any, path: str, line: int) -> float:
    try:
        value = float(text)  # Prometheus writes values as strings: "1", "NaN", "+Inf"
    except (TypeError, ValueError):
        raise LoadError(path, line, 'a sample value must be a number written as a string, e.g. "3"') from None
    return value


def _point(pair: Any, span_line: int, path: str) -> tuple[int, float]:
    if not isinstance(pair, list) or len(pair) != 2:
        raise LoadError(path, span_line, 'a sample must be [<unix seconds>, "<value>"]')
    seconds = _number(pair[0], path, span_line)
    if not 0 <= seconds < 1e11:  # NaN and infinities fail too
        raise LoadError(path, span_line, "a sample's time must be seconds since 1970")
    return round(seconds * 1000), _number(pair[1], path, span_line)


def samples(document: Any, path: str) -> list[Sample]:
    """The samples of one API response (as read by json_reader: Located mappings and lists)."""
    if not isinstance(document, dict):
        raise LoadError(path, 1, "a Prometheus API response is a JSON object with status and data")
    status = document.get("status")
    if status == "error":
        kind = str(document.get("errorType") or "error")[:40]
        said = str(document.get("error") or "")[:200]
        raise LoadError(path, 1, f"the response is a Prometheus error ({kind}: {said}), not a result")
    data = document.get("data")
    if status != "success" or not isinstance(data, dict):
        raise LoadError(path, 1, 'a Prometheus API response needs "status": "success" and a "data" object')
    kind = data.get("resultType")
    line = getattr(data, "line", 1)
    if kind not in ("vector", "matrix"):
        raise LoadError(path, line, f"resultType {kind!r} holds no series: a vector or matrix result is expected")
    results = data.get("result")
    if not isinstance(results, list):
        raise LoadError(path, line, "data.result must be a list of series")
    found: list[Sample] = []
    spans = getattr(results, "spans", None)
    for index, result in enumerate(results):
        where = spans[index].line if spans else 1
        metric = result.get("metric") if isinstance(result, dict) else None
        if not isinstance(metric, dict) or not isinstance(metric.get("__name__"), str):
            raise LoadError(path, where, "a result without metric.__name__ (an expression's result) names no metric;"
                            " query the series themselves")  # fmt: skip
        labels = tuple((str(k), str(v)) for k, v in metric.items() if k != "__name__")
        name = metric["__name__"]
        if kind == "vector":
            value_spans = getattr(result, "value_spans", {})
            value_line = value_spans["value"].line if "value" in value_spans else where
            stamp, value = _point(result.get("value"), value_line, path)
            found.append(Sample(name, labels, value, stamp, value_line))
            continue
        values = result.get("values")
        if not isinstance(values, list):
            raise LoadError(path, where, 'a matrix result needs values: [[<unix seconds>, "<value>"], ...]')
        value_spans = getattr(values, "spans", None)
        for position, pair in enumerate(values):
            pair_line = value_spans[position].line if value_spans else where
            stamp, value = _point(pair, pair_line, path)
            found.append(Sample(name, labels, value, stamp, pair_line))
    return found


def read_file(text: str, path: str) -> Capture:
    from advisor.sources import json_reader

    return Capture(path, None, samples(json_reader.read_json(text, path), path), True)


def query_range(
    base: str, names: frozenset[str], limits: Limits, window: float = DEFAULT_WINDOW, step: float = DEFAULT_STEP,
    timeout: float = 30.0, now: float | None = None,
) -> Capture:  # fmt: skip
    """Ask a Prometheus server for the last `window` seconds of every series the rules read: one
    range query, `{__name__=~"name|name|..."}` at `step`, sent as a form POST (the selector is
    long). LoadError naming the server when it cannot answer."""
    import json
    import urllib.parse

    origin = shown_origin(base)
    end = time.time() if now is None else now
    selector = '{__name__=~"' + "|".join(sorted(names)) + '"}'
    form = urllib.parse.urlencode({"query": selector, "start": f"{end - window:.3f}", "end": f"{end:.3f}",
                                   "step": f"{step:g}"}).encode()  # fmt: skip
    asking = Asking("a Prometheus server", "the server", "queried", "file-bytes")
    # The scheme is checked on the server's address: the path added here cannot change it.
    url = base.rstrip("/") + "/api/v1/query_range"
    body = fetch(url, asking, limits.file_bytes, timeout, form, json_errors=True, origin=origin)
    try:
        document = json.loads(body)
    except (ValueError, RecursionError):  # a hostile server's answer nested past the parser's depth
        raise LoadError(origin, None, "the server did not answer with JSON: is this a Prometheus server?") from None
    found = samples(document, origin)
    return Capture(origin, None, [s._replace(line=0) for s in found], False)


def alerting_rules(base: str, limits: Limits, timeout: float = 30.0) -> tuple[str, list[tuple[str, str]]]:
    """A Prometheus server's loaded alerting rules (`/api/v1/rules?type=alert`): (the server as
    shown, [(alert name, expression)]). LoadError naming the server when it cannot answer."""
    import json

    origin = shown_origin(base)
    asking = Asking("a Prometheus server", "the server", "asked for its rules", "file-bytes")
    body = fetch(base.rstrip("/") + "/api/v1/rules?type=alert", asking, limits.file_bytes, timeout, json_errors=True,
                 origin=origin)  # fmt: skip
    try:
        document = json.loads(body)
    except (ValueError, RecursionError):
        raise LoadError(origin, None, "the server did not answer with JSON: is this a Prometheus server?") from None
    if not isinstance(document, dict):
        raise LoadError(origin, None, "the server did not answer as Prometheus does: is this a Prometheus server?")
    data = document.get("data")
    groups = data.get("groups") if isinstance(data, dict) else None
    if document.get("status") != "success" or not isinstance(groups, list):
        raise LoadError(origin, None, f"the server did not list its rules ({str(document.get('error', ''))[:200]})")
    found = []
    for group in groups:
        for rule in group.get("rules", []) if isinstance(group, dict) else ():
            if isinstance(rule, dict) and rule.get("type") == "alerting" and isinstance(rule.get("query"), str):
                found.append((str(rule.get("name", "")), rule["query"]))
    return origin, found
