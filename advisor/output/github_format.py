"""GitHub Actions workflow commands: annotations on the pull request's changed lines."""

from __future__ import annotations

from advisor.output import RenderOptions, inert, place
from advisor.report.model import Report

COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


def _data(text: str) -> str:
    text = inert(text)  # a CI log is a terminal too
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def render(report: Report, options: RenderOptions) -> str:
    lines = []
    for finding in report.shown:
        title = _property(f"{finding.rule} {finding.name}")
        message = finding.message + (f" (recommended: {finding.recommended})" if finding.recommended else "")
        if finding.related:
            message += f" (also at {', '.join(place(r, finding.path) for r in finding.related)})"
        message += "".join(f" (assumed: {assumption})" for assumption in finding.assumptions)
        where = f"file={_property(finding.path)},line={finding.line},col={finding.column},"
        if not finding.line:  # a live config or a scrape: no file to annotate, so the message names it
            where, message = "", f"{finding.path}: {message}"
        lines.append(f"::{COMMANDS[finding.severity]} {where}title={title}::{_data(message)}")
    for problem in [*report.problems, *report.skipped]:
        location = f"file={_property(problem.path)},line={problem.line}," if problem.line else ""
        text = problem.message if problem.line else str(problem)
        command = "notice" if problem in report.skipped else "error"
        lines.append(f"::{command} {location}title=kafka-advisor::{_data(text)}")
    return "\n".join(lines) + ("\n" if lines else "")
