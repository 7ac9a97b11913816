"""Which values each Kafka Helm chart version reads (data/chart_values.json, generated from the
charts' own history by tools/catalog/gen_chart_values.py): by chart major version, the paths its
values.yaml declares or its templates read (`known`), and those whose children are the user's
(`open`). Paths are segments joined by model.chart_values.SEPARATOR."""

from __future__ import annotations

from functools import cache

from advisor import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


@cache
def chart(name: str) -> dict[str, Any]:
    from advisor.catalog import store

    data: dict[str, Any] = store.read("chart_values.json")[name]
    return data


def within(ranges: list[list[int]] | None, major: int | None) -> bool:
    """Whether ranges of majors hold `major` (any of them when None)."""
    return bool(ranges) and (major is None or any(low <= major <= high for low, high in ranges))  # type: ignore[union-attr]


def reads(name: str, path: str, major: int | None) -> bool:
    """Whether chart `name` at `major` (any version when None) declares or reads `path`."""
    return within(chart(name)["known"].get(path), major)
