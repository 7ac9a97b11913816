"""Spring configuration classes read from their Java source: the fields a class binds, their
types and the defaults their initializers give, its constants and enums, and — for Camunda's
unified configuration — the property prefix each class declares and the legacy properties each
getter still reads, with the compatibility mode it reads them in.

Only what these classes are written with is understood (field initializers of literals,
constants, `Duration.ofX(n)`, `DataSize.ofX(n)`, `new Type()`, enum constants; getters that call
`UnifiedConfigurationHelper.validateLegacyConfiguration…`; setters' `checkArgument`/`checkPositive`);
anything else is kept as the text it was (`unparsed`), never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_STRING = re.compile(r'"(?:\\.|[^"\\])*"')
_TYPE_DECL = re.compile(r"\b(class|enum|interface|record)\s+(\w+)[^{;]*\{")
_MODIFIERS = {"public", "private", "protected", "static", "final", "transient", "volatile"}
_FIELD = re.compile(
    r"^\s*(?P<annotations>(?:@[\w.]+(?:\([^)]*\))?\s+)*)(?P<modifiers>(?:(?:public|private|protected|static|final"
    r"|transient|volatile)\s+)*)(?P<type>[\w.]+(?:\s*<[\w.<>,?\s]*>)?(?:\[\])?)\s+(?P<name>\w+)\s*(?:=\s*(?P<init>.+))?$",
    re.S,
)
_METHOD = re.compile(r"(?:(?:public|private|protected|static|final|synchronized)\s+)*(?:<[^>]*>\s+)?"
                     r"(?P<returns>[\w.<>,?\s\[\]]+?)\s+(?P<name>\w+)\s*\((?P<params>[^)]*)\)\s*(?:throws[^{]*)?$",
                     re.S)  # fmt: skip
_LEGACY_CALL = re.compile(
    r"validate(?:Sensitive)?LegacyConfiguration\w*\(\s*PREFIX\s*\+\s*\"(?P<suffix>[^\"]+)\"\s*,\s*(?P<value>[^,]+),"
    r"\s*(?P<type>[\w.<>]+)\.class\s*,\s*BackwardsCompatibilityMode\.(?P<mode>\w+)\s*,\s*(?P<legacy>\w+)\s*\)",
    re.S,
)
_SETTER = re.compile(r"set([A-Z]\w*)")
_ONE_PARAM = re.compile(r"(?:final\s+)?(?P<type>[\w.]+(?:\s*<[\w.<>,?\s]*>)?)\s+\w+")
_ANNOTATION = re.compile(r"@[\w.]+(?:\([^()]*\))?")
_CHECK_RANGE = re.compile(r"checkArgument\(\s*(?P<condition>[^,]+?)\s*,\s*\"")
_CHECK_POSITIVE = re.compile(r"checkPositive\(\s*(\w+)\s*,")
_SET_OF = re.compile(r"Set\.of\((?P<items>[^)]*)\)", re.S)
_TIME_UNITS = {"Nanos": "ns", "Millis": "ms", "Seconds": "s", "Minutes": "m", "Hours": "h", "Days": "d"}
_SIZE_UNITS = {"Bytes": "B", "Kilobytes": "KB", "Megabytes": "MB", "Gigabytes": "GB", "Terabytes": "TB"}
_PRIMITIVE_ZERO = {"int": "0", "long": "0", "short": "0", "byte": "0", "double": "0.0", "float": "0.0",
                   "boolean": "false"}  # fmt: skip


@dataclass
class Field:
    name: str
    type: str
    init: str | None  # the initializer as written (None: none)
    static: bool
    doc: str = ""
    private: bool = False  # not importable elsewhere (a static import never names it)


@dataclass
class Method:
    name: str
    params: str
    body: str


@dataclass
class JavaClass:
    name: str
    kind: str  # class | enum | interface | record
    fields: list[Field] = field(default_factory=list)
    methods: list[Method] = field(default_factory=list)
    enum_values: list[str] = field(default_factory=list)
    outer: str | None = None

    def constant(self, name: str) -> str | None:
        for f in self.fields:
            if f.static and f.name == name:
                return f.init
        return None

    def method(self, name: str) -> Method | None:
        return next((m for m in self.methods if m.name == name), None)


def _masked(text: str) -> tuple[str, dict[int, str]]:
    """The text with comments and string contents blanked (same length: offsets hold), and the
    javadoc comments by the offset where each ends."""
    docs: dict[int, str] = {}

    def blank_comment(match: re.Match[str]) -> str:
        if match.group().startswith("/**"):
            body = re.sub(r"^\s*\*\s?", "", match.group()[3:-2], flags=re.M)
            docs[match.end()] = " ".join(body.split())
        return re.sub(r"[^\n]", " ", match.group())

    def blank_string(match: re.Match[str]) -> str:
        return '"' + "_" * (len(match.group()) - 2) + '"'

    # strings first, so a // inside a string is not a comment; then comments
    without_strings = _STRING.sub(blank_string, text)
    masked_comments = _COMMENT.sub(blank_comment, without_strings)
    return masked_comments, docs


def _closing(masked: str, opening: int) -> int:
    depth = 0
    for index in range(opening, len(masked)):
        char = masked[index]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index
    raise ValueError("unbalanced braces")


def parse(text: str) -> dict[str, JavaClass]:
    """Every class and enum of one source file (nested ones too), by simple name."""
    masked, docs = _masked(text)
    found: dict[str, JavaClass] = {}
    _parse_body(text, masked, docs, 0, len(masked), None, found)
    return found


def _parse_body(
    text: str, masked: str, docs: dict[int, str], start: int, end: int, owner: JavaClass | None,
    found: dict[str, JavaClass],
) -> None:  # fmt: skip
    """The members of one type body (or the file, owner None): declarations at depth 0 only."""
    position = start
    segment_start = start
    while position < end:
        char = masked[position]
        if char == ";":
            if owner is not None:
                _statement(text[segment_start:position], masked[segment_start:position], docs, segment_start, owner)
            position += 1
            segment_start = position
        elif char == "{":
            closing = _closing(masked, position)
            header = masked[segment_start:position]
            declared = _TYPE_DECL.search(masked, segment_start, position + 1)
            is_type = declared is not None and declared.end() == position + 1
            if is_type:
                inner = JavaClass(declared.group(2), declared.group(1), outer=owner.name if owner else None)
                found.setdefault(inner.name, inner)
                if inner.kind == "enum":
                    _enum_values(masked[position + 1 : closing], inner)
                _parse_body(text, masked, docs, position + 1, closing, inner, found)
            # an annotation's arguments (`@Deprecated(since = "8.1.0")`) are no initializer's `=`
            bare = _ANNOTATION.sub(" ", header)
            if not is_type and owner is not None:
                method = _METHOD.search(bare.strip())
                if method is not None and "=" not in bare:
                    owner.methods.append(Method(method.group("name"), method.group("params"),
                                                text[position + 1 : closing]))  # fmt: skip
            position = closing + 1
            # `= new X() { … };` and array initializers end at the next ';': keep the segment open
            if "=" in bare and owner is not None and declared is None:
                continue
            segment_start = position
        else:
            position += 1


def _enum_values(body: str, into: JavaClass) -> None:
    constants = body.split(";", 1)[0]
    depth, current, names = 0, "", []
    for char in constants:
        if char in "({":
            depth += 1
        elif char in ")}":
            depth -= 1
        elif char == "," and depth == 0:
            names.append(current)
            current = ""
            continue
        if depth == 0:
            current += char
    names.append(current)
    into.enum_values = [n.strip() for n in names if re.fullmatch(r"\s*[A-Z][A-Z0-9_]*\s*", n)]


def _statement(original: str, masked: str, docs: dict[int, str], offset: int, owner: JavaClass) -> None:
    match = _FIELD.match(masked)
    if match is None or (owner.kind == "enum" and not match.group("modifiers")):
        return
    modifiers = set(match.group("modifiers").split())
    if not modifiers <= _MODIFIERS or match.group("type") in ("return", "throw", "package", "import"):
        return
    init = None
    if match.group("init") is not None:
        init = " ".join(original[match.start("init") :].split())
    doc = _doc_before(docs, offset, masked, match.start("modifiers"))
    owner.fields.append(Field(match.group("name"), " ".join(match.group("type").split()), init,
                              "static" in modifiers, doc, "private" in modifiers))  # fmt: skip


def _doc_before(docs: dict[int, str], offset: int, masked: str, start: int) -> str:
    """The javadoc that ends right before a declaration (only blanks and annotations between)."""
    for end, doc in docs.items():
        relative = end - offset
        if 0 <= relative <= start and not re.sub(r"@[\w.]+(\([^)]*\))?", "", masked[relative:start]).strip():
            return doc
    return ""


# --- values -------------------------------------------------------------------------------


class Unparsed(str):
    """An initializer this reader does not evaluate, kept as written."""


def evaluate(init: str | None, java_type: str, owner: JavaClass, classes: dict[str, JavaClass]) -> str | None:
    """The default an initializer gives, as a Spring property would spell it (200ms, 2GB, true,
    AIMD); None: no default (null, or an object without a value of its own); Unparsed: not read."""
    if init is None:
        return _PRIMITIVE_ZERO.get(java_type)
    init = init.strip()
    if init == "null":
        return None
    if init in ("true", "false"):
        return init
    if re.fullmatch(r"-?\d[\d_]*[lL]?", init):
        return init.replace("_", "").rstrip("lL")
    if re.fullmatch(r"-?\d[\d_]*\.\d+[dDfF]?|-?\d+[dDfF]", init):
        return init.replace("_", "").rstrip("dDfF")
    if (product := re.fullmatch(r"(\d[\d_]*)\s*\*\s*(\d[\d_]*)", init)) is not None:
        return str(int(product.group(1).replace("_", "")) * int(product.group(2).replace("_", "")))
    if re.fullmatch(r'"(?:\\.|[^"\\])*"', init):
        return init[1:-1]
    if init == "Duration.ZERO":
        return "0ms"
    if (duration := re.fullmatch(r"Duration\.of(\w+)\(\s*([\d_]+)L?\s*\)", init)) and duration.group(1) in _TIME_UNITS:
        return duration.group(2).replace("_", "") + _TIME_UNITS[duration.group(1)]
    if (size := re.fullmatch(r"DataSize\.of(\w+)\(\s*([\d_]+)L?\s*\)", init)) and size.group(1) in _SIZE_UNITS:
        return size.group(2).replace("_", "") + _SIZE_UNITS[size.group(1)]
    if re.fullmatch(r"new\s+[\w.<>]+\(\s*\)", init):
        return None  # a nested object: its own fields hold the defaults
    if re.fullmatch(r"[A-Z][A-Z0-9_]*", init):
        found = _constant(init, owner, classes)
        if found is not None:
            return evaluate(found[0], java_type, found[1], classes)
    qualified = re.fullmatch(r"(?:[\w.]+\.)?([A-Z]\w*)\.([A-Z][A-Z0-9_]*)", init)
    if qualified and qualified.group(1) in classes and classes[qualified.group(1)].constant(qualified.group(2)):
        holder = classes[qualified.group(1)]  # another class's constant (ConfigurationDefaults.DEFAULT_PORT)
        return evaluate(holder.constant(qualified.group(2)), java_type, holder, classes)
    enum = re.fullmatch(r"(?:[\w.]+\.)?(\w+)\.([A-Z][A-Z0-9_]*)", init)
    if enum and enum.group(1) in classes and enum.group(2) in classes[enum.group(1)].enum_values:
        return enum.group(2)
    return Unparsed(init)


def _constant(name: str, owner: JavaClass, classes: dict[str, JavaClass]) -> tuple[str, JavaClass] | None:
    """A constant's initializer and the class that declares it: the owner or a class enclosing it,
    else (a static import) the one class of those read that declares it — none where several do."""
    scope: JavaClass | None = owner
    while scope is not None:
        value = scope.constant(name)
        if value is not None:
            return value, scope
        scope = classes.get(scope.outer) if scope.outer else None
    holders = [cls for cls in classes.values()
               if any(f.static and f.name == name and not f.private for f in cls.fields)]  # fmt: skip
    if len({cls.constant(name) for cls in holders}) == 1:
        return holders[0].constant(name), holders[0]  # type: ignore[return-value]
    return None


def string_set(init: str | None) -> list[str]:
    """The strings of a `Set.of("a", "b")` initializer, in the order written."""
    if init is None or (match := _SET_OF.search(init)) is None:
        return []
    return [s[1:-1] for s in _STRING.findall(match.group("items"))]


# --- what a class binds ------------------------------------------------------------------


def bound_fields(cls: JavaClass) -> list[Field]:
    """The instance fields Spring binds: those with a getter (a nested object needs no setter) or
    a setter (Spring binds a value through its setter alone: a deprecated key the class maps onto
    its successor, a flag read through a method of another name)."""
    names = {m.name for m in cls.methods}
    bound = []
    for f in cls.fields:
        if f.static:
            continue
        capital = f.name[:1].upper() + f.name[1:]
        if {f"get{capital}", f"is{capital}", f"set{capital}"} & names:
            bound.append(f)
    fields = {f.name for f in bound}
    for method in cls.methods:  # a setter with no field behind it binds a key all the same (setContactPoint)
        setter = _SETTER.fullmatch(method.name)
        param = _ONE_PARAM.fullmatch(method.params.strip())
        if setter is None or param is None:
            continue
        name = setter.group(1)[:1].lower() + setter.group(1)[1:]
        if name not in fields:
            fields.add(name)
            bound.append(Field(name, " ".join(param.group("type").split()), None, False))
    return bound


def write_only(cls: JavaClass, f: Field) -> bool:
    """A field with a setter and no getter: bound, but read only by the class itself."""
    names = {m.name for m in cls.methods}
    capital = f.name[:1].upper() + f.name[1:]
    return f"set{capital}" in names and not {f"get{capital}", f"is{capital}"} & names


def legacy_reads(cls: JavaClass) -> list[dict[str, object]]:
    """The unified properties a class's getters validate against legacy ones: [{suffix, mode,
    legacy: [keys]}]. Reads only `PREFIX + ".x"` calls, the form these classes use."""
    found = []
    for method in cls.methods:
        for call in _LEGACY_CALL.finditer(method.body):
            legacy = string_set(cls.constant(call.group("legacy")))
            found.append(
                {
                    "suffix": call.group("suffix"),
                    "mode": call.group("mode"),
                    "legacy": legacy,
                    "type": call.group("type"),
                }
            )
    return found


def checks(cls: JavaClass) -> dict[str, list[str]]:
    """What each setter refuses, as its Preconditions say: {field: ["> 0", "< 1.0", ">= 0.5", ...]}."""
    found: dict[str, list[str]] = {}
    for method in cls.methods:
        if not method.name.startswith("set") or len(method.name) < 4:
            continue
        name = method.name[3].lower() + method.name[4:]
        for positive in _CHECK_POSITIVE.finditer(method.body):
            if positive.group(1) == name:
                found.setdefault(name, []).append("> 0")
        for condition in _CHECK_RANGE.finditer(method.body):
            for part in condition.group("condition").split("&&"):
                bound = re.fullmatch(rf"\s*{name}\s*(<=|>=|<|>)\s*(-?[\d.]+)\s*", part)
                if bound:
                    found.setdefault(name, []).append(f"{bound.group(1)} {bound.group(2)}")
    return found


def kebab(name: str) -> str:
    """A Java field name as Camunda's unified properties spell it (requestTimeout → request-timeout)."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"-\1", name).lower()
