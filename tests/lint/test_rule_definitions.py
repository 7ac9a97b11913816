from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from advisor import catalog
from advisor.model.document import LoadError
from advisor.report.session import lint
from advisor.rules.definition import RuleDefinition
from advisor.rules.registry import load_rules
from advisor.rules.spec import in_range
from advisor.sources import LoadOptions

REPO_ROOT = Path(__file__).resolve().parents[2]
VALID = {
    "id": "KP999",
    "name": "example-rule",
    "summary": "An example rule for the tests.",
    "severity": "info",
    "category": "durability",
    "applies_to": {"components": ["producer"]},
    "when": "`true`",
    "message": "m",
    "rationale": "r",
    "recommended": "x",
    "example": {"bad": "a=1", "good": "a=2"},
    "references": ["somewhere"],
    "source": "a test",
}


def test_a_valid_definition_loads() -> None:
    assert RuleDefinition.model_validate(VALID).id == "KP999"


def test_a_metric_rule_fits_the_model() -> None:
    """KM rules have scope entity: an entity (a broker, a group) with its observations."""
    metric = {**VALID, "id": "KM999", "scope": "entity", "applies_to": {"components": []}}
    metric["params"] = {
        "threshold": {"type": "integer", "default": 0, "minimum": 0, "description": "partitions at most"},
        "sustained_seconds": {"type": "integer", "default": 300, "minimum": 1, "description": "sustained for"},
    }
    watched = "kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions"
    metric["watch"] = {"metric": watched, "fires": "above"}
    assert RuleDefinition.model_validate(metric).scope == "entity"
    for wrong in (
        {"watch": None},  # an entity rule says what it watches
        {"watch": {"metric": "kafka.server:type=Nothing,name=Here", "fires": "above"}},  # a metric the vocabulary has
        {"params": {}},  # its threshold and window are parameters
    ):
        with pytest.raises(ValueError):
            RuleDefinition.model_validate({**metric, **wrong})
    with pytest.raises(ValueError):  # and only an entity rule watches a metric
        RuleDefinition.model_validate({**VALID, "watch": {"metric": watched, "fires": "above"}})


@pytest.mark.parametrize(
    "change",
    [
        {"id": "KP99"},
        {"id": "XP999"},
        {"name": "Not Kebab"},
        {"severity": "fatal"},
        {"category": "vibes"},
        {"kafka_versions": "3.0+"},
        {"python": "keys:unknown_key"},  # both when and python
        {"applies_to": {"components": ["broker"]}},  # a KP rule about brokers
        {"references": []},
        {"source": "kafka-facts.md §2"},  # users cannot open the team's notes: `basis` holds them
        {"references": ["kafka-metrics.md §1.2"]},
        {"rationale": "as issue #5 says"},
        {"surprise": 1},
        {"scope": "entity"},  # only metric (KM) rules have scope entity ...
        {"id": "KM999", "applies_to": {"components": []}},  # ... and a KM rule must have it
        {"scope": "cluster"},  # a cluster rule needs a Python cluster check, not `when`
        {"scope": "file"},  # a file rule is the session's: no `when`
        {"applies_to": {"components": []}},  # components may be empty only for entity scope
        {"fix": {"value": "true", "applicability": "safe", "key": "enable.idempotence"}},  # not one of its keys
        {"params": {"limit": {"type": "integer", "default": 0, "minimum": 1, "description": "a limit of things"}}},
        {"params": {"limit": {"type": "integer", "default": "x", "description": "a limit of things"}}},
    ],
)
def test_malformed_definitions_are_rejected(change: dict) -> None:
    with pytest.raises(ValidationError):
        RuleDefinition.model_validate({**VALID, **change})


def test_version_ranges() -> None:
    assert in_range((3, 9, 1), ">=3.0,<4.0")
    assert not in_range((4, 0, 2), ">=3.0,<4.0")
    assert in_range((3, 2, 0), ">=3.2")


def test_rule_docs_and_schema_are_generated_and_fresh() -> None:
    result = subprocess.run(
        [sys.executable, str(REPO_ROOT / "tools" / "gen_rule_docs.py"), "--check"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


def _newest_release_in(spec: str) -> str:
    return [r for r in catalog.releases() if in_range(catalog.versions.parse(r), spec)][-1]


def lint_example(rule, folder: Path, text: str):  # type: ignore[no-untyped-def]
    """Lint `text` as the rule's example file (the name tells its format and component), with
    its `alongside` file beside it, at the newest release the rule applies to."""
    definition = rule.definition
    bad = definition.example.bad.lstrip()
    suffix = ".json" if bad.startswith("{") else ".env" if bad.startswith("KAFKA_") else ".properties"
    suffix = (
        ".yaml"
        if bad.startswith(("apiVersion:", "cp-kafka:", "kafka:"))
        else ".sh"
        if bad.startswith(("kafka-", "#!"))
        else suffix
    )
    stem = "application" if bad.startswith("spring.") else "example"
    if bad.startswith("services:"):
        suffix, stem = ".yml", "docker-compose"
    if definition.id.startswith("Z"):  # the Camunda pack: its files say what they are, their release a directive
        name = "docker-compose.yml" if bad.startswith("services:") else "application.yaml"
        name = "worker.env" if bad.startswith(("CAMUNDA_", "ZEEBE_")) else name
        path = folder / name
        path.write_text(text)
        return lint([path], LoadOptions()), None
    component = definition.example.component or definition.applies_to.components[0]
    client = definition.applies_to.clients[0] if component in catalog.CLIENT_COMPONENTS else None
    release = _newest_release_in(definition.kafka_versions)
    options, others = LoadOptions(component=component, client=client), []
    if definition.example.alongside is not None:  # two files side by side: each says what it is by its name
        stem, options = f"{stem}.{component}", LoadOptions()
        others.append(folder / definition.example.alongside["name"])
        others[0].write_text(definition.example.alongside["text"])
    path = folder / f"{stem}{suffix}"
    path.write_text(text)
    return lint([path, *others], options, kafka_version=release), release


@pytest.mark.parametrize("rule", load_rules(), ids=lambda r: r.definition.id)
def test_documented_examples_behave_as_documented(rule, tmp_path: Path) -> None:
    """The example in each rule's docs: `bad` fires, `good` does not (all rules active)."""
    definition = rule.definition
    for text, should_fire in ((definition.example.bad, True), (definition.example.good, False)):
        if definition.scope == "entity":  # a metric rule's example is a scrape: analyzed, beside its config
            from advisor.report.session import RunRequest, run

            (tmp_path / "example.prom").write_text(text)
            configs: tuple[Path, ...] = ()
            if definition.example.alongside is not None:
                configs = (tmp_path / definition.example.alongside["name"],)
                configs[0].write_text(definition.example.alongside["text"])
            result = run(RunRequest(paths=configs, metric_files=(tmp_path / "example.prom",)))
            assert not result.problems, result.problems
        elif definition.live:  # a live rule's example is a saved snapshot, audited offline
            from advisor.report.session import LiveTarget, RunRequest, run

            snapshot = tmp_path / "example.snapshot.json"
            snapshot.write_text(text)
            from advisor.metrics.files import split_inputs

            files: tuple[Path, ...] = ()
            if definition.example.alongside is not None:  # the repository's file, or the brokers' metrics
                files = (tmp_path / definition.example.alongside["name"],)
                files[0].write_text(definition.example.alongside["text"])
            measured, _, configs = split_inputs([str(f) for f in files])
            result = run(RunRequest(paths=tuple(configs), metric_files=tuple(measured),
                                    live=(LiveTarget(str(snapshot), path=snapshot),)))  # fmt: skip
            assert not result.problems, result.problems
        else:
            result, _ = lint_example(rule, tmp_path, text)
        fired = [f for f in result.findings if f.rule == definition.id and not f.suppressed]
        assert bool(fired) == should_fire, (text, fired)


def test_rule_set_is_validated_then_served_from_the_cache(tmp_path: Path, monkeypatch) -> None:
    from advisor.rules import registry

    monkeypatch.setenv("KAFKA_ADVISOR_CACHE_DIR", str(tmp_path))
    rules_dir = tmp_path / "rules"
    rules_dir.mkdir()
    for rule in load_rules():
        (rules_dir / rule.path.name).write_text(rule.path.read_text())
    first = registry.load_rules(rules_dir)
    (cached,) = (tmp_path / "validated").glob("rules.*.json")
    cached.write_text("{not json")  # a corrupt cache is ignored and rebuilt
    registry.load_rules.cache_clear()
    assert [r.definition.id for r in registry.load_rules(rules_dir)] == [r.definition.id for r in first]
    # A rule that breaks the model fails to load even though older content was cached.
    broken = rules_dir / "KB101.yaml"
    broken.write_text(broken.read_text().replace("severity: warning", "severity: fatal"))
    registry.load_rules.cache_clear()
    with pytest.raises(LoadError, match="invalid rule definition"):
        registry.load_rules(rules_dir)
    registry.load_rules.cache_clear()


@pytest.mark.parametrize(
    ("field", "written", "named"),
    [
        ("message", "acks={akcs}", "{akcs} in message"),  # a key misspelled
        ("message", "{cluster.broker} brokers", "{cluster.broker} in message"),  # a context field misspelled
        ("recommended", "{set.min.insync.replica}", "{set.min.insync.replica} in recommended"),
        ("message", "{peers.message_limits}", "{peers.message_limits} in message"),
        ("message", "{facts.replica}", "{facts.replica} in message"),
    ],
)
def test_a_misspelled_placeholder_fails_the_load_naming_file_and_placeholder(
    field: str, written: str, named: str, tmp_path: Path, monkeypatch
) -> None:
    from advisor.rules import registry

    monkeypatch.setenv("KAFKA_ADVISOR_CACHE_DIR", str(tmp_path / "cache"))
    rules_dir = tmp_path / "rules"
    rules_dir.mkdir()
    source = (REPO_ROOT / "rules" / "KP101.yaml").read_text()
    lines = [f"{field}: {written!r}" if line.startswith(f"{field}:") else line for line in source.splitlines()]
    (rules_dir / "KP101.yaml").write_text("\n".join(lines) + "\n")
    registry.load_rules.cache_clear()
    with pytest.raises(LoadError) as raised:
        registry.load_rules(rules_dir)
    registry.load_rules.cache_clear()
    error = raised.value
    assert error.path == str(rules_dir / "KP101.yaml")
    assert named in error.message
    assert lines[error.line - 1].startswith(f"{field}:")  # the line of the field that holds it


def test_every_placeholder_of_the_shipped_rules_names_something() -> None:
    from advisor.rules import placeholders
    from advisor.rules.registry import _read_yaml

    assert {rule.definition.id: placeholders.unknown(_read_yaml(rule.path)) for rule in load_rules()} == {
        rule.definition.id: [] for rule in load_rules()
    }


@pytest.mark.parametrize(
    ("when", "required"),
    [
        ('set."a" != null && num(effective."a") > `1`', {"a"}),
        ('set."a" != null && (set."b" != null || effective.c == `1`) && set."d" != `null`', {"a", "d"}),
        ('!(set."a" != null)', set()),
        ('set."a" != null || set."b" != null', set()),
        ('effective."a" != null', set()),
        ('set."a" == null', set()),
    ],
)
def test_keys_a_predicate_requires_are_only_its_top_level_written_conjuncts(when: str, required: set[str]) -> None:
    import jmespath

    from advisor.rules.registry import _written_key_conjuncts

    assert set(_written_key_conjuncts(jmespath.compile(when).parsed)) == required


def test_every_proof_a_rule_names_exists() -> None:
    """A rationale that says "proven by tests/..." must name a file that is there."""
    import re

    root = Path(__file__).resolve().parents[2]
    proving = 0
    for rule in load_rules():
        text = f"{rule.definition.rationale} {rule.definition.source}"
        for named in re.findall(r"tests/[\w/]+\.(?:py|java)", text):
            assert (root / named).is_file(), f"{rule.definition.id} names {named}, which does not exist"
            proving += 1
    assert proving > 30  # the pattern still finds the proofs the rules name


def test_every_check_is_named_by_its_module_and_function_and_used_by_a_rule() -> None:
    from advisor.rules import checks
    from advisor.rules.registry import CLUSTER_CHECKS, METRIC_CHECKS, PYTHON_CHECKS

    checks.load_all()
    every = {**PYTHON_CHECKS, **CLUSTER_CHECKS, **METRIC_CHECKS}
    for name, function in every.items():
        module, _, function_name = name.partition(":")
        assert function.__module__ == f"advisor.rules.checks.{module}" and function.__name__ == function_name, name
        assert checks.module_of(name) == module
    named = {rule.definition.python for rule in load_rules() if rule.definition.python}
    assert named == set(every)  # every check is used by a rule, every rule's check exists
    kinds = {"config-set": PYTHON_CHECKS, "client-cluster": PYTHON_CHECKS, "cluster": CLUSTER_CHECKS,
             "entity": METRIC_CHECKS}  # fmt: skip
    for rule in load_rules():
        if rule.definition.python:
            assert rule.definition.python in kinds[rule.definition.scope], rule.definition.id


def test_a_check_name_that_names_no_module_is_refused() -> None:
    from advisor.rules import checks

    assert checks.module_of("security:plaintext_secret") == "security"
    for wrong in ("plaintext-secret", "nosuchmodule:check", "security", "../security:x", "Security:x"):
        assert checks.module_of(wrong) is None, wrong
        with pytest.raises(LookupError, match="module:function"):
            checks.load(wrong)


def test_rules_that_judge_a_client_by_its_cluster_declare_that_scope() -> None:
    """A client predicate that reads `peers` (the other files of the set's cluster) is a
    client↔cluster rule, and says so; a topic's reads its brokers (KT107). Either way its findings
    carry the cluster's guesses (rules/runner.py: reads_cluster)."""
    rules = load_rules()
    reading = {r.definition.id for r in rules if "peers." in (r.definition.when or "")}
    declared = {r.definition.id for r in rules if r.definition.scope == "client-cluster"}
    topics = {r.definition.id for r in rules if r.definition.applies_to.components == ["topic"]}
    assert reading - topics == declared and declared
    assert all(r.reads_cluster for r in rules if r.definition.id in reading)
