"""JUnit XML for CI systems that show test reports: one test case per checked file, and one
failing test case per unsuppressed finding; unreadable inputs are errors."""

from __future__ import annotations

from collections.abc import Sequence
from xml.etree import ElementTree

from advisor.model.document import SourceFile
from advisor.model.findings import Finding


def render(findings: Sequence[Finding], files: Sequence[SourceFile], errors: Sequence[str]) -> str:
    shown = [f for f in findings if not f.suppressed]
    flagged = {f.path for f in shown}
    clean = [source for source in files if source.path not in flagged]
    suite = ElementTree.Element(
        "testsuite",
        name="kafka-advisor",
        tests=str(len(clean) + len(shown) + len(errors)),
        failures=str(len(shown)),
        errors=str(len(errors)),
        skipped=str(len(findings) - len(shown)),
    )
    for source in clean:
        ElementTree.SubElement(suite, "testcase", classname=source.path, name="no findings")
    for finding in shown:
        case = ElementTree.SubElement(
            suite, "testcase", classname=finding.path, name=f"{finding.rule} {finding.name} (line {finding.line})"
        )
        failure = ElementTree.SubElement(
            case, "failure", message=finding.message, type=f"{finding.severity}:{finding.category}"
        )
        recommended = f"\nrecommended: {finding.recommended}" if finding.recommended else ""
        failure.text = f"{finding.path}:{finding.line}:{finding.column}: {finding.rule} {finding.message}{recommended}"
    for error in errors:
        case = ElementTree.SubElement(suite, "testcase", classname="kafka-advisor", name="input")
        ElementTree.SubElement(case, "error", message=error)
    ElementTree.indent(suite)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(suite, encoding="unicode") + "\n"
