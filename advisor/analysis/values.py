"""Does a written value satisfy the software's own definition of its key?

The definitions (type, range, choices) come from the catalog, which was generated from
Kafka's ConfigDefs and librdkafka's property table. Only what the software certainly refuses
is reported: Java parses INT/LONG/SHORT/DOUBLE/BOOLEAN strictly and checks ranges and
choices — exactly, unless the key's validator ignores case (recorded in the catalog); librdkafka
checks integer and float ranges and enum choices (compared without case here: not verified).
Values that are templates (${VAR}, {{ .Values }}) are not judged.
"""

from __future__ import annotations

import re

from advisor.catalog.lookup import KeyFacts

_JAVA_INTEGER_BOUNDS = {"SHORT": (-(2**15), 2**15 - 1), "INT": (-(2**31), 2**31 - 1), "LONG": (-(2**63), 2**63 - 1)}


# Placeholders a deployment fills in before Kafka reads the file: ${VAR}, {{ .Values.x }} and
# {% %} (Helm, Jinja), %@VAR@% and @VAR@ (Chef, Maven and Autoconf filters), <broker id> (a
# value left for the reader to fill in).
_PLACEHOLDER = re.compile(r"%@\w+@%|@[A-Za-z_][\w.]*@|<[A-Za-z][\w .-]*>|\{%")


def is_template(value: str) -> bool:
    return "${" in value or "{{" in value or value.lstrip().startswith("$") or _PLACEHOLDER.search(value) is not None


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


# java.time.Duration.parse's grammar (its own pattern, letters in either case).
_ISO_DURATION = re.compile(
    r"([-+]?)P(?:([-+]?[0-9]+)D)?(T(?:([-+]?[0-9]+)H)?(?:([-+]?[0-9]+)M)?(?:([-+]?[0-9]+)(?:[.,]([0-9]{0,9}))?S)?)?",
    re.IGNORECASE,
)


def _iso_duration_seconds(text: str) -> float | None:
    """Duration.parse's value in seconds, or None where it throws."""
    match = _ISO_DURATION.fullmatch(text)
    if match is None or match.group(3) == "T" or not any(match.group(i) for i in (2, 3)):
        return None  # "PT" and "P" alone are refused
    sign, days, _, hours, minutes, seconds, fraction = match.groups()
    whole = int(seconds or 0)
    part = int((fraction or "0").ljust(9, "0")) / 1e9
    total: float = int(days or 0) * 86400 + int(hours or 0) * 3600 + int(minutes or 0) * 60 + whole
    total += -part if (seconds or "").startswith("-") else part
    return -total if sign == "-" else total


def _offset_reset_problem(text: str) -> str | None:
    """AutoOffsetResetStrategy.Validator (Kafka 4.0+): latest, earliest or none exactly, or
    by_duration: and a non-negative ISO-8601 duration (tests/integration/test_java_client_oracle.py)."""
    if text in ("latest", "earliest", "none"):
        return None
    if text.startswith("by_duration:"):
        seconds = _iso_duration_seconds(text.removeprefix("by_duration:"))
        if seconds is None:
            return "must be by_duration: and an ISO-8601 duration (by_duration:PT1H)"
        return "must be a duration of zero or more" if seconds < 0 else None
    return "must be one of latest, earliest, none or by_duration:<ISO-8601 duration>"


# Validators whose choices the catalog cannot read from the ConfigDef (a custom class), keyed by
# the rendering the catalog recorded: another rendering (a later release) is not judged.
_JAVA_CUSTOM_VALIDATORS = {"[latest, earliest, none, by_duration:PnDTnHnMn.nS]": _offset_reset_problem}

# Choices those validators accept, for the nearest spelling of a refused value.
_JAVA_CUSTOM_CHOICES = {"[latest, earliest, none, by_duration:PnDTnHnMn.nS]": ("latest", "earliest", "none")}


def _java_problem(value: str, facts: KeyFacts) -> str | None:
    text = value.strip()  # ConfigDef trims before parsing
    kind = facts.type
    custom = _JAVA_CUSTOM_VALIDATORS.get(facts.valid or "") if not facts.choices else None
    if custom is not None:
        return custom(text)
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
        return _choice_problem(text, facts)
    if kind == "LIST" and facts.choices:
        # ValidList checks each comma-separated element (trimmed); empty elements are not judged.
        for element in (e.strip() for e in text.split(",")):
            if element and (problem := _choice_problem(element, facts)):
                return problem if element == text else f"holds {element}: each element {problem}"
    return None


def _choice_problem(text: str, facts: KeyFacts) -> str | None:
    choices = facts.choices or ()
    accepted = {c.lower() for c in choices} if facts.choices_ignore_case else set(choices)
    if (text.lower() if facts.choices_ignore_case else text) in accepted:
        return None
    miscased = text.lower() in {c.lower() for c in choices}
    return f"must be one of {', '.join(choices)}" + (" (case matters)" if miscased else "")


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


def accepted_choices(facts: KeyFacts) -> tuple[str, ...]:
    if facts.choices:
        return tuple(facts.choices)
    return _JAVA_CUSTOM_CHOICES.get(facts.valid or "", ()) if facts.client == "java" else ()


def _spelling(text: str) -> str:
    return text.strip().lower().replace("-", "_").replace(" ", "_")


# A duration written with a unit on a millisecond key: the unit's milliseconds.
_DURATION = re.compile(r"\s*([0-9]+)\s*(ms|s|m|min|h|d)\s*", re.IGNORECASE)
_UNIT_MS = {"ms": 1, "s": 1000, "m": 60_000, "min": 60_000, "h": 3_600_000, "d": 86_400_000}
_BOOLEAN_WORDS = {"yes": "true", "on": "true", "y": "true", "no": "false", "off": "false", "n": "false"}


def nearest_valid(value: str, facts: KeyFacts) -> str | None:
    """The accepted value a refused one most likely meant: the choice spelled the same but for
    case and separators (read-committed → read_committed), else the closest choice by spelling
    (earlist → earliest), element by element in a list; a millisecond key's duration with a
    unit, in milliseconds (5ms → 5, 7d → 604800000); yes/no as true/false. None when nothing
    is near: the caller must not put the default in its place, which would change what the
    setting was written to do."""
    choices = accepted_choices(facts)
    if choices and facts.type == "LIST":
        elements = [e.strip() for e in value.split(",") if e.strip()]
        fixed = [e if _choice_problem(e, facts) is None else _nearest_choice(e, choices) for e in elements]
        return ",".join(f for f in fixed if f) if fixed and all(fixed) else None
    if choices:
        return _nearest_choice(value, choices)
    text = value.strip()
    duration = _DURATION.fullmatch(text)
    if duration and facts.key.endswith(".ms"):
        number = str(int(duration.group(1)) * _UNIT_MS[duration.group(2).lower()])
        return number if value_problem(number, facts) is None else None
    if facts.type in ("BOOLEAN", "boolean"):
        return _BOOLEAN_WORDS.get(text.lower())
    return None


def _nearest_choice(value: str, choices: tuple[str, ...]) -> str | None:
    wanted = _spelling(value)
    same = [c for c in choices if _spelling(c) == wanted]
    if same:
        return same[0]
    import difflib  # only for a refused value

    close = difflib.get_close_matches(wanted, [_spelling(c) for c in choices], n=1, cutoff=0.6)
    return next((c for c in choices if close and _spelling(c) == close[0]), None)
