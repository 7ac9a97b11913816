"""Fixes as edits: a finding's Change becomes Edits of its file through the format's writer;
`lint --diff` shows the safe ones and writes nothing. The .properties writer is checked against
the real java.util.Properties: what it writes reads back as the changed value, nothing else moves."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from advisor import fix
from advisor.fix.properties_writer import escape_key, escape_value
from advisor.model.changes import Change
from advisor.report.session import lint as lint_files
from advisor.sources import properties_syntax

REPO_ROOT = Path(__file__).resolve().parents[2]
ORACLE = REPO_ROOT / "tests" / "java" / "PropertiesOracle.java"
PRODUCER = """\
# the orders service
bootstrap.servers=orders-kafka.example:9092
acks=1
enable.idempotence=true
max.in.flight.requests.per.connection=\\
    10
block.on.buffer.full=true
linger.ms=5"""  # no line break at the end
SAFE = {"KP103", "KX100"}  # in-flight above 5 with idempotence: 5 (safe); a key removed in 0.11: removed (safe)


def _lint(path: Path) -> set[str]:
    return {f.rule for f in lint_files([path]).findings if not f.suppressed}


def test_diff_shows_the_safe_fixes_writes_nothing_and_the_fixed_file_lints_clean(tmp_path: Path) -> None:
    producer = tmp_path / "orders.producer.properties"
    producer.write_text(PRODUCER)
    assert _lint(producer) >= SAFE | {"KP101"}
    result = subprocess.run(
        [sys.executable, "-m", "advisor", "lint", str(producer), "--diff"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1
    assert producer.read_text() == PRODUCER  # nothing written
    removed = [line for line in result.stdout.splitlines() if line.startswith("-") and not line.startswith("---")]
    added = [line for line in result.stdout.splitlines() if line.startswith("+") and not line.startswith("+++")]
    assert removed == ["-max.in.flight.requests.per.connection=\\", "-    10", "-block.on.buffer.full=true"]
    assert added == ["+max.in.flight.requests.per.connection=5"]
    assert "acks=all" not in result.stdout  # KP101's fix is unsafe: never in --diff

    result_of = lint_files([producer])
    (plan,) = fix.plan(result_of.findings, result_of.document)
    fixed = tmp_path / "fixed.producer.properties"
    fixed.write_text(fix.apply(PRODUCER, plan.edits))
    assert _lint(fixed) & SAFE == set()  # the fixed text lints clean of what was fixed
    assert _lint(fixed) >= {"KP101", "KP105"}  # the unsafe ones stay: acks is the user's call
    entries, _ = properties_syntax.parse(fixed.read_text(), str(fixed))
    assert {e.key: e.value for e in entries} == {
        "bootstrap.servers": "orders-kafka.example:9092",
        "acks": "1",
        "enable.idempotence": "true",
        "max.in.flight.requests.per.connection": "5",
        "linger.ms": "5",
    }


def test_a_clean_file_has_an_empty_diff(tmp_path: Path) -> None:
    clean = tmp_path / "orders.producer.properties"
    clean.write_text("bootstrap.servers=orders-kafka.example:9092\nacks=all\n")
    result = subprocess.run(
        [sys.executable, "-m", "advisor", "lint", str(clean), "--diff"], capture_output=True, text=True, timeout=60
    )
    assert (result.returncode, result.stdout) == (0, "")


def test_changes_that_overlap_are_planned_once(tmp_path: Path) -> None:
    producer = tmp_path / "p.producer.properties"
    producer.write_text("acks=1\n")
    result = lint_files([producer])
    (config_set,) = result.document.config_sets
    two = [Change("set", "acks", "all", "safe", str(producer), config_set.name),
           Change("set", "acks", "-1", "safe", str(producer), config_set.name)]  # fmt: skip
    finding = result.findings[0]._replace(changes=tuple(two))
    (plan,) = fix.plan([finding], result.document)
    assert fix.apply("acks=1\n", plan.edits) == "acks=all\n" and plan.skipped == (two[1],)


TRICKY_VALUES = [" leading space", "back\\slash", "tab\there", "new\nline", "ünïcode ✓", "#not a comment", "a=b:c", ""]
TRICKY_KEYS = ["plain.key", "with space", "with=equals", "with:colon", "#hash", "!bang"]


def _written(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A file where every tricky key is set to a tricky value by the writer: inserted into an
    empty file one after another, then each value replaced by the next one."""
    path = tmp_path / "w.producer.properties"
    text = ""
    expected = {}
    for index, key in enumerate(TRICKY_KEYS):
        value = TRICKY_VALUES[index % len(TRICKY_VALUES)]
        text += f"{escape_key(key)}={escape_value('old')}\n"
        expected[key] = value
    path.write_text(text)
    document = lint_files([path]).document
    (config_set,) = document.config_sets
    changes = [Change("set", key, value, "safe", str(path), config_set.name) for key, value in expected.items()]
    changes.append(Change("set", "appended key", TRICKY_VALUES[0], "safe", str(path), config_set.name))
    expected["appended key"] = TRICKY_VALUES[0]
    from advisor.fix.properties_writer import edits

    text = fix.apply(text, [edit for change in changes for edit in edits(change, config_set, text)])
    path.write_text(text, encoding="utf-8")
    return path, expected


def test_the_writer_escapes_so_our_reader_reads_back_the_value(tmp_path: Path) -> None:
    path, expected = _written(tmp_path)
    entries, _ = properties_syntax.parse(path.read_text(encoding="utf-8"), str(path))
    assert {e.key: e.value for e in entries} == expected


@pytest.mark.skipif(shutil.which("java") is None, reason="needs Java to run java.util.Properties")
def test_the_writer_escapes_so_java_util_properties_reads_back_the_value(tmp_path: Path) -> None:
    sys.path.insert(0, str(REPO_ROOT / "tests" / "lint"))
    from test_properties_syntax import escape

    path, expected = _written(tmp_path)
    java = subprocess.run(["java", str(ORACLE), str(path)], capture_output=True, text=True, check=True, timeout=120)
    assert sorted(java.stdout.splitlines()) == sorted(f"{escape(k)}\t{escape(v)}" for k, v in expected.items())


def _fixable_examples() -> list:
    """Rules with a fix, whatever the format of their bad example."""
    from advisor.rules.registry import load_rules

    return [rule for rule in load_rules() if rule.definition.fix is not None and rule.definition.scope != "entity"]


@pytest.mark.parametrize("rule", _fixable_examples(), ids=lambda r: r.definition.id)
def test_each_rule_s_fix_applied_to_its_own_bad_example_makes_it_quiet(rule, tmp_path: Path) -> None:
    """Every fix, whatever its applicability and its file's format, fixes what its rule reports:
    the writer's edits applied to the rule's documented bad example (a .properties file, a
    compose file, a Strimzi resource, a client dict...) leave a file the rule no longer fires on."""
    sys.path.insert(0, str(REPO_ROOT / "tests" / "lint"))
    from test_rule_definitions import lint_example

    definition = rule.definition
    result, _ = lint_example(rule, tmp_path, definition.example.bad)
    fired = [f for f in result.findings if f.rule == definition.id]
    assert fired and all(f.changes for f in fired)
    assert all(change.key == (definition.fix.key or definition.keys[0]) for f in fired for change in f.changes)
    plans = fix.plan(fired, result.document, ("safe", "unsafe", "display-only"))
    example = Path(result.document.config_sets[0].path)
    patched = {Path(p.path): fix.apply(Path(p.path).read_text(), p.edits) for p in plans if p.edits}
    assert patched, f"no edit for {definition.id}: {[p.skipped for p in plans]}"
    for path, text in patched.items():
        if path != example:
            path.write_text(text)
    again, _ = lint_example(rule, tmp_path, patched.get(example, example.read_text()))
    assert not [f for f in again.findings if f.rule == definition.id]


def _examples_with_fix() -> list:
    from advisor.rules.registry import load_rules

    return [rule for rule in load_rules() if rule.definition.fix is not None]


@pytest.mark.parametrize("rule", _examples_with_fix(), ids=lambda r: r.definition.id)
def test_each_rule_s_fix_made_to_the_document_makes_it_quiet(rule, tmp_path: Path) -> None:
    """Format-independent: the Changes of the rule's findings on its documented bad example,
    made to the document (fix.applied: the "after" of a before/after check), leave nothing for
    the rule to report — a fix that names the wrong key or value fails here."""
    from advisor.rules import runner

    sys.path.insert(0, str(REPO_ROOT / "tests" / "lint"))
    from test_rule_definitions import lint_example

    result, release = lint_example(rule, tmp_path, rule.definition.example.bad)
    fired = [f for f in result.findings if f.rule == rule.definition.id]
    assert fired and all(f.changes for f in fired)
    after = fix.applied(result.document, [change for f in fired for change in f.changes])
    assert not [f for f in runner.run(after, [rule], kafka_version=release).findings if f.rule == rule.definition.id]
    assert (
        result.document.config_sets[0].settings
        == lint_example(rule, tmp_path, rule.definition.example.bad)[0].document.config_sets[0].settings
    )  # the original document is untouched
    # ... and it is the fix the rule documents: where its good example writes the key, the same value.
    good, _ = lint_example(rule, tmp_path, rule.definition.example.good)
    for change in (change for f in fired for change in f.changes):
        for config_set in good.document.config_sets:
            written = config_set.settings.get(change.key)
            if written is not None and change.action == "set":
                assert written.value.strip().lower() == (change.value or "").lower(), (change, written.value)
