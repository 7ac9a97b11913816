"""JUnit XML for CI systems that show test reports: one test case per checked file, and one
failing test case per unsuppressed finding; unreadable inputs are errors."""

from __future__ import annotations

from xml.etree import ElementTree

from advisor.output import RenderOptions, inert, place
from advisor.report.model import Report


def render(report: Report, options: RenderOptions) -> str:
    shown = report.shown
    flagged = {f.path for f in shown}
    clean = [source for source in report.files if source.path not in flagged]
    suite = ElementTree.Element(
        "testsuite",
        name="kafka-advisor",
        tests=str(len(clean) + len(shown) + len(report.problems) + len(report.skipped)),
        failures=str(len(shown)),
        errors=str(len(report.problems)),
        skipped=str(len(report.findings) - len(shown) + len(report.skipped)),
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
        also = "".join(f"\nalso at {place(r)}" for r in finding.related)
        also += "".join(f"\nassumed: {assumption}" for assumption in finding.assumptions)
        recommended = f"\nrecommended: {finding.recommended}" if finding.recommended else ""
        failure.text = f"{place(finding.location)}: {finding.rule} {finding.message}{also}{recommended}"
    for problem in report.problems:
        case = ElementTree.SubElement(suite, "testcase", classname="kafka-advisor", name="input")
        ElementTree.SubElement(case, "error", message=str(problem), type=problem.kind)
    for problem in report.skipped:
        case = ElementTree.SubElement(suite, "testcase", classname=problem.path, name="not read")
        ElementTree.SubElement(case, "skipped", message=str(problem))
    ElementTree.indent(suite)
    # Control characters from input are not allowed in XML 1.0: shown as escapes, never written.
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + inert(ElementTree.tostring(suite, encoding="unicode")) + "\n"
