"""The value paths a Helm values file writes (ConfigSet.facts["chart_values"]), kept compact —
one string and one array a file, since a chart's full values file has over a thousand keys:
`paths` joined by newlines, `places` the line and column of each path's key, in turn, and
`files` (only when some are) the file of each path written in another file than the values'
own (a Terraform helm_release's `set` merged over them), by the path's index."""

from __future__ import annotations

SEPARATOR = "/"  # between a path's segments, as the catalog writes them: Kafka keys hold dots


def entries(recorded: dict[str, object]) -> list[tuple[str, int, int, str | None]]:
    """The recorded paths as (path, line, column, file: None for the values file's own)."""
    paths = str(recorded["paths"]).split("\n") if recorded["paths"] else []
    places = recorded["places"]
    files: dict[int, str] = recorded.get("files") or {}  # type: ignore[assignment]
    return [(p, places[2 * i], places[2 * i + 1], files.get(i)) for i, p in enumerate(paths)]  # type: ignore[index]
