"""Human report: findings grouped by file, with the offending line, the other places of the
same cause, and the recommendation."""

from __future__ import annotations

from io import StringIO

from advisor.model.findings import Finding
from advisor.output import RenderOptions, inert, place
from advisor.report.model import Report

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
_GUTTER = " " * 11


def _also(finding: Finding) -> str | None:
    """The other places of one cause (every broker of a cluster), with their subjects."""
    if not finding.related:
        return None
    subjects = finding.subject.split(", ")
    named = f" ({', '.join(subjects[1:])})" if len(subjects) == len(finding.locations) else ""
    return f"also at {', '.join(place(r, finding.path) for r in finding.related)}{named}"


def _stated_version(finding: Finding) -> str | None:
    """The release a version-dependent verdict used, when the input named it (an assumed one is
    among the assumptions; one given with --kafka-version the user knows)."""
    if finding.product != "kafka":
        if finding.release is None or finding.release_from in (None, "assumed"):
            return None
        return f"judged as {finding.product.capitalize()} {finding.release}, from {finding.release_from}"
    source = finding.kafka_version_from
    if finding.kafka_version is None or source in (None, "assumed", "--kafka-version"):
        return None
    return f"judged as Kafka {finding.kafka_version}, from {source}"


def _blocks(report: Report) -> list[tuple[str | None, Finding, str | None, str | None]]:
    """(file header when a new file starts, finding, its source line, its other places)."""
    blocks = []
    current = None
    for finding in report.shown:
        header = None
        if finding.path != current:
            current = header = finding.path
        blocks.append((header, finding, report.line_text(finding.path, finding.line), _also(finding)))
    return blocks


def _metrics_read(report: Report) -> list[str]:
    """A line for each metrics input: its shape, the names or client recognised, the series read."""
    read = [f"metrics: {f.path}: {f.read}" for f in report.files if f.read]
    return ["", *read] if read else []


def _summary(report: Report) -> str:
    """One line: what was read, what was found, and what was not judged — never "0 errors" beside
    a run that could not use part of its input (exit 2)."""
    counts = report.counts()
    by_severity = [f"{counts[s]} {s}{'s' if counts[s] != 1 else ''}" for s in ("error", "warning", "info") if counts[s]]
    found = f"{counts['findings']} finding(s) ({', '.join(by_severity)})" if counts["findings"] else "no findings"
    read = f"{counts['files']} file(s) checked" if counts["files"] else "no configuration was read"
    tail = f"; {counts['suppressed']} suppressed" if counts["suppressed"] else ""
    if counts["errors"]:
        tail += f"; {counts['errors']} problem(s), so the run is incomplete (see stderr)"
    if counts["skipped"]:  # files passed over; files read that gave nothing to judge; parts of files read
        read_paths = {f.path for f in report.files}
        said = [p for p in report.skipped if p.kind == "skipped"]
        nothing = sum(1 for p in said if p.path in read_paths and p.line is None)  # a metrics file no rule reads
        parts = sum(1 for p in said if p.path in read_paths and p.line is not None)  # a compose env_file, a var
        files = len(said) - nothing - parts
        tail += f"; {files} file(s) skipped" if files else ""
        tail += f"; {nothing} file(s) read of which nothing was judged" if nothing else ""
        tail += f"; {parts} part(s) of files read not judged" if parts else ""
        tail += " (see stderr)"
    tail += f"; {counts['notes']} note(s) (see stderr)" if counts["notes"] else ""
    return f"{read}: {found}{tail}"


def finding_lines(finding: Finding, line: str | None, also: str | None, base: str | None = None) -> list[str]:
    """A finding as plain lines (not yet made inert): lint's, analyze's and advise's alike.
    `base`: the file the lines sit under (its places show line:column only); default its own."""
    location = place(finding.location, finding.path if base is None else base)
    out = [f"  {location:>7}  {finding.severity:<7} {finding.rule} {finding.message} ({finding.name})"]
    if line is not None:
        out.append(f"{_GUTTER}│ {line}")
    if also:
        out.append(f"{_GUTTER}│ {also}")
    out += [f"{_GUTTER}│ assumed: {assumption}" for assumption in finding.assumptions]
    if _stated_version(finding):
        out.append(f"{_GUTTER}│ {_stated_version(finding)}")
    if finding.recommended:
        out.append(f"{_GUTTER}└ recommended: {finding.recommended}")
    return out


def also_of(finding: Finding) -> str | None:
    """The other places of one cause, in words."""
    return _also(finding)


def summary(report: Report) -> str:
    """The run's one-line summary, as lint ends with it."""
    return _summary(report)


def _plain(report: Report) -> str:
    """The same report without colour, without importing rich (pipes, CI logs)."""
    out: list[str] = []
    for header, finding, line, also in _blocks(report):
        if header is not None:
            out += ["", header]
        out += finding_lines(finding, line, also)
    if report.flow:
        from advisor.output.flow_text import lines as flow_lines

        out += flow_lines(report.flow)
    out += _metrics_read(report)
    out += ["", _summary(report)]
    return "\n".join(inert(line) for line in out) + "\n"  # input is shown, never acted on


def render(report: Report, options: RenderOptions) -> str:
    if not options.color:
        return _plain(report)
    from rich.console import Console
    from rich.markup import escape
    from rich.text import Text

    buffer = StringIO()
    console = Console(file=buffer, force_terminal=True, highlight=False, width=options.width or 100, soft_wrap=True)
    for header, finding, line, also in _blocks(report):
        line = inert(line) if line is not None else None
        also = inert(also) if also else also
        if header is not None:
            console.print(f"\n[bold]{escape(inert(header))}[/]")
        style = _STYLE[finding.severity]
        location = place(finding.location, finding.path)
        console.print(
            f"  {location:>7}  [{style}]{finding.severity:<7}[/] [bold]{finding.rule}[/] "
            f"{escape(inert(finding.message))} [dim]({finding.name})[/]"
        )
        # Text objects, not markup: escape() would double a trailing backslash.
        if line is not None:
            console.print(Text.assemble((f"{_GUTTER}│ ", "dim"), line))
        if also:
            console.print(Text.assemble((f"{_GUTTER}│ ", "dim"), (also, "dim")))
        for assumption in finding.assumptions:
            console.print(Text.assemble((f"{_GUTTER}│ ", "dim"), ("assumed: ", "magenta"), inert(assumption)))
        if _stated_version(finding):
            console.print(Text.assemble((f"{_GUTTER}│ ", "dim"), (_stated_version(finding), "dim")))
        if finding.recommended:
            console.print(f"{_GUTTER}[dim]└ recommended:[/] {escape(inert(finding.recommended))}")
    if report.flow:
        from advisor.output.flow_text import lines as flow_lines

        for line in flow_lines(report.flow):  # Text, not markup: names come from the input
            console.print(Text(inert(line), style="bold" if line and not line.startswith(" ") else ""))
    for line in _metrics_read(report):
        console.print(Text(inert(line), style="dim" if line else ""))
    console.print(f"\n{escape(inert(_summary(report)))}")
    return buffer.getvalue()
