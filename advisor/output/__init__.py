"""Formatters: they only render findings; they decide nothing."""

from __future__ import annotations

from advisor.model.vocabulary import OutputFormat

FORMATS = OutputFormat.values()
