"""`advise` as text: what was read, the load profile, then the report in its order — health now,
flow, the plan as single steps, how to check each. Findings and recommendations are written by the
same functions as lint's and recommend's text, so each reads the same in every command."""

from __future__ import annotations

from typing import Any

from advisor.output import RenderOptions, inert
from advisor.output.flow_text import lines as flow_lines
from advisor.output.recommend_text import profile_lines, recommendation_lines
from advisor.output.text_format import also_of, finding_lines, summary

ALREADY_NAMED = 5  # places a value already holds in, named; the rest counted
SECTIONS = ("What was read", "Load profile", "1. Health now", "2. Flow", "3. The plan", "4. How to check it")


def found_lines(gathered: Any, notes: tuple[str, ...] = ()) -> list[str]:
    """What the run read: clusters, clients, releases, metrics, what it did not read; `notes`:
    what the profile could not use (none yet before the questions)."""
    report, found = gathered.report, gathered.found
    configs = sum(1 for f in report.files if f.series is None)
    out = [SECTIONS[0], f"  {configs} configuration file(s), {len(found.metrics)} metrics input(s)"]
    for cluster in found.clusters:
        guessed = " (joined by a guess)" if cluster.guessed else ""
        out.append(f"  cluster {cluster.id}: {cluster.brokers} broker(s), {cluster.topics} topic(s), "
                   f"{cluster.clients} client(s){guessed}")  # fmt: skip
    for component, library, path in found.clients:
        out.append(f"  {component} ({library}): {path}")
    for product, version, where in found.versions:
        out.append(f"  {product.capitalize()} {version}" + (f" (from {where})" if where else ""))
    for path, read in found.metrics:
        out.append(f"  metrics: {path}: {read or 'nothing the rules read'}")
    not_read = [p for p in report.skipped if p.kind == "skipped"] + list(report.problems)
    for problem in not_read[:20]:
        out.append(f"  not judged: {problem}")
    if len(not_read) > 20:
        out.append(f"  not judged: {len(not_read) - 20} more (see the JSON report or stderr)")
    out += [f"  note: {note}" for note in (*gathered.inferred.notes, *notes)]
    return out


def health_lines(advice: Any) -> list[str]:
    report = advice.report
    counts = report.counts()
    said = ", ".join(f"{counts[s]} {s}{'s' if counts[s] != 1 else ''}" for s in ("error", "warning", "info"))
    out = [f"{SECTIONS[2]} — {said}"]
    groups = advice.health()
    if not groups:
        out.append("  no findings" + ("" if not report.problems else " in what could be read (see not judged)"))
    for name, findings in groups:
        title = f"cluster {name}" if name not in ("metrics", "no cluster") else name
        out += ["", f" {title}"]
        current = None
        for finding in findings:
            if finding.path != current:
                current = finding.path
                out.append(f"  {current}")
            out += finding_lines(finding, report.line_text(finding.path, finding.line), also_of(finding))
    return out


def flow_section(advice: Any) -> list[str]:
    flow = advice.report.flow
    if not flow:
        why = ("no metrics were given" if not advice.gathered.metric_inputs
               else "the metrics hold no offsets, lags or disk space")  # fmt: skip
        return [SECTIONS[3], f"  no flow view: {why} (an offset exporter's or node_exporter's scrapes, saved apart)"]
    return [SECTIONS[3], *[line for line in flow_lines(flow) if line]]


def plan_lines(advice: Any) -> list[str]:
    plan = advice.plan
    out = [f"{SECTIONS[4]} — {len(advice.steps)} step(s), one at a time: deploy, check, then the next"]
    for step in advice.steps:
        keys = ", ".join(f"{r.component} {r.key}" for r in step.recommendations)
        out += ["", f" Step {step.number}: {keys}"]
        if step.together:
            out.append(f"  move together: {step.together}")
        for recommendation in step.recommendations:
            out += recommendation_lines(plan, recommendation, ALREADY_NAMED)
        if step.edit:
            out.append("  edit:")
            out += [f"    {line}" for line in step.edit.splitlines()]
        out += [f"  by hand: {place}" for place in step.by_hand]
        if step.snippet:
            out.append("  set (no file of this run configures it):")
            out += [f"    {line}" for line in step.snippet.splitlines()]
    if advice.already:
        out += ["", "  Already as recommended: " + ", ".join(f"{r.component} {r.key}" for r in advice.already)]
    return out


def check_lines(advice: Any) -> list[str]:
    out = [SECTIONS[5]]
    for step in advice.steps:
        out += [f"  after step {step.number}: {step.check}", f"      shows: {step.check_why}"]
    if not advice.steps:
        out.append("  nothing to check: no step")
    return out


def render(advice: Any, options: RenderOptions) -> str:
    # In a terminal, what was read was shown before the questions: the report starts at the profile.
    out = [
        *([] if advice.interactive else [*found_lines(advice.gathered, advice.notes), ""]),
        *profile_lines(advice.plan),
    ]
    for section in (health_lines, flow_section, plan_lines, check_lines):
        out += ["", *section(advice)]
    out += ["", summary(advice.report)]
    return "\n".join(inert(line) for line in out) + "\n"  # input is shown, never acted on
