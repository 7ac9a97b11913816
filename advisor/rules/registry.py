"""Loads every rule definition (rules/*.yaml) and the Python checks they may name."""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache, cached_property
from pathlib import Path

from advisor import TYPE_CHECKING, resources
from advisor.catalog.store import cache_dir, model_digest
from advisor.model.document import LoadError
from advisor.model.record import Record
from advisor.named_tuple import NamedTuple
from advisor.rules.spec import Definition, in_range

if TYPE_CHECKING:
    from typing import Any

    from advisor.rules.violation import NotJudged, Violation

# A Python check gets the rule context and the config set and returns one Violation per
# finding (empty list: none), each with what it says beyond the rule (message, keys, place...),
# or a NotJudged where the set writes in the rule's domain but not what it judges by (a note).
PythonCheck = Callable[[dict[str, "Any"], "Any"], "list[Violation] | NotJudged"]
PYTHON_CHECKS: dict[str, PythonCheck] = {}
# The message arguments each check gives its findings ({key}): placeholders its rules may use.
CHECK_ARGUMENTS: dict[str, tuple[str, ...]] = {}
CROSS_FILE_CHECKS: set[str] = set()  # checks that read the cluster's other files (`peers`)
# A cluster check sees one cluster (its members, its peers summary, the rule's params) and
# returns violations that say where they are: rules with scope `cluster` name it.
# None: what the check judges was not read for this cluster (a live part not permitted), not judged;
# a NotJudged: there is something to judge but not what it is judged by (said in the run's notes)
ClusterCheck = Callable[["Any", dict[str, "Any"], dict[str, "Any"]], "Any"]
CLUSTER_CHECKS: dict[str, ClusterCheck] = {}
# A metric check sees the run's observations, the rule, its params and what the broker configs
# given agree on (analysis/broker_settings.py), and returns violations
# placed at the samples they read: rules with scope `entity` name it.
MetricCheck = Callable[["Any", "Any", dict[str, "Any"], "Any"], "list[Any]"]
METRIC_CHECKS: dict[str, MetricCheck] = {}


def check(name: str) -> PythonCheck:
    """The registered Python check `name`, its module imported on first use."""
    if name not in PYTHON_CHECKS:
        from advisor.rules import checks

        checks.load(name)
    return PYTHON_CHECKS[name]


def cluster_check_named(name: str) -> ClusterCheck:
    if name not in CLUSTER_CHECKS:
        from advisor.rules import checks

        checks.load(name)
    return CLUSTER_CHECKS[name]


def metric_check_named(name: str) -> MetricCheck:
    if name not in METRIC_CHECKS:
        from advisor.rules import checks

        checks.load(name)
    return METRIC_CHECKS[name]


def check_name(function: Callable[..., Any]) -> str:
    """A check's one name, as rules write it in `python:`: `module:function` of advisor/rules/checks/."""
    return f"{function.__module__.rpartition('.')[2]}:{function.__name__}"


def metric_check(arguments: tuple[str, ...] = ()) -> Callable[[MetricCheck], MetricCheck]:
    """Register a check over metric observations; its violations' message arguments are `arguments`."""

    def register(function: MetricCheck) -> MetricCheck:
        name = check_name(function)
        if name in METRIC_CHECKS or name in PYTHON_CHECKS or name in CLUSTER_CHECKS:
            raise ValueError(f"check {name!r} registered twice")
        METRIC_CHECKS[name] = function
        CHECK_ARGUMENTS[name] = arguments
        return function

    return register


def cluster_check(arguments: tuple[str, ...] = ()) -> Callable[[ClusterCheck], ClusterCheck]:
    """Register a check over one cluster; `arguments` are the placeholders its messages may use."""

    def register(function: ClusterCheck) -> ClusterCheck:
        name = check_name(function)
        if name in CLUSTER_CHECKS or name in PYTHON_CHECKS:
            raise ValueError(f"check {name!r} registered twice")
        CLUSTER_CHECKS[name] = function
        CHECK_ARGUMENTS[name] = arguments
        CROSS_FILE_CHECKS.add(name)
        return function

    return register


def python_check(arguments: tuple[str, ...] = (), *, cross_file: bool = False) -> Callable[[PythonCheck], PythonCheck]:
    """Register a check for what a JMESPath predicate cannot say; rules name it in `python:` (check_name)."""

    def register(function: PythonCheck) -> PythonCheck:
        name = check_name(function)
        if name in PYTHON_CHECKS:
            raise ValueError(f"python check {name!r} registered twice")
        PYTHON_CHECKS[name] = function
        CHECK_ARGUMENTS[name] = arguments
        if cross_file:
            CROSS_FILE_CHECKS.add(name)
        return function

    return register


class Parsed(NamedTuple):
    """A `when` predicate's syntax tree (jmespath's AST: dicts of type, children, value)."""

    expression: str
    parsed: dict[str, Any]


class Rule(Record):
    """A rule as run: its definition, its file, and its `when` predicate's syntax tree when the
    validated rule set kept one. Never changed once made; equal to, and hashed as, another of the
    same definition and file."""

    __slots__ = ("__dict__", "definition", "path", "tree")  # the __dict__ keeps the cached properties

    def __init__(self, definition: Definition, path: Path, tree: dict[str, Any] | None = None) -> None:
        self.definition = definition
        self.path = path
        self.tree = tree  # parsed when validated

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return (self.definition, self.path) == (other.definition, other.path)

    def __hash__(self) -> int:
        return hash((self.definition, self.path))

    @cached_property
    def compiled(self) -> Parsed | None:
        """The `when` predicate's syntax tree (None for a Python check): kept with the validated
        rule set in the cache, so a warm run neither imports jmespath nor parses (~7 ms of a
        one-file lint); parsed here only when the tree was not kept."""
        when = self.definition.when
        if not when:
            return None
        if self.tree is not None:
            return Parsed(when, self.tree)
        import jmespath

        return Parsed(when, jmespath.compile(when).parsed)

    @cached_property
    def predicate(self) -> Callable[[Any], Any] | None:
        """The `when` predicate as Python closures (rules/predicate.py), built on first use."""
        from advisor.rules.predicate import compile_tree

        return compile_tree(self.compiled.parsed) if self.compiled is not None else None

    @cached_property
    def reads_cluster(self) -> bool:
        """Whether the verdict reads other files of the cluster (its peers or its brokers)."""
        when = self.definition.when or ""
        if self.definition.python:
            from advisor.rules import checks

            checks.load(self.definition.python)  # registration says whether it reads peers
        if self.definition.scope in ("cluster", "client-cluster"):
            return True
        return "peers." in when or "cluster" in when or self.definition.python in CROSS_FILE_CHECKS

    @cached_property
    def required_keys(self) -> frozenset[str]:
        """Keys the predicate requires to be written (conjuncts `set."k" != null` at its top),
        so a config set without them is skipped before its context is built."""
        return frozenset(_written_key_conjuncts(self.compiled.parsed)) if self.compiled is not None else frozenset()

    @cached_property
    def all_releases(self) -> bool:
        """Whether the rule holds for every release the catalog knows."""
        from advisor import catalog

        return all(in_range(catalog.versions.parse(r), self.definition.kafka_versions) for r in catalog.releases())

    @cached_property
    def read_keys(self) -> frozenset[str]:
        """The config keys the predicate reads (`effective."k"`, `set."k"`, `defaults."k"`)."""
        if self.compiled is None:
            return frozenset()
        return frozenset(_keys_read(self.compiled.parsed, _KEY_SECTIONS))

    @cached_property
    def default_keys(self) -> frozenset[str]:
        """The keys whose defaults the predicate compares with (`defaults."k"`)."""
        if self.compiled is None:
            return frozenset()
        return frozenset(_keys_read(self.compiled.parsed, frozenset({"defaults"})))


_KEY_SECTIONS = frozenset({"effective", "set", "defaults"})


def _keys_read(node: dict[str, Any], sections: frozenset[str]) -> list[str]:
    children = node.get("children") or []
    if node["type"] == "subexpression" and len(children) >= 2:
        section, key = children[0], children[1]
        if section["type"] == "field" and section["value"] in sections and key["type"] == "field":
            return [key["value"]]
    return [key for child in children if isinstance(child, dict) for key in _keys_read(child, sections)]


def _written_key_conjuncts(node: dict[str, Any]) -> list[str]:
    if node["type"] == "and_expression":
        return [key for child in node["children"] for key in _written_key_conjuncts(child)]
    if node["type"] == "comparator" and node["value"] == "ne":
        left, right = node["children"]
        is_null = right == {"type": "field", "children": [], "value": "null"} or (
            right["type"] == "literal" and right["value"] is None
        )
        path = [c.get("value") for c in left["children"]] if left["type"] == "subexpression" else []
        if is_null and len(path) == 2 and path[0] == "set" and all(c["type"] == "field" for c in left["children"]):
            return [path[1]]
    return []


def _read_yaml(path: Path) -> Any:
    import yaml  # libyaml: rule files are read on every run, so the C loader matters

    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise LoadError(str(path), (mark.line + 1) if mark else 1, f"invalid YAML: {error}") from error


# The modules whose classes validate and carry a rule: the cache is keyed by them too.
_HERE = Path(__file__).resolve().parent
_RULE_MODELS = (_HERE / "definition.py", _HERE / "spec.py", _HERE.parent / "model" / "vocabulary.py")


def _validated_rule_set(paths: list[Path]) -> tuple[dict[Path, Any], dict[Path, Any]]:
    """Every rule file, parsed and validated with the pydantic model, and each `when`
    predicate's syntax tree. A validated rule set is cached as JSON under the hash of its
    content and of the rule model's source, so a warm run neither parses YAML nor validates nor
    parses predicates, and a changed model never trusts an old validation."""
    import hashlib  # a checkout's concern: an installed run reads what its build compiled
    import json

    digest = hashlib.sha256(model_digest(*_RULE_MODELS))
    for path in paths:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    cached = cache_dir() / "validated" / f"rules.{digest.hexdigest()[:32]}.json"
    try:
        kept = json.loads(cached.read_text(encoding="utf-8"))
        rules, trees = kept["rules"], kept["trees"]
        return {path: rules[path.name] for path in paths}, {path: trees[path.name] for path in paths}
    except (OSError, ValueError, KeyError, TypeError):
        pass  # absent, unreadable or of an older layout: parse and validate
    raw_by_path, trees = compile_rule_set(paths)
    try:
        import tempfile

        cached.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=cached.parent, prefix=".rules.")  # unique: runs may race
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump({"rules": {p.name: raw for p, raw in raw_by_path.items()},
                       "trees": {p.name: tree for p, tree in trees.items()}}, stream)  # fmt: skip
        os.replace(temporary, cached)
    except OSError:
        pass  # no writable cache: parse and validate again next time
    return raw_by_path, trees


def compile_rule_set(paths: list[Path]) -> tuple[dict[Path, Any], dict[Path, Any]]:
    """Rule files parsed and validated (LoadError on the first the model rejects), and each
    `when` predicate's syntax tree."""
    raw_by_path = {path: _read_yaml(path) for path in paths}
    _validate(raw_by_path)
    import jmespath  # syntax was checked by the model: this parse cannot fail

    trees = {
        path: jmespath.compile(raw["when"]).parsed if raw.get("when") else None for path, raw in raw_by_path.items()
    }
    return raw_by_path, trees


def _packaged_rule_set() -> tuple[dict[Path, Any], dict[Path, Any]] | None:
    """The installed package's rule set as its build compiled it (advisor/prebuilt.py)."""
    from advisor import prebuilt

    built = prebuilt.rule_set()
    if built is None:
        return None
    rules, trees = built
    folder = resources.rules_dir()
    paths = {name: folder / name for name in sorted(rules)}  # one Path each: a join costs ~5 µs
    return {path: rules[name] for name, path in paths.items()}, {path: trees[name] for name, path in paths.items()}


def _validate(raw_by_path: dict[Path, Any]) -> None:
    from pydantic import ValidationError

    from advisor.rules import placeholders
    from advisor.rules.definition import RuleDefinition

    for path, raw in sorted(raw_by_path.items()):
        try:
            RuleDefinition.model_validate(raw)
        except ValidationError as error:
            raise LoadError(str(path), 1, f"invalid rule definition:\n{error}") from error
        unknown = placeholders.unknown(raw)
        if unknown:
            field = unknown[0][0]
            lines = path.read_text(encoding="utf-8").splitlines()
            line = next((n for n, text in enumerate(lines, start=1) if text.startswith(f"{field}:")), 1)
            names = ", ".join(f"{name} in {where}" for where, name in unknown)
            raise LoadError(
                str(path), line, f"unknown placeholder {names}: not a config key, context field or check argument"
            )


@cache
def load_rules(directory: Path | None = None) -> tuple[Rule, ...]:
    """All rules, sorted by id. A broken rule file is an internal error: it never ships."""
    from advisor.rules import checks

    packaged = _packaged_rule_set() if directory is None else None
    if packaged is not None:
        raw_by_path, trees = packaged
    else:
        raw_by_path, trees = _validated_rule_set(sorted((directory or resources.rules_dir()).glob("*.yaml")))
    rules = []
    seen: dict[str, Path] = {}
    for path, raw in raw_by_path.items():
        definition = Definition.from_raw(raw)
        if path.stem != definition.id:
            raise LoadError(str(path), 1, f"rule {definition.id} must live in {definition.id}.yaml")
        if definition.id in seen:
            raise LoadError(str(path), 1, f"rule id {definition.id} already used by {seen[definition.id]}")
        if definition.python is not None and checks.module_of(definition.python) is None:
            raise LoadError(str(path), 1, f"unknown {definition.scope} check {definition.python!r}")
        seen[definition.id] = path
        rules.append(Rule(definition, path, trees.get(path)))
    return tuple(rules)
