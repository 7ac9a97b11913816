"""Machine-readable report; the schema is documented in docs/output.md."""

from __future__ import annotations

import json

from advisor import TYPE_CHECKING
from advisor.output import RenderOptions
from advisor.report.model import Report

if TYPE_CHECKING:
    from advisor.output import Rendered


def render(report: Report, options: RenderOptions) -> str:
    """Top-level fields indented, each record of a list on a line of its own: as readable as
    full indentation, and encoded by json's C encoder (an `indent` sends all of it through the
    pure-Python one, seconds on a large run)."""
    document = report.to_dict()
    del document["lines"]  # source lines stay out of machine output (redacted or not)
    out = []
    for key, value in document.items():
        if key == "flow":  # the flow view: one record a line
            out.append(f"  {json.dumps(key)}: " + json.dumps(value, indent=1).replace("\n", "\n  "))
        elif isinstance(value, list) and value:
            items = ",\n    ".join(json.dumps(item) for item in value)
            out.append(f"  {json.dumps(key)}: [\n    {items}\n  ]")
        else:
            out.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(out) + "\n}\n"


def indented(report: Rendered, options: RenderOptions) -> str:
    """Any other command's report (recommend, verify, bench, diff): its record, indented."""
    return json.dumps(report.to_dict(), indent=2) + "\n"
