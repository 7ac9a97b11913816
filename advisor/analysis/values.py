"""Does a written value satisfy the software's own definition of its key?

The definitions (type, range, choices) come from the catalog, which was generated from
Kafka's ConfigDefs and librdkafka's property table. Only what the software certainly refuses
is reported: Java parses INT/LONG/SHORT/DOUBLE/BOOLEAN strictly and checks ranges and
choices — exactly, unless the key's validator ignores case (recorded in the catalog); librdkafka
checks integer and float ranges and enum choices (compared without case here: not verified).
Values that are templates (${VAR}, {{ .Values }}) are not judged.
"""

from __future__ import annotations

from advisor.catalog.lookup import KeyFacts

_JAVA_INTEGER_BOUNDS = {"SHORT": (-(2**15), 2**15 - 1), "INT": (-(2**31), 2**31 - 1), "LONG": (-(2**63), 2**63 - 1)}


def is_template(value: str) -> bool:
    return "${" in value or "{{" in value or value.lstrip().startswith("$")


def _number_text(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)


def _range_problem(number: float, facts: KeyFacts) -> str | None:
    if facts.min is not None and number < facts.min:
        return f"must be at least {_number_text(facts.min)}"
    if facts.max is not None and number > facts.max:
        return f"must be at most {_number_text(facts.max)}"
    return None


def _java_integer(text: str) -> int:
    """Integer.parseInt's reading: Python's int() also takes 1_000, which Java refuses."""
    if "_" in text:
        raise ValueError(text)
    return int(text, 10)


def _java_double(text: str) -> float:
    """Double.parseDouble's reading: NaN and Infinity spelled Java's way only (Python's float()
    also takes nan, inf and 1_0)."""
    word = text.lstrip("+-")
    if "_" in text or (word.lower() in ("nan", "inf", "infinity") and word not in ("NaN", "Infinity")):
        raise ValueError(text)
    return float(text)


def _java_problem(value: str, facts: KeyFacts) -> str | None:
    text = value.strip()  # ConfigDef trims before parsing
    kind = facts.type
    if kind in _JAVA_INTEGER_BOUNDS:
        try:
            number = _java_integer(text)
        except ValueError:
            return f"is not a whole number ({kind})"
        low, high = _JAVA_INTEGER_BOUNDS[kind]
        if not low <= number <= high:
            return f"does not fit a Java {kind}"
        return _range_problem(number, facts)
    if kind == "DOUBLE":
        try:
            return _range_problem(_java_double(text), facts)
        except ValueError:
            return "is not a number"
    if kind == "BOOLEAN":
        return None if text.lower() in ("true", "false") else "must be true or false"
    if kind == "STRING" and facts.choices:
        accepted = {c.lower() for c in facts.choices} if facts.choices_ignore_case else set(facts.choices)
        if (text.lower() if facts.choices_ignore_case else text) not in accepted:
            miscased = text.lower() in {c.lower() for c in facts.choices}
            return f"must be one of {', '.join(facts.choices)}" + (" (case matters)" if miscased else "")
    return None


def _librdkafka_problem(value: str, facts: KeyFacts) -> str | None:
    text = value.strip()
    if facts.type == "integer":
        try:  # non-numeric words (acks=all) are librdkafka's own aliases: not judged
            return _range_problem(int(text, 10), facts)
        except ValueError:
            return None
    if facts.type == "float":
        try:
            return _range_problem(float(text), facts)
        except ValueError:
            return None
    if facts.type == "enum value" and facts.choices and text.lower() not in {c.lower() for c in facts.choices}:
        return f"must be one of {', '.join(facts.choices)}"
    return None


def value_problem(value: str, facts: KeyFacts) -> str | None:
    """Why the software refuses `value` for this key, or None (accepted, or not sure)."""
    if is_template(value) or value.strip() == "":
        return None
    if facts.client == "java":
        return _java_problem(value, facts)
    if facts.client == "librdkafka":
        return _librdkafka_problem(value, facts)
    return None
