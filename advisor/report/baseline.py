"""Baselines: accept today's findings, fail only on new ones.

Entries are keyed by file, rule and the config keys involved (plus the config set's
name), never by line, so moving or reformatting lines does not bring old findings back.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from advisor.model.document import LoadError
from advisor.model.findings import Finding

VERSION = 1


def _entry(finding: Finding, base: Path) -> tuple[str, str, str, tuple[str, ...]]:
    """A file relative to the baseline's folder; a live config or a metric source by its name."""
    if finding.location.kind != "file":
        return (finding.path, finding.rule, finding.subject, tuple(sorted(finding.keys)))
    path = Path(os.path.relpath(Path(finding.path).resolve(), base)).as_posix()
    return (path, finding.rule, finding.subject, tuple(sorted(finding.keys)))


def write(path: Path, findings: Sequence[Finding]) -> None:
    base = path.parent.resolve()
    counts = Counter(_entry(f, base) for f in findings if not f.suppressed)
    entries = [
        {"path": p, "rule": r, "subject": s, "keys": list(k), "count": n} for (p, r, s, k), n in sorted(counts.items())
    ]
    text = json.dumps({"version": VERSION, "findings": entries}, indent=2) + "\n"
    from advisor.safe_write import write_atomically

    write_atomically(path, text)  # never through a planted link at a predictable temporary name


def apply(path: Path, findings: Sequence[Finding]) -> list[Finding]:
    """Findings with those recorded in the baseline marked suppressed (up to the recorded count)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise LoadError(str(path), 1, "baseline file not found (create it with --write-baseline)") from error
    except (OSError, UnicodeDecodeError) as error:  # a folder, no permission, not text
        reason = getattr(error, "strerror", None) or "not UTF-8 text"
        raise LoadError(str(path), 1, f"baseline file cannot be read: {reason}") from error
    except json.JSONDecodeError as error:
        raise LoadError(str(path), error.lineno, f"invalid baseline JSON: {error.msg}") from error
    if data.get("version") != VERSION:
        raise LoadError(str(path), 1, f"unsupported baseline version {data.get('version')!r} (expected {VERSION})")
    base = path.parent.resolve()
    remaining = Counter(
        {(e["path"], e["rule"], e["subject"], tuple(sorted(e["keys"]))): e["count"] for e in data["findings"]}
    )
    result = []
    for finding in findings:
        key = _entry(finding, base)
        if not finding.suppressed and remaining[key] > 0:
            remaining[key] -= 1
            finding = finding._replace(suppressed=True, justification="baseline")
        result.append(finding)
    return result
