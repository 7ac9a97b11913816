"""Human report: findings grouped by file, with the offending line and the recommendation."""

from __future__ import annotations

from collections.abc import Sequence
from io import StringIO

from advisor.model.document import SourceFile
from advisor.model.findings import Finding
from advisor.model.vocabulary import Severity
from advisor.secrets import redact_line

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def _plain(findings: Sequence[Finding], files: Sequence[SourceFile]) -> str:
    """The same report without colour, without importing rich (pipes, CI logs)."""
    sources = {f.path: f for f in files}
    shown = [f for f in findings if not f.suppressed]
    out: list[str] = []
    current = None
    for finding in shown:
        if finding.path != current:
            current = finding.path
            out += ["", finding.path]
        location = f"{finding.line}:{finding.column}"
        out.append(f"  {location:>7}  {finding.severity:<7} {finding.rule} {finding.message} ({finding.name})")
        source = sources.get(finding.path)
        if source is not None and 0 < finding.line <= len(source.lines):
            out.append(f"           │ {redact_line(source.lines[finding.line - 1].rstrip())}")
        if finding.recommended:
            out.append(f"           └ recommended: {finding.recommended}")
    out += ["", _summary(findings, shown, files)]
    return "\n".join(out) + "\n"


def _summary(findings: Sequence[Finding], shown: Sequence[Finding], files: Sequence[SourceFile]) -> str:
    counts = {s: sum(1 for f in shown if f.severity == s) for s in reversed(Severity.values())}
    suppressed = len(findings) - len(shown)
    summary = ", ".join(f"{n} {s}{'s' if n != 1 else ''}" for s, n in counts.items())
    tail = f"; {suppressed} suppressed" if suppressed else ""
    return f"{len(files)} file(s) checked: {summary}{tail}"


def render(findings: Sequence[Finding], files: Sequence[SourceFile], color: bool, width: int | None = None) -> str:
    if not color:
        return _plain(findings, files)
    from rich.console import Console
    from rich.markup import escape
    from rich.text import Text

    buffer = StringIO()
    console = Console(
        file=buffer, force_terminal=color, no_color=not color, highlight=False, width=width or 100, soft_wrap=True
    )
    sources = {f.path: f for f in files}
    shown = [f for f in findings if not f.suppressed]
    current = None
    for finding in shown:
        if finding.path != current:
            current = finding.path
            console.print(f"\n[bold]{escape(finding.path)}[/]")
        style = _STYLE[finding.severity]
        location = f"{finding.line}:{finding.column}"
        console.print(
            f"  {location:>7}  [{style}]{finding.severity:<7}[/] [bold]{finding.rule}[/] "
            f"{escape(finding.message)} [dim]({finding.name})[/]"
        )
        source = sources.get(finding.path)
        if source is not None and 0 < finding.line <= len(source.lines):
            shown_line = redact_line(source.lines[finding.line - 1].rstrip())
            # A Text object, not markup: escape() would double a trailing backslash.
            console.print(Text.assemble(("           │ ", "dim"), shown_line))
        if finding.recommended:
            console.print(f"           [dim]└ recommended:[/] {escape(finding.recommended)}")
    console.print(f"\n{escape(_summary(findings, shown, files))}")
    return buffer.getvalue()
