"""Spans are exact in every format: for every setting of every fixture file, the key span cuts
the key as written out of the file's text and the value span cuts the raw value; lines and
columns agree with the offsets (columns in characters)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from advisor.report.session import lint
from advisor.sources import discover
from advisor.sources.spans import LineIndex

REPO_ROOT = Path(__file__).resolve().parents[2]
FILES = [c.path for c in discover([REPO_ROOT / "fixtures"])[0]]


def _agrees(location, index: LineIndex) -> bool:  # type: ignore[no-untyped-def]
    span = index.span(location.offset, location.end_offset)
    return (span.line, span.column, span.end_line, span.end_column) == (
        location.line,
        location.column,
        location.end_line,
        location.end_column,
    )


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_every_setting_s_spans_cut_its_key_and_raw_value(path: Path) -> None:
    result = lint([path])
    texts = {source.path: source.text for source in result.document.files}  # a compose file's .env too
    source = next(source for source in result.document.files if source.path == str(path))
    checked = 0
    for config_set in result.document.config_sets:
        for setting in config_set.settings.values():
            key = setting.location
            text = texts.get(key.path) or Path(key.path).read_text()  # a Spring profile file's base
            index = LineIndex(text)
            if key.offset is not None:
                written = text[key.offset : key.end_offset].strip("\"'")
                written = re.sub(r"\[([^\]]*)\]", r".\1", written).lstrip(".")  # Spring's properties[a.b]
                spelling = setting.spelling
                # YAML nests the leading parts of a Spring name: the span holds its last segments.
                assert spelling == written or spelling.endswith("." + written) or "\\" in written, (setting, written)
                assert _agrees(key, index)
                checked += 1
            value = setting.value_location
            if value is not None and value.offset is not None:
                assert setting.raw is None or text[value.offset : value.end_offset] == setting.raw, setting
                assert _agrees(value, index)
    has_settings = any(cs.settings for cs in result.document.config_sets)
    assert checked or not has_settings or source.format in ("shell",), f"{path}: no setting has a span"
