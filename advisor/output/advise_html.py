"""advise as one self-contained HTML page (`--html FILE`): the summary at the top (counts by
severity, clusters, the profile with what was given, inferred or assumed), then the terminal's
sections — health now, flow with its charts, the plan as a checklist with each file's edit and
copyable snippets per file form, how to check each step — and the alerts with their runbooks."""

from __future__ import annotations

from typing import Any

from advisor.output import RenderOptions
from advisor.output.html_format import counts, findings_section, flow_section, read_section, rules_section
from advisor.output.html_page import diff_block, esc, page, table
from advisor.output.recommend_html import profile_table, recommendation_block, snippet_blocks

TITLE = "kafka-advisor advise"
NAV = (("read", "What was read"), ("profile", "Load profile"), ("health", "1. Health now"), ("flow", "2. Flow"),
       ("plan", "3. The plan"), ("check", "4. How to check it"), ("alerts", "Alerts and runbooks"),
       ("rules", "The rules behind the findings"))  # fmt: skip


def _summary(advice: Any) -> list[str]:
    found = advice.gathered.found
    clusters = [[c.id, str(c.brokers), str(c.topics), str(c.clients), "guessed" if c.guessed else "evidence"]
                for c in found.clusters]  # fmt: skip
    out = [f"<h1>{esc(TITLE)}</h1>", counts(advice.report)]
    if clusters:
        out.append(table(["cluster", "brokers", "topics", "clients", "joined by"], clusters))
    out.append("<nav><ol>" + "".join(f'<li><a href="#{anchor}">{esc(name)}</a></li>' for anchor, name in NAV)
               + "</ol></nav>")  # fmt: skip
    return out


def _profile(advice: Any) -> list[str]:
    out = ['<h2 id="profile">Load profile</h2>', profile_table(advice.plan)]
    notes = [*advice.gathered.inferred.notes, *advice.notes]
    out += [f'<p class="muted">note: {esc(note)}</p>' for note in notes]
    return out


def _plan(advice: Any) -> list[str]:
    out = [f'<h2 id="plan">3. The plan — {len(advice.steps)} step(s)</h2>',
           "<p>One change at a time: deploy a step, check it (section 4), then the next.</p>"]  # fmt: skip
    for step in advice.steps:
        keys = ", ".join(f"{r.component} {r.key}" for r in step.recommendations)
        out.append(f'<div class="step"><h3><label><input type="checkbox"> Step {step.number}: {esc(keys)}</label></h3>')
        if step.together:
            out.append(f"<p><b>Move together:</b> {esc(step.together)}</p>")
        out += [recommendation_block(advice.plan, r) for r in step.recommendations]
        if step.edit:
            out += ["<p><b>Edit</b> (each read back to prove it; nothing was written):</p>", diff_block(step.edit)]
        out += [f"<p><b>By hand:</b> <code>{esc(place)}</code></p>" for place in step.by_hand]
        if step.snippet:
            out.append(f"<p><b>Set</b> (no file of this run configures it):</p><pre>{esc(step.snippet)}</pre>")
        out.append(snippet_blocks(list(step.recommendations)))
        out.append("</div>")
    if advice.already:
        already = ", ".join(f"{r.component} {r.key}" for r in advice.already)
        out.append(f'<p class="muted">Already as recommended: {esc(already)}</p>')
    return out


def _checks(advice: Any) -> list[str]:
    out = ['<h2 id="check">4. How to check it</h2>']
    rows = [[f"after step {s.number}", f"<pre>{esc(s.check)}</pre>", esc(s.check_why)] for s in advice.steps]
    out.append(table(["when", "run", "shows"], rows, raw=True) if rows else "<p>Nothing to check: no step.</p>")
    return out


def _alerts(advice: Any) -> list[str]:
    found = advice.alerts
    out = ['<h2 id="alerts">Alerts and runbooks</h2>',
           f"<p>Prometheus alerting rules in the naming of {esc(', '.join(found.dialects))} "
           "(<code>--alerts FILE</code> writes them): each waits its <code>for</code> before it fires and its "
           "<code>keep_firing_for</code> before it clears.</p>"]  # fmt: skip
    for alert in found.alerts:
        prepared = "".join(f"<li>the plan's {esc(p)}</li>" for p in alert.prepared)
        out.append(f'<div class="finding"><p><b>{esc(alert.name)}</b> <span class="muted">({esc(alert.rule)}, '
                   f"{esc(alert.severity)}, for {alert.for_seconds} s)</span> {esc(alert.summary)}</p>"
                   f"<pre>{esc(alert.expr)}</pre><ul><li>what it means: {esc(alert.means)}</li>"
                   f"<li>look at: {esc(alert.look_at)}</li>{prepared}</ul></div>")  # fmt: skip
    if found.not_alerted:
        out.append("<h3>Rules without an alert</h3>")
        out.append(table(["rule", "why"], [[rule, why] for rule, why in found.not_alerted]))
    return out


def render(advice: Any, options: RenderOptions) -> str:
    report = advice.report
    body = [*_summary(advice), *read_section(report), *_profile(advice)]
    body += findings_section(report, [(f"cluster {name}" if name not in ("metrics", "no cluster") else name, found)
                                      for name, found in advice.health()], "1. Health now")  # fmt: skip
    missing = ("No flow view: no metrics were given." if not advice.gathered.metric_inputs
               else "No flow view: the metrics hold no offsets, lags or disk space.")  # fmt: skip
    body += flow_section(report.flow, "2. Flow", missing)
    body += [*_plan(advice), *_checks(advice), *_alerts(advice), *rules_section(report)]
    return page(TITLE, body, report.tool_version)
