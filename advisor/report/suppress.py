"""Applies `# kafka-advisor:` suppression directives to findings and reports unused ones.

    disable-next-line CODES -- reason   the next line that is not blank or a comment
    disable CODES -- reason             from here to a matching `enable` (or the end of the file)
    enable CODES
    disable-file CODES -- reason        the whole file

CODES: comma-separated rule codes, code prefixes (KB) or rule names; none means all.
A suppressed finding is kept (JSON/SARIF show it) but never fails the run. A directive that
suppressed nothing is reported (KO001) unless every rule it names is out of the run's
selection for its file (`--ignore`, `--select`, per-file ignores): then it had nothing to do.
"""

from __future__ import annotations

from collections.abc import Callable

from advisor.model.document import Directive, Problem, SourceFile
from advisor.model.findings import Finding
from advisor.model.provenance import Location, Provenance
from advisor.model.record import Value
from advisor.report.selection import Stated, matches, unknown
from advisor.rules.findings import make
from advisor.rules.violation import Violation
from advisor.sources.directives import SUPPRESSIONS

UNUSED_RULE = "KO001"


class _Scope(Value):
    __slots__ = ("codes", "directive", "first", "last", "used")

    def __init__(self, directive: Directive, codes: list[str], first: int, last: int, used: bool = False) -> None:
        self.directive = directive
        self.codes = codes
        self.first = first
        self.last = last
        self.used = used

    def covers(self, finding: Finding, line: int) -> bool:
        """Does it suppress this finding's rule on this line of its file?"""
        in_lines = self.first <= line <= self.last
        return in_lines and (not self.codes or matches(finding.rule, finding.name, self.codes))


def _codes(argument: str) -> list[str]:
    return [] if argument in ("", "all") else [c for c in argument.split(",") if c]


def unknown_codes(files: list[SourceFile], rules: list[tuple[str, str]]) -> list[Problem]:
    """A problem (`path:line`) for each code a suppression directive names that names no rule:
    such a directive would suppress nothing, in silence."""
    problems = []
    for source in files:
        for directive in source.directives:
            if directive.verb in SUPPRESSIONS:
                stated = [Stated(code, source.path, directive.line) for code in _codes(directive.argument)]
                said = f"`{directive.verb} {directive.argument}`"
                problems += [p._replace(message=f"{said}: {p.message}", kind="input") for p in unknown(stated, rules)]
    return problems


def _next_code_line(source: SourceFile, after: int) -> int:
    for number in range(after + 1, len(source.lines) + 1):
        text = source.lines[number - 1].strip()
        if text and not text.startswith(("#", "!", "//")):
            return number
    return after + 1


def _scopes(source: SourceFile) -> list[_Scope]:
    scopes: list[_Scope] = []
    open_ranges: list[_Scope] = []
    end = max(len(source.lines), 1)
    for directive in source.directives:
        codes = _codes(directive.argument)
        if directive.verb == "disable-next-line":
            line = _next_code_line(source, directive.line)
            scopes.append(_Scope(directive, codes, line, line))
        elif directive.verb == "disable-file":
            scopes.append(_Scope(directive, codes, 1, end))
        elif directive.verb == "disable":
            scope = _Scope(directive, codes, directive.line, end)
            scopes.append(scope)
            open_ranges.append(scope)
        elif directive.verb == "enable":
            for scope in reversed(open_ranges):
                if not codes or scope.codes == codes or set(codes) & set(scope.codes):
                    scope.last = directive.line
                    open_ranges.remove(scope)
                    break
    return scopes


def _covering(by_path: dict[str, list[_Scope]], finding: Finding, place: Provenance) -> _Scope | None:
    if place.kind != "file":
        return None  # a directive stands in a file: a metric sample or a live config has none
    return next((scope for scope in by_path.get(place.path, []) if scope.covers(finding, place.line)), None)


def _part(finding: Finding, places: list[Provenance], *, suppressed: bool, justification: str) -> Finding:
    """The finding at some of its places, with the Changes made there."""
    paths = {place.path for place in places}
    changes = tuple(change for change in finding.changes if change.path in paths)
    subject = finding.subject
    names = subject.split(", ")
    if len(names) == len(finding.locations):  # one subject a place (brokers merged): name this part's own
        subject = ", ".join(n for n, place in zip(names, finding.locations, strict=True) if place in places)
    return finding._replace(location=places[0], related=tuple(places[1:]), changes=changes, suppressed=suppressed,
                            justification=justification, subject=subject)  # fmt: skip


def apply(
    findings: list[Finding],
    files: list[SourceFile],
    unused_rule: object | None,
    live: Callable[[str, list[str]], bool] = lambda path, codes: True,
) -> list[Finding]:
    """Findings with suppressed ones marked, plus one finding per directive that suppressed
    nothing; `live(path, codes)` says whether any rule the codes name runs for that file."""
    by_path = {source.path: _scopes(source) for source in files if source.directives}  # most files have none
    result: list[Finding] = []
    for finding in findings:
        if not by_path:
            result.append(finding)
            continue
        # Each place on its own: a directive on one broker's file suppresses the shared cause there only.
        covering = [_covering(by_path, finding, place) for place in finding.locations]
        if all(scope is None for scope in covering):
            result.append(finding)
            continue
        for scope in covering:
            if scope is not None:
                scope.used = True
        hidden = [place for place, scope in zip(finding.locations, covering, strict=True) if scope is not None]
        shown = [place for place, scope in zip(finding.locations, covering, strict=True) if scope is None]
        reason = next(scope for scope in covering if scope is not None).directive.reason
        result.append(_part(finding, hidden, suppressed=True, justification=reason))
        if shown:
            result.append(_part(finding, shown, suppressed=False, justification=""))
    if unused_rule is not None:
        definition = unused_rule.definition  # type: ignore[attr-defined]
        for path, scopes in by_path.items():
            for scope in scopes:
                if not scope.used and live(path, scope.codes):
                    said = f"`{scope.directive.verb} {scope.directive.argument}` suppresses nothing"
                    violation = Violation(keys=(), message=said, recommended=definition.recommended)
                    place = Location(path, scope.directive.line)
                    result.append(make(definition, violation, location=place, subject=path, component=""))
    return sorted(result, key=lambda f: f.sort_key)
