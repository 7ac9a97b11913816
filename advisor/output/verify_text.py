"""`verify` as text: a line a proof — its verdict, the setting, each side's median, noise and
samples, and why."""

from __future__ import annotations

from advisor.output import RenderOptions
from advisor.verify.compare import Verification


def render(verification: Verification, options: RenderOptions) -> str:
    if not verification.verdicts:
        return ("No proof measured on both sides: capture the client's metrics or the brokers' scrapes twice or "
                "more, before and after.\n")  # fmt: skip
    lines = []
    for key, v in verification.verdicts:
        sides = "; ".join(f"{label} {side.median:.4g} ±{side.noise:.2g} ({side.samples} samples)"
                          for label, side in (("before", v.before), ("after", v.after)) if side)  # fmt: skip
        better = "higher" if v.proof.better == "up" else "lower"
        lines.append(f"{v.verdict:13} {key}: {v.proof.name} ({v.proof.side}, {better} is better): {sides} — {v.why}")
    return "\n".join(lines) + "\n"
