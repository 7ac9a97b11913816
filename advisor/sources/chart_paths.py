"""The value paths a Helm values file writes for its chart, with where each key stands — what
KB145 compares with the values the chart's templates read (catalog chart_values.json). Maps are
followed, lists are not (a list is one value); at most LIMIT paths a file. Kept compact (one
string and one array a file): a chart's full values file has over a thousand keys."""

from __future__ import annotations

from array import array

from advisor.model.chart_values import SEPARATOR
from advisor.sources.spans import Located

LIMIT = 5000


def written(root: Located, path: str = "") -> dict[str, object]:
    """{"paths": "a\\na/b\\n…", "places": array of line, column per path}, parents before children;
    "files": {index: file} for the paths written in another file than `path` (a helm_release's
    `set` merged over the values file it names), only when there are any."""
    paths: list[str] = []
    places = array("I")
    files: dict[int, str] = {}
    pending: list[tuple[str, Located]] = [("", root)]
    while pending and len(paths) < LIMIT:
        prefix, mapping = pending.pop()
        children = []
        starts = mapping.key_starts()
        elsewhere = mapping.origin is not None or mapping.origins is not None
        for key, value in mapping.items():
            written = str(key) if "\n" not in str(key) else str(key).replace("\n", "\\n")  # paths are lines
            joined = f"{prefix}{SEPARATOR}{written}" if prefix else written
            if elsewhere and (written_in := mapping.file_of(key, path)) != path:
                files[len(paths)] = written_in
            paths.append(joined)
            places.extend(starts.get(key, (mapping.line, 1)))
            if isinstance(value, Located):
                children.append((joined, value))
        pending.extend(reversed(children))
    recorded: dict[str, object] = {"paths": "\n".join(paths[:LIMIT]), "places": places[: 2 * LIMIT]}
    if files:
        recorded["files"] = {index: file for index, file in files.items() if index < LIMIT}
    return recorded
