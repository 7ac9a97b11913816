"""recommend's plan as HTML (`-o html=FILE`): the profile with where each number came from, each
value with its formula, reason, cost, proof and sources as links, where the user's files stand,
the sizing and the snippets per file form. advise's plan steps are made of the same blocks."""

from __future__ import annotations

from typing import Any

from advisor.output import RenderOptions
from advisor.output.html_page import esc, link, page, table
from advisor.output.recommend_text import standing
from advisor.recommend import citations, snippets, spelling
from advisor.recommend.plan import CLIENT_ROLES, Plan

PROFILE_FIELDS = ("goal", "message_bytes_avg", "message_bytes_max", "rate_mb_s", "rate_msgs_s", "peak_factor",
                  "producers", "consumer_groups", "consumers_per_group", "processing_ms", "p99_ms", "loss", "ordering",
                  "retention_hours", "partitions", "brokers", "replication_factor", "transactions")  # fmt: skip


ALREADY_NAMED = 5


def profile_table(plan: Plan) -> str:
    profile = plan.profile
    rows = []
    for name in PROFILE_FIELDS:
        value = profile.goal if name == "goal" else profile[name]
        if value is None or value is False:
            continue
        origin = ("given" if profile.goal_given else "the default") if name == "goal" else profile.origin(name)
        shown = f"{value:,.3g}" if isinstance(value, float) else str(value)
        rows.append([name.replace("_", " "), shown, origin])
    out = table(["profile", "value", "from"], rows)
    if profile.assumed:
        out += (
            f'<p class="muted">Assumed (give these numbers to refine): {esc("; ".join(profile.assumed.values()))}</p>'
        )
    return out


def recommendation_block(plan: Plan, r: Any) -> str:
    spelled = plan.spelled(r)
    if spelled.key is None and r.component in CLIENT_ROLES:
        return f"<p><code>{esc(r.key)}</code>: nothing to set for {esc(plan.client)} ({esc(spelled.note)})</p>"
    value = spelled.value if spelled.key else r.value
    inputs = ", ".join(f"{name} {v}" for name, v in r.inputs.items() if v is not None)
    urls = citations.links(r.source)
    out = [f"<p><b>{esc(r.component)}</b> <code>{esc(spelled.key or r.key)} = {esc(value)}</code>"
           + (f' <span class="muted">({esc(spelled.note)})</span>' if spelled.note else "") + "</p><ul>",
           f"<li>formula: {esc(r.formula)}" + (f" <span class=\"muted\">[{esc(inputs)}]</span>" if inputs else "")
           + "</li>", f"<li>why: {esc(r.rationale)}</li>"]  # fmt: skip
    if r.tradeoff:
        out.append(f"<li>costs: {esc(r.tradeoff)}</li>")
    out.append(f"<li>proves it: <b>{esc(spelling.proof(r.proof, plan.client))}</b> — {esc(r.expect)}</li>")
    measured = plan.measured(r)
    if measured is not None:
        out.append(f'<li>bench: <span class="proof-{esc(measured.status)}">{esc(measured.text)}</span></li>')
    out.append(f"<li>source: {esc(r.source)}" + ("".join(f"<br>{link(u)}" for u in urls)) + "</li>")
    already = []
    for state, where, differs in standing(plan, r):
        if differs:
            out.append(f"<li>{esc(state)}: <code>{esc(where)}</code></li>")
        else:
            already.append(where)
    if already:  # a large tree's hundreds of files: counted, the first few named
        named = ", ".join(f"<code>{esc(w)}</code>" for w in already[:ALREADY_NAMED])
        more = f" and {len(already) - ALREADY_NAMED} more" if len(already) > ALREADY_NAMED else ""
        out.append(f"<li>already so in {len(already)} place(s): {named}{more}</li>")
    out.append("</ul>")
    return "".join(out)


def snippet_blocks(recommendations: list[Any]) -> str:
    out = []
    for name in snippets.FORMATS:
        text = snippets.render(name, recommendations).rstrip("\n")
        if text:
            out.append(f"<details><summary>as {esc(name)}</summary><pre>{esc(text)}</pre></details>")
    return "".join(out)


def render(plan: Plan, options: RenderOptions) -> str:
    from advisor import __version__
    from advisor.output.recommend_text import snippet

    body = ["<h1>kafka-advisor recommend</h1>", f"<p>Goal <b>{esc(plan.profile.goal)}</b>, for the "
            f"{esc(plan.client)} client.</p>", profile_table(plan)]  # fmt: skip
    for component in ("producer", "consumer", "topic", "broker"):
        chosen = [r for r in plan.recommendations if r.component == component]
        if chosen:
            body.append(f"<h2>{esc(component.capitalize())}</h2>")
            fit = plan.defaults_fit(component) if component in CLIENT_ROLES else []
            if fit:
                body.append(f"<p>The defaults already fit this profile: {esc(', '.join(fit))} are the "
                            f"{esc(plan.client)} client's defaults — nothing to change for speed.</p>")  # fmt: skip
            body += [f'<div class="step">{recommendation_block(plan, r)}</div>' for r in chosen]
    body.append("<h2>Sizing</h2>")
    body.append(table(["", "value", "formula"], [[s.name, f"{s.value:,.0f} {s.unit}", s.formula] for s in plan.sizes]))
    body += ["<h2>Snippets</h2>", f"<pre>{esc(snippet(plan))}</pre>", snippet_blocks(plan.recommendations)]
    return page("kafka-advisor recommend", body, __version__)
