"""`recommend --camunda` as text: the profile (what was assumed), each value with its formula,
why, cost and the metric that proves it, the configurations given beside it, and the snippets."""

from __future__ import annotations

from advisor import TYPE_CHECKING

if TYPE_CHECKING:
    from advisor.output import RenderOptions
    from advisor.recommend.camunda import CamundaPlan


def render(plan: CamundaPlan, options: RenderOptions | None = None) -> str:
    resolved = plan.resolved
    lines = [f"Camunda {resolved.release_named} flow control (keys as Camunda {resolved.release} reads them)", ""]
    lines.append("profile: " + ", ".join(f"{name} {value}" for name, value in sorted(resolved.values.items())
                                          if name != "release"))  # fmt: skip
    lines += [f"  assumed: {name}: {why}" for name, why in sorted(resolved.assumed.items())]
    lines.append("")
    for r in plan.recommendations:
        inputs = ", ".join(f"{k} {v}" for k, v in r.inputs.items())
        lines += [f"{r.key} = {r.value}", f"  formula: {r.formula}" + (f" ({inputs})" if inputs else ""),
                  f"  why: {r.rationale}", f"  cost: {r.tradeoff}", f"  proof: {r.proof}: {r.expect}",
                  f"  source: {r.source}"]  # fmt: skip
        for now in (a for a in plan.against if a.key == r.key):
            where = "written" if now.written else "the release's default"
            lines.append(f"  now in {now.path} ({now.subject}): {now.now} ({where})")
            if now.spelled:  # two spellings of one setting: the old one must go (ZB001, ZB002, ZB005)
                lines.append(f"    written as {now.spelled}: remove it when you write {r.key}")
        lines.append("")
    lines += [f"note: {note}" for note in plan.notes]
    snippets = plan.snippets()
    lines += ["", "application.yaml:", snippets["application"], "environment:", snippets["env"],
              "camunda-platform values:", snippets["helm"]]  # fmt: skip
    if snippets["client_env"]:
        lines += ["the clients' environment (the TypeScript SDK):", snippets["client_env"]]
    return "\n".join(lines).rstrip("\n") + "\n"
