"""`recommend --camunda` as HTML (`--output-format html`, `-o html=FILE`): the profile with what
was assumed, each value with its formula, reason, cost, the metric that proves it and its source,
where the configurations given stand, and the snippets — the text report's content, one page."""

from __future__ import annotations

from advisor import TYPE_CHECKING
from advisor.output.html_page import esc, page, table

if TYPE_CHECKING:
    from advisor.output import RenderOptions
    from advisor.recommend.camunda import CamundaPlan
    from advisor.recommend.values import Recommendation

SNIPPETS = (("application", "application.yaml"), ("env", "environment"), ("helm", "camunda-platform values"),
            ("client_env", "the clients' environment (the TypeScript SDK)"))  # fmt: skip
COMPONENTS = (("zeebe-broker", "The broker"), ("camunda-client", "The clients"))


def _block(plan: CamundaPlan, r: Recommendation) -> str:
    inputs = ", ".join(f"{name} {value}" for name, value in r.inputs.items() if value is not None)
    out = [f"<p><code>{esc(r.key)} = {esc(r.value)}</code></p><ul>",
           f"<li>formula: {esc(r.formula)}" + (f' <span class="muted">[{esc(inputs)}]</span>' if inputs else "")
           + "</li>", f"<li>why: {esc(r.rationale)}</li>", f"<li>costs: {esc(r.tradeoff)}</li>",
           f"<li>proves it: <b>{esc(r.proof)}</b> — {esc(r.expect)}</li>",
           f"<li>source: {esc(r.source)}</li>"]  # fmt: skip
    for now in (a for a in plan.against if a.key == r.key):
        where = "written" if now.written else "the release's default"
        out.append(f"<li>now in <code>{esc(now.path)}</code> ({esc(now.subject)}): {esc(now.now)} ({esc(where)})"
                   + (f"; written as <code>{esc(now.spelled)}</code>: remove it when you write this key"
                      if now.spelled else "") + "</li>")  # fmt: skip
    out.append("</ul>")
    return "".join(out)


def render(plan: CamundaPlan, options: RenderOptions | None = None) -> str:
    from advisor import __version__

    resolved = plan.resolved
    title = f"kafka-advisor recommend --camunda: Camunda {resolved.release_named}"
    rows = [[name.replace("_", " "), str(value), "assumed: " + resolved.assumed[name] if name in resolved.assumed
             else "given"] for name, value in sorted(resolved.values.items()) if name != "release"]  # fmt: skip
    body = [f"<h1>{esc(title)}</h1>", f"<p>Keys as Camunda {esc(resolved.release)} reads them.</p>",
            table(["profile", "value", "from"], rows)]  # fmt: skip
    for component, heading in COMPONENTS:
        chosen = [r for r in plan.recommendations if r.component == component]
        if chosen:
            body.append(f"<h2>{esc(heading)}</h2>")
            body += [f'<div class="step">{_block(plan, r)}</div>' for r in chosen]
    if plan.notes:
        body.append("<h2>Notes</h2><ul>" + "".join(f"<li>{esc(n)}</li>" for n in plan.notes) + "</ul>")
    snippets = plan.snippets()
    body.append("<h2>Snippets</h2>")
    body += [f"<h3>{esc(label)}</h3><pre>{esc(snippets[name].rstrip())}</pre>" for name, label in SNIPPETS
             if snippets.get(name)]  # fmt: skip
    return page(title, body, __version__)
