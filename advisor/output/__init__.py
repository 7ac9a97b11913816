"""Formatters: each renders a Report (advisor/report/model.py) and decides nothing.

`render(report, fmt, options)` is the one entry point; a format's module is imported only
when that format is asked for (rich, json, xml cost import time).
"""

from __future__ import annotations

import importlib

from advisor import TYPE_CHECKING, lazy_re
from advisor.model.vocabulary import OutputFormat
from advisor.named_tuple import NamedTuple

if TYPE_CHECKING:
    from advisor.report.model import Report

FORMATS = OutputFormat.values()


class RenderOptions(NamedTuple):
    color: bool = False  # text: rich colours (a terminal)
    docs_url: str | None = None  # sarif: base URL of the rule pages
    width: int | None = None  # text: terminal width


def render(report: Report, fmt: str, options: RenderOptions | None = None) -> str:
    if fmt not in FORMATS:
        raise ValueError(f"unknown output format {fmt!r} (expected one of {', '.join(FORMATS)})")
    module = importlib.import_module(f"advisor.output.{fmt}_format")
    return module.render(report, options or RenderOptions())


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
    if not line:
        return path
    return f"{line}:{column}" if path == base_path else f"{path}:{line}:{column}"
