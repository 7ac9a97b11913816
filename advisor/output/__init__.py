"""Formatters: each renders a report and decides nothing.

`render(report, fmt, options)` is the one entry point for every command. A report says its kind
(`KIND`: a lint or analyze Report, a recommend Plan, a diff, a verification, a bench run), and
RENDERERS names the function that writes each kind in each format; a format's module is imported
only when that format is asked for (rich, json, xml cost import time). A new format is its module
and its rows here.
"""

from __future__ import annotations

import importlib

from advisor import TYPE_CHECKING, lazy_re
from advisor.model.vocabulary import OutputFormat
from advisor.named_tuple import NamedTuple

if TYPE_CHECKING:
    from typing import Any, Protocol

    from advisor.report.model import Report

    class Rendered(Protocol):
        """Any other command's report: its kind, and itself as JSON-ready data."""

        @property
        def KIND(self) -> str: ...

        def to_dict(self) -> dict[str, Any]: ...


FORMATS = OutputFormat.values()
_LINT = {fmt: f"{fmt}_format:render" for fmt in FORMATS}

# kind → format → "module:function" of advisor.output, called as function(report, options).
RENDERERS: dict[str, dict[str, str]] = {
    "lint": _LINT,
    # A diff: its changes and findings as text and JSON; the CI formats carry the findings it introduces.
    "diff": {
        "text": "diff_text:render",
        "json": "json_format:indented",
        **{fmt: f"diff_text:{fmt}" for fmt in FORMATS if fmt not in ("text", "json")},
    },
    "recommend": {"text": "recommend_text:render", "json": "json_format:indented", "html": "recommend_html:render"},
    # the Camunda pack's plan (recommend --camunda): text and JSON
    "camunda-recommend": {
        "text": "camunda_recommend_text:render",
        "json": "json_format:indented",
        "html": "camunda_recommend_html:render",
    },
    "verify": {"text": "verify_text:render", "json": "json_format:indented"},
    "bench": {"text": "bench_text:render", "json": "json_format:indented"},
    "advise": {
        "text": "advise_text:render",
        "json": "json_format:indented",
        "html": "advise_html:render",
        "alerts": "alerts_format:render",
        "prometheusrule": "alerts_format:prometheus_rule",
    },
}


def formats(kind: str) -> tuple[str, ...]:
    """The formats a kind of report is written in (a command's --output-format choices)."""
    return tuple(RENDERERS[kind])


class RenderOptions(NamedTuple):
    color: bool = False  # text: rich colours (a terminal)
    docs_url: str | None = None  # sarif: base URL of the rule pages
    width: int | None = None  # text: terminal width


def render(report: Report | Rendered, fmt: str, options: RenderOptions | None = None) -> str:
    kind = report.KIND
    named = RENDERERS[kind].get(fmt)
    if named is None:
        raise ValueError(f"a {kind} report is not written as {fmt!r} (only {', '.join(RENDERERS[kind])})")
    module, _, function = named.partition(":")
    return getattr(importlib.import_module(f"advisor.output.{module}"), function)(report, options or RenderOptions())


# Characters input must not smuggle into a terminal, a CI log or an XML file: C0 controls but
# tab, DEL, C1 controls, and the bidirectional overrides that reorder what a reviewer reads.
_UNSAFE = lazy_re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def inert(text: str) -> str:
    """`text` with every unsafe character shown as an escape (`\\x1b`), never acted on."""
    if text.isprintable() or not _UNSAFE.search(text):  # no control or format character: nothing to look for
        return text
    return _UNSAFE.sub(
        lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}", text
    )


def place(location: object, base_path: str | None = None) -> str:
    """`line:column`, or `path:line:column` when it is another file than `base_path`;
    a location without a line (a live config, a scrape) shows its path."""
    path, line, column = location.path, location.line, location.column  # type: ignore[attr-defined]
    if getattr(location, "kind", "") == "live":  # a running cluster's value: its resource and where it is set
        source = location.source  # type: ignore[attr-defined]
        return f"{location.resource} ({source})" if source else location.resource  # type: ignore[attr-defined]
    if not line:
        return path
    return f"{line}:{column}" if path == base_path else f"{path}:{line}:{column}"
