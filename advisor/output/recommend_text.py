"""`recommend` as text: the profile and what was assumed, the values per component with their
formula, reason, cost and proof, the sizing, and a snippet in the client's own spelling."""

from __future__ import annotations

from typing import Any

from advisor.output import RenderOptions, inert
from advisor.recommend import citations, spelling
from advisor.recommend.plan import CLIENT_ROLES, Plan

_UNITS = {"bytes": 1, "bytes/s": 1}


def _amount(value: float, unit: str) -> str:
    if unit in _UNITS:
        for step, name in ((1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB")):
            if value >= step:
                return f"{value / step:,.1f} {name}{'/s' if unit.endswith('/s') else ''}"
        return f"{value:,.0f} {unit}"
    return f"{value:,.0f} {unit}"


def _inputs(inputs: dict[str, Any]) -> str:
    return ", ".join(f"{name} {value}" for name, value in inputs.items() if value is not None)


def profile_lines(plan: Plan) -> list[str]:
    """The profile: each number with where it came from, and what was assumed."""
    profile = plan.profile
    lines = [f"Load profile: goal {profile.goal}, for the {plan.client} client"]
    shown = ("message_bytes_avg", "message_bytes_max", "rate_mb_s", "rate_msgs_s", "peak_factor", "producers",
             "consumer_groups", "consumers_per_group", "processing_ms", "p99_ms", "loss", "ordering",
             "retention_hours", "partitions", "brokers", "replication_factor", "transactions")  # fmt: skip
    for name in shown:
        value = profile[name]
        if isinstance(value, bool):
            value = "yes" if value else None  # transactions: said when in play
        if value is not None:
            number = (f"{value:,.0f}" if value >= 100 else f"{value:g}") if isinstance(value, float) else f"{value}"
            lines.append(f"  {name.replace('_', ' ')}: {number} ({profile.origin(name)})")
    if profile.assumed:
        lines.append("Assumed (give these numbers to refine): " + "; ".join(profile.assumed.values()))
    return lines


def render(plan: Plan, options: RenderOptions) -> str:
    lines = profile_lines(plan)
    for component in ("producer", "consumer", "topic", "broker"):
        chosen = [r for r in plan.recommendations if r.component == component]
        if not chosen:
            continue
        lines += ["", component.capitalize()]
        fit = plan.defaults_fit(component) if component in CLIENT_ROLES else []
        if fit:
            lines.append(f"  the defaults already fit this profile: {', '.join(fit)} — the {plan.client} client's "
                         "defaults; nothing to change for speed")  # fmt: skip
        for r in chosen:
            lines += recommendation_lines(plan, r)
    if plan.kept:
        from advisor.recommend.against import KEPT_REASON

        lines += ["", f"Kept as written ({KEPT_REASON})"]
        for kept in plan.kept:
            where = kept.config_set.path + ("" if kept.config_set.name == kept.config_set.path
                                            else f" ({kept.config_set.name})")  # fmt: skip
            lines.append(f"  {inert(where)}: {', '.join(kept.keys)}")
    lines += ["", "Sizing"]
    for size in plan.sizes:
        lines.append(f"  {size.name}: {_amount(size.value, size.unit)}  = {size.formula}  [{_inputs(size.inputs)}]")
        if size.note:
            lines.append(f"      note: {size.note}")
    lines += ["", snippet(plan)]
    for name in plan.snippets:
        from advisor.recommend import snippets

        lines += ["", f"# {name}", snippets.render(name, plan.recommendations).rstrip("\n")]
    return "\n".join(lines) + "\n"


def recommendation_lines(plan: Plan, r: Any, named: int | None = None) -> list[str]:
    """One recommendation: its value spelled for the client, formula, why, cost, proof, sources,
    and where the user's files stand — recommend's and advise's alike. `named`: at most this many
    places already so are named, the rest counted (advise over a large tree)."""
    spelled = plan.spelled(r)
    if spelled.key is None and r.component in CLIENT_ROLES:  # the library has none, or already does it
        return [f"  {r.key}: nothing to set for {plan.client} ({spelled.note})"]
    head = f"  {spelled.key or r.key} = {spelled.value if spelled.key else r.value}"
    if spelled.note:
        head += f"  ({spelled.note})"
    lines = [head]
    lines.append(f"      formula: {r.formula}" + (f"  [{_inputs(r.inputs)}]" if _inputs(r.inputs) else ""))
    lines.append(f"      why: {r.rationale}")
    if r.tradeoff:
        lines.append(f"      costs: {r.tradeoff}")
    lines.append(f"      proves it: {spelling.proof(r.proof, plan.client)} — {r.expect}")
    measured = plan.measured(r)
    if measured is not None:
        lines.append(f"      bench: {measured.text}" + (f" ({proofs_doc()})" if measured.row else ""))
    lines.append(f"      source: {r.source}")
    lines += [f"        {url}" for url in citations.links(r.source)]
    already = 0
    for state, where, differs in standing(plan, r):
        if not differs:
            already += 1
            if named is not None and already > named:
                continue
        lines.append(f"      {state}: {inert(where)}")
    if named is not None and already > named:
        lines.append(f"      already so in {already - named} more place(s)")
    return lines


def proofs_doc() -> str:
    from advisor.recommend.proofs import DOC

    return DOC


def standing(plan: Plan, r: Any) -> list[tuple[str, str, bool]]:
    """Where the user's files stand on one recommendation: (state, place, differs) per config set —
    `now 1`, `already so`, `kept 4 (at least 2)`; a declared topic's place is where it is created."""
    found = []
    for against in (a for a in plan.against if a.recommendation is r):
        where = f"{against.config_set.path}:{against.written.line}" if against.written else (
            f"{against.config_set.path} ({against.why or 'its default'})")  # fmt: skip
        state = f"now {against.current}" if against.differs else "already so"
        if against.declared:  # the creation's own line is not kept: the file, and what declares it
            where = (f"{against.config_set.path} (declared by {against.config_set.name}: change it where "
                     "the topic is created)")  # fmt: skip
        elif r.at_least and not against.differs and against.current != str(against.value):
            state = f"kept {against.current} (at least {against.value})"
        found.append((state, where, against.differs))
    return found


def snippet(plan: Plan) -> str:
    """The client settings, ready to paste: properties for Java, a dict for the Python clients."""
    out = []
    for role in ("producer", "consumer"):
        pairs = [(s.key, s.value) for s in (plan.spelled(r) for r in plan.recommendations if r.component == role)
                 if s.key]  # fmt: skip
        if not pairs:
            continue
        if plan.client == "java":
            out += [f"# {role}.properties", *(f"{key}={value}" for key, value in pairs)]
        else:
            body = [f"    {key!r}: {value!r}," for key, value in pairs]
            out += [f"# {role} configuration ({plan.client})", "{", *body, "}"]
    return "\n".join(out)
