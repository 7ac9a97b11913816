"""The HTML report's page: one self-contained file — its style inline, no script, no font or
image fetched — readable with JavaScript off and on paper. Every text that reaches it passes
`esc` (a value `<script>` shows as text); the Report it renders is already redacted."""

from __future__ import annotations

import html
from collections.abc import Iterable
from urllib.parse import urlsplit

from advisor.output import inert

STYLE = """
:root { --ink: #1d232b; --muted: #5b6673; --rule: #d8dde3; --error: #b3261e; --warning: #8a5a00; --info: #185a8d;
        --ok: #1e6b3a; --code: #f4f6f8; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
       color: var(--ink); margin: 0 auto; max-width: 1100px; padding: 24px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 21px; margin: 32px 0 8px; border-bottom: 2px solid var(--rule); }
h3 { font-size: 17px; margin: 20px 0 6px; } .muted { color: var(--muted); }
table { border-collapse: collapse; width: 100%; margin: 8px 0 16px; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--rule); }
th { font-weight: 600; background: #fafbfc; }
code, pre { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: var(--code); padding: 8px 10px; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
.sev { font-weight: 700; text-transform: uppercase; font-size: 12px; }
.error { color: var(--error); } .warning { color: var(--warning); } .info { color: var(--info); }
.counts span { display: inline-block; margin-right: 18px; font-size: 17px; }
.finding, .step { border: 1px solid var(--rule); border-radius: 6px; padding: 10px 14px; margin: 10px 0;
                  break-inside: avoid; }
.step h3 { margin-top: 0; } .step label { cursor: pointer; }
.chart { margin: 8px 0 16px; break-inside: avoid; } .chart svg { max-width: 100%; height: auto; }
.diff-add { color: var(--ok); } .diff-del { color: var(--error); }
nav ol { columns: 2; }
@media print { body { max-width: none; padding: 0; font-size: 12px; } h2 { break-after: avoid; }
               pre { white-space: pre-wrap; } nav { display: none; } }
"""


def esc(text: object) -> str:
    """Text as HTML: escaped, with control characters shown as escapes (never acted on)."""
    return html.escape(inert(str(text)), quote=True)


def link(url: str, text: str | None = None) -> str:
    """A link to a public document (https only: a `javascript:` or file URL is shown as text)."""
    if urlsplit(url).scheme != "https":
        return esc(text or url)
    return f'<a href="{esc(url)}">{esc(text or url)}</a>'


def table(head: Iterable[str], rows: Iterable[Iterable[str]], raw: bool = False) -> str:
    """A table; cells are escaped unless `raw` (cells already HTML)."""
    cell = (lambda c: c) if raw else esc
    out = ["<table><thead><tr>", *(f"<th>{esc(h)}</th>" for h in head), "</tr></thead><tbody>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{cell(c)}</td>" for c in row) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def diff_block(text: str) -> str:
    """A unified diff, its added and removed lines marked."""
    lines = []
    for line in text.splitlines():
        kind = "diff-add" if line.startswith("+") and not line.startswith("+++") else (
            "diff-del" if line.startswith("-") and not line.startswith("---") else "")  # fmt: skip
        lines.append(f'<span class="{kind}">{esc(line)}</span>' if kind else esc(line))
    return "<pre>" + "\n".join(lines) + "</pre>"


def page(title: str, body: list[str], version: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        # No request leaves the page: scripts, fonts, images and frames only from the page itself.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        'img-src data:">'
        f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>\n"
        + "\n".join(body)
        + f'\n<footer class="muted"><p>kafka-advisor {esc(version)}</p></footer>\n</body></html>\n'
    )
