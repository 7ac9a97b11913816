"""Machine-readable report; the schema is documented in docs/output.md."""

from __future__ import annotations

import json

from advisor.output import RenderOptions
from advisor.report.model import Report


def render(report: Report, options: RenderOptions) -> str:
    document = report.to_dict()
    del document["lines"]  # source lines stay out of machine output (redacted or not)
    return json.dumps(document, indent=2) + "\n"
