"""lint's and analyze's Report as one self-contained HTML page (`-o html=FILE`): a summary of the
counts, what was read and what was not judged, each finding with its place, its source line
(redacted with the rest of the Report), the rule's rationale, its references as links to public
documents and the suggested edit, and analyze's flow view with its charts. The sections are the
functions advise's page is built of too."""

from __future__ import annotations

from typing import Any

from advisor.output import RenderOptions, html_charts, place
from advisor.output.flow_text import drain, duration, lag_time
from advisor.output.html_page import esc, link, page, table
from advisor.output.text_format import also_of, summary
from advisor.recommend import citations
from advisor.report.model import Report

SEVERITIES = ("error", "warning", "info")
CHARTED_GROUPS = 12  # groups charted one by one (the largest lags); every group is in the table


def counts(report: Report) -> str:
    found = report.counts()
    parts = [f'<span class="{s}"><b>{found[s]}</b> {esc(s)}{"s" if found[s] != 1 else ""}</span>' for s in SEVERITIES]
    parts.append(f"<span><b>{found['files']}</b> file(s) read</span>")
    if found["errors"]:
        parts.append(f'<span class="error"><b>{found["errors"]}</b> input problem(s): the run is incomplete</span>')
    if found["skipped"] or found["notes"]:
        parts.append(f"<span><b>{found['skipped'] + found['notes']}</b> not judged or noted</span>")
    return f'<p class="counts">{"".join(parts)}</p><p class="muted">{esc(summary(report))}</p>'


def read_section(report: Report, title: str = "What was read") -> list[str]:
    out = [f'<h2 id="read">{esc(title)}</h2>']
    rows = [[f.path, f.format, str(f.config_sets) if f.series is None else f"{f.series} series",
             f.read or ", ".join(f.recognised)] for f in report.files]  # fmt: skip
    if rows:
        out.append(table(["file or endpoint", "read as", "gave", "recognised"], rows))
    else:
        out.append("<p>No file was read.</p>")
    not_judged = [*report.problems, *report.skipped]
    if not_judged:
        out.append("<h3>Not judged</h3>")
        out.append(table(["where", "why"], [[f"{p.path}:{p.line}" if p.line else p.path, p.message]
                                           for p in not_judged]))  # fmt: skip
    return out


def _references(definition: Any) -> str:
    items = []
    for reference in definition.references:
        if reference.startswith("docs/"):
            continue  # this project's own notes: not a document the reader can open
        urls = citations.reference_links(reference)
        items.append(esc(reference) + (" — " + ", ".join(link(u) for u in urls) if urls else ""))
    return "<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>" if items else ""


def finding_block(report: Report, finding: Any, rules: dict[str, Any]) -> str:
    definition = rules.get(finding.rule)
    line = report.line_text(finding.path, finding.line)
    out = [f'<div class="finding"><p><span class="sev {esc(finding.severity)}">{esc(finding.severity)}</span> '
           f"<b>{esc(finding.rule)}</b> <code>{esc(place(finding.location))}</code> {esc(finding.message)} "
           f'<span class="muted">({esc(finding.name)})</span></p>']  # fmt: skip
    if line is not None:
        out.append(f"<pre>{finding.line:>5} | {esc(line)}</pre>")
    also = also_of(finding)
    if also:
        out.append(f'<p class="muted">{esc(also)}</p>')
    for assumption in finding.assumptions:
        out.append(f'<p class="muted">assumed: {esc(assumption)}</p>')
    if finding.recommended:
        out.append(f"<p><b>Suggested:</b> {esc(finding.recommended)}</p>")
    if finding.fix is not None:
        out.append(f"<p><b>Edit:</b> <code>{esc(', '.join(finding.keys[:1]) or 'value')} = {esc(finding.fix.value)}"
                   f"</code> <span class=\"muted\">({esc(finding.fix.applicability)})</span></p>")  # fmt: skip
    if definition is not None:  # the rationale once per rule, at the end (a large run has hundreds of findings)
        out.append(f'<p class="muted">Why: <a href="#rule-{esc(definition.id)}">{esc(definition.id)} '
                   f"{esc(definition.name)}</a></p>")  # fmt: skip
    out.append("</div>")
    return "".join(out)


def rules_section(report: Report) -> list[str]:
    """Each rule that found something: why it matters, its source and its references as links."""
    found = {f.rule for f in report.shown}
    out = ['<h2 id="rules">The rules behind the findings</h2>']
    for definition in (d for d in report.rules if d.id in found):
        out.append(f'<div class="finding" id="rule-{esc(definition.id)}"><p><b>{esc(definition.id)}</b> '
                   f"{esc(definition.name)} <span class=\"muted\">({esc(definition.severity)}, "
                   f"{esc(definition.category)})</span> {esc(definition.summary)}</p><p>{esc(definition.rationale)}</p>"
                   f"<p>Source: {esc(definition.source)}</p>{_references(definition)}</div>")  # fmt: skip
    return out if found else []


def findings_section(report: Report, groups: list[tuple[str, list[Any]]], title: str) -> list[str]:
    rules = {d.id: d for d in report.rules}
    out = [f'<h2 id="health">{esc(title)}</h2>', counts(report)]
    if not groups:
        out.append("<p>No findings.</p>")
    for name, found in groups:
        if name:
            out.append(f"<h3>{esc(name)}</h3>")
        out += [finding_block(report, finding, rules) for finding in found]
    return out


def flow_section(flow: dict[str, Any] | None, title: str, missing: str) -> list[str]:
    out = [f'<h2 id="flow">{esc(title)}</h2>']
    if not flow:
        return [*out, f"<p>{esc(missing)}</p>"]
    groups = flow["groups"]
    if groups:
        rows = [[g["group"] + (f" ({g['cluster']})" if g["cluster"] else ""), g["topic"],
                 "-" if g["lag"] is None else f"{g['lag']:,.0f}",
                 lag_time(g),
                 "-" if g["rate_in"] is None else f"{g['rate_in']:,.1f}",
                 "-" if g["rate_out"] is None else f"{g['rate_out']:,.1f}", g["trend"], drain(g)]
                for g in groups]  # fmt: skip
        out.append(table(["group", "topic", "lag", "lag time", "in/s", "out/s", "trend", "drain"], rows))
        chart = html_charts.lag_seconds(groups, "lag in seconds over time")
        if chart:
            out.append(chart)
        ranked = sorted(groups, key=lambda g: -(g["lag"] or 0))
        for group in ranked[:CHARTED_GROUPS]:
            chart = html_charts.group_rates(group, esc(f"records in and out of {group['group']} on {group['topic']}"))
            if chart:
                out.append(chart)
        if len(ranked) > CHARTED_GROUPS:
            out.append(f'<p class="muted">{len(ranked) - CHARTED_GROUPS} more group(s) in the table only.</p>')
    exports = flow.get("exports") or []
    if exports:  # Zeebe's exporters: the same scissors, in = committed, out = exported
        rows = [[e["exporter"] + (f" ({e['cluster']})" if e["cluster"] else ""), e["broker"],
                 "-" if e["lag"] is None else f"{e['lag']:,.0f}", lag_time(e),
                 "-" if e["rate_in"] is None else f"{e['rate_in']:,.1f}",
                 "-" if e["rate_out"] is None else f"{e['rate_out']:,.1f}", e["trend"], drain(e)]
                for e in exports]  # fmt: skip
        out.append(table(["exporter", "broker", "export lag", "oldest unexported", "committed/s", "exported/s",
                          "trend", "drain"], rows))  # fmt: skip
        for record in sorted(exports, key=lambda e: -(e["lag"] or 0))[:CHARTED_GROUPS]:
            named = {**record, "group": record["exporter"], "topic": record["broker"]}
            chart = html_charts.group_rates(named, esc(f"records committed and exported by {record['exporter']} "
                                                       f"on {record['broker']}"))  # fmt: skip
            if chart:
                out.append(chart)
    if flow["disks"]:
        rows = [[d["node"], d["volume"], f"{d['free_bytes'] / 1e9:,.1f} GB",
                 "not filling" if d["fill_seconds"] is None else duration(d["fill_seconds"])]
                for d in flow["disks"]]  # fmt: skip
        out.append(table(["node", "volume", "free", "full in"], rows))
        for record in flow["disks"][:CHARTED_GROUPS]:
            chart = html_charts.disk(record, esc(f"free space of {record['node']} {record['volume']}"))
            if chart:
                out.append(chart)
    if flow["traffic"]:
        rows = [[t["topic"], f"{t['bytes_in'] / 1e6:,.2f} MB/s", "?" if t["replicas"] is None else str(t["replicas"]),
                 "-" if t["replication"] is None else f"{t['replication'] / 1e6:,.2f} MB/s"]
                for t in flow["traffic"]]  # fmt: skip
        out.append(table(["topic", "in", "RF", "replication"], rows))
    return out


def by_file(report: Report) -> list[tuple[str, list[Any]]]:
    groups: dict[str, list[Any]] = {}
    for finding in report.shown:
        groups.setdefault(finding.path, []).append(finding)
    return list(groups.items())


def render(report: Report, options: RenderOptions) -> str:
    body = ["<h1>kafka-advisor report</h1>", counts(report), *read_section(report)]
    body += findings_section(report, by_file(report), "Findings")
    if report.flow:
        body += flow_section(report.flow, "Flow", "")
    body += rules_section(report)
    return page("kafka-advisor report", body, report.tool_version)
