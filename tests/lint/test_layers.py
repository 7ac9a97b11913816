"""Data flows one way: sources → model → analysis → rules → report → output (docs/architecture.md).
Each room of `advisor/` may import only the rooms (or the named modules of a room) below it;
the top-level helpers (`named_tuple`, `lazy_re`, `secrets`, `forked`, …) any room may use. A new
import across rooms either fits this table or changes it here, where a reviewer sees it."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "advisor"
ROOMS = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()} - {"_built"}

# room → the rooms, or room.module, it may import. `cli` parses arguments and may use any room.
ALLOWED: dict[str, set[str]] = {
    "model": set(),
    "catalog": {"model"},
    # Pure helpers the loaders share with analysis; a metrics file's sniff, so loaders leave it alone.
    "sources": {"model", "catalog", "analysis.units", "analysis.values", "analysis.listeners", "metrics.sniff"},
    "metrics": {"model", "sources.limits", "sources.text", "sources.json_reader"},
    "analysis": {"model", "catalog", "metrics", "sources.endpoints"},
    "rules": {"model", "catalog", "analysis", "metrics"},
    "diff": {"model", "analysis"},
    # recommend spells a proof's client metrics as each library reports them: the readers' table of fields.
    "recommend": {"model", "catalog", "analysis", "metrics.clients"},
    # verify and bench judge two sides by one rule (analysis.noise); bench reads the perf tool's output
    # as the metrics readers do (metrics.perf_output).
    "verify": {"model", "metrics", "analysis.noise"},
    "bench": {"analysis.noise", "metrics.perf_output"},
    "fix": {"model", "catalog", "sources", "recommend"},
    "report": {"model", "catalog", "sources", "metrics", "analysis", "rules", "fix", "diff", "live"},
    # advise gathers (the report's session), infers, plans (recommend) and orders steps with their checks.
    "advise": {"model", "metrics", "rules", "recommend", "report", "fix", "verify"},
    # a running cluster read through the Admin API: data for the model (the release its
    # metadata.version names: catalog), no judging
    "live": {"model", "catalog"},
    "output": {
        "model",
        "report",
        "diff",
        "recommend",
        "verify",
        "bench",
        "advise",
        "rules.spec",
        "rules.docs",
    },  # + SARIF help
    "cli": ROOMS,
}


def _imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "advisor":
            # `from advisor.sources import endpoints` imports advisor.sources.endpoints (or a name of the package)
            found += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "advisor"]
    return found


def _broken() -> list[str]:
    broken = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).parts
        if len(parts) == 1 or parts[0] not in ALLOWED:
            continue
        room = parts[0]
        for line, name in _imports(path):
            target = name.split(".")[1:]
            if not target or target[0] not in ROOMS or target[0] == room:
                continue  # a top-level helper, or the room itself
            allowed = ALLOWED[room]
            if target[0] in allowed or ".".join(target[:2]) in allowed:
                continue
            broken.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {room} imports {name}")
    return broken


def test_every_import_across_rooms_follows_the_data_flow() -> None:
    assert _broken() == []


def test_the_table_names_every_room() -> None:
    assert set(ALLOWED) >= ROOMS, sorted(ROOMS - set(ALLOWED))


def test_nothing_that_prepares_a_verdict_imports_the_runner() -> None:
    for room in ("analysis", "diff", "recommend"):
        for path in (PACKAGE / room).rglob("*.py"):
            assert not [n for _, n in _imports(path) if n.startswith("advisor.rules")], path
