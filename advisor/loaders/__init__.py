"""Loaders turn input files into the normalized document; one module per format.

`load(paths, options)` walks the paths, picks a loader per file and collects
config sets, source lines and directives. A file that cannot be parsed adds a
LoadError and the others are still loaded.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from advisor.document import Document, LoadError
from advisor.loaders import properties


@dataclass(frozen=True)
class LoadOptions:
    component: str | None = None  # --as
    client: str | None = None  # --client


# Loaders in the order they are asked; each claims files by name (and content when it must).
LOADERS = (properties,)


def _claim(path: Path) -> object | None:
    for loader in LOADERS:
        if loader.claims(path):
            return loader
    return None


def discover(paths: Iterable[Path]) -> tuple[list[Path], list[Path], list[Path]]:
    """(files to load, files of unknown kind named explicitly, missing paths)."""
    found: list[Path] = []
    unknown: list[Path] = []
    missing: list[Path] = []
    for path in paths:
        if path.is_dir():
            for candidate in sorted(path.rglob("*")):
                hidden = any(part.startswith(".") for part in candidate.relative_to(path).parts)
                if candidate.is_file() and not hidden and _claim(candidate):
                    found.append(candidate)
        elif path.is_file():
            (found if _claim(path) else unknown).append(path)
        else:
            missing.append(path)
    return found, unknown, missing


def load(files: Iterable[Path], options: LoadOptions) -> Document:
    document = Document()
    for path in files:
        loader = _claim(path)
        assert loader is not None
        try:
            text = read_text(path)
            source, config_sets = loader.load(str(path), text, options)  # type: ignore[attr-defined]
        except LoadError as error:
            document.errors.append(error)
            continue
        document.files.append(source)
        document.config_sets.extend(config_sets)
    return document


def read_text(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")  # what java.util.Properties.load(InputStream) assumes
