"""Rules and catalog data each have two classes on purpose: a pydantic model that validates a file
(rules/definition.py, catalog/model.py) and a plain record the run carries (rules/spec.py,
catalog/records.py), because importing pydantic and building its schemas costs a lint ~100 ms.
These tests keep the pair one model in two spellings: the same fields with the same defaults, so a
field added to one and not the other fails here, not in a user's run."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from advisor.catalog import model as catalog_model
from advisor.catalog import records
from advisor.rules import definition, spec

PAIRS = [
    (definition.RuleDefinition, spec.Definition),
    (definition.AppliesTo, spec.AppliesTo),
    (definition.Example, spec.Example),
    (definition.Fix, spec.FixSpec),
    (definition.Watch, spec.Watch),
    (catalog_model.Span, records.Span),
    (catalog_model.KeyRecord, records.KeyRecord),
    (catalog_model.LibrdkafkaProperty, records.LibrdkafkaProperty),
    (catalog_model.KafkaPythonKey, records.KafkaPythonKey),
]
# The record's name for a field the JSON spells otherwise (Span's `from`, a Python keyword).
RENAMED = {"from": "start"}
# Fields a file may hold that the run never carries: a rule's `basis` (the team's notes, never shown).
MODEL_ONLY = {"basis"}


def _model_fields(validating: type[BaseModel]) -> dict[str, Any]:
    """Field name (as the record spells it) → default (PydanticUndefined: required)."""
    fields: dict[str, Any] = {}
    for name, info in validating.model_fields.items():
        if name in MODEL_ONLY:
            continue
        written = RENAMED.get(info.alias or name, name)
        factory = info.default_factory
        fields[written] = factory() if factory is not None else info.default  # type: ignore[call-arg]
    return fields


@pytest.mark.parametrize(("validating", "carried"), PAIRS, ids=lambda c: c.__name__)
def test_the_record_has_the_models_fields(validating: type[BaseModel], carried: type) -> None:
    # Not in order: a record lists its required fields first, a model in the order a file reads.
    assert sorted(_model_fields(validating)) == sorted(carried._fields)


@pytest.mark.parametrize(("validating", "carried"), PAIRS, ids=lambda c: c.__name__)
def test_the_record_defaults_what_the_model_defaults(validating: type[BaseModel], carried: type) -> None:
    model_defaults = {name: d for name, d in _model_fields(validating).items() if d is not PydanticUndefined}
    record_defaults = dict(carried._field_defaults)
    assert set(model_defaults) == set(record_defaults), "a field has a default in one spelling only"
    for name, default in model_defaults.items():
        # The model defaults applies_to.clients to every client as a list, the record as a tuple.
        carried_default = record_defaults[name]
        if isinstance(default, list) and isinstance(carried_default, tuple):
            carried_default = list(carried_default)
        assert carried_default == default, f"{carried.__name__}.{name}"


def test_a_validated_rule_becomes_its_record_whole() -> None:
    """Every rule as run carries what its validated model holds: nothing lost, nothing added."""
    from advisor.rules.registry import load_rules

    for rule in load_rules():
        validated = definition.RuleDefinition.model_validate(_plain(rule.definition))
        assert _stripped(_plain(rule.definition)) == _stripped(validated.model_dump()), rule.definition.id


def _plain(value: Any) -> Any:
    """A record as the dicts and lists a rule file's YAML reads as."""
    if hasattr(value, "_asdict"):
        return {name: _plain(item) for name, item in value._asdict().items()}
    if isinstance(value, dict):
        return {name: _plain(item) for name, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _stripped(value: Any) -> Any:
    """Without the None fields a file leaves out (the model fills them in, a raw params dict does not)."""
    if isinstance(value, dict):
        return {name: _stripped(item) for name, item in value.items() if item is not None}
    if isinstance(value, list):
        return [_stripped(item) for item in value]
    return value
