"""The value paths a Helm values file writes for its chart, with where each key stands — what
KB145 compares with the values the chart's templates read (catalog chart_values.json). Maps are
followed, lists are not (a list is one value); at most LIMIT paths a file. Kept compact (one
string and one array a file): a chart's full values file has over a thousand keys."""

from __future__ import annotations

from array import array

from advisor.model.chart_values import SEPARATOR
from advisor.sources.spans import Located

LIMIT = 5000


def written(root: Located) -> dict[str, object]:
    """{"paths": "a\\na/b\\n…", "places": array of line, column per path}, parents before children."""
    paths: list[str] = []
    places = array("I")
    pending: list[tuple[str, Located]] = [("", root)]
    while pending and len(paths) < LIMIT:
        prefix, mapping = pending.pop()
        children = []
        starts = mapping.key_starts()
        for key, value in mapping.items():
            joined = f"{prefix}{SEPARATOR}{key}" if prefix else str(key)
            paths.append(joined)
            places.extend(starts.get(key, (mapping.line, 1)))
            if isinstance(value, Located):
                children.append((joined, value))
        pending.extend(reversed(children))
    return {"paths": "\n".join(paths[:LIMIT]), "places": places[: 2 * LIMIT]}
