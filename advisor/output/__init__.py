"""Formatters: they only render findings; they decide nothing."""

from __future__ import annotations

FORMATS = ("text", "json", "sarif", "junit", "github")
