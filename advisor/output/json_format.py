"""Machine-readable report; the schema is documented in docs/output.md."""

from __future__ import annotations

import json

from advisor import TYPE_CHECKING
from advisor.model.findings import Finding
from advisor.output import RenderOptions
from advisor.report.model import Report

if TYPE_CHECKING:
    from advisor.output import Rendered


def render(report: Report, options: RenderOptions) -> str:
    """Top-level fields indented, each record of a list on a line of its own: as readable as
    full indentation, and encoded by json's C encoder (an `indent` sends all of it through the
    pure-Python one, seconds on a large run)."""
    document = report.to_dict(findings_as_records=False)  # each finding a dict as it is written
    del document["lines"]  # source lines stay out of machine output (redacted or not)
    parts = ["{\n"]  # joined once at the end: a large run's report is not copied again and again
    for number, (key, value) in enumerate(document.items()):
        parts.append(",\n" if number else "")
        if key == "flow":  # the flow view: one record a line
            parts.append(f"  {json.dumps(key)}: " + json.dumps(value, indent=1).replace("\n", "\n  "))
        elif isinstance(value, list) and value:
            parts.append(f"  {json.dumps(key)}: [\n    ")
            for index, item in enumerate(value):
                parts.append(",\n    " if index else "")
                parts.append(json.dumps(item.to_dict() if isinstance(item, Finding) else item))
            parts.append("\n  ]")
        else:
            parts.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    parts.append("\n}\n")
    return "".join(parts)


def indented(report: Rendered, options: RenderOptions) -> str:
    """Any other command's report (recommend, verify, bench, diff): its record, indented."""
    return json.dumps(report.to_dict(), indent=2) + "\n"
