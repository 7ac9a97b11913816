"""advise's questions in a terminal: what was found first, then the goal and the four numbers that
were not given (record sizes, the rate in, the p99 target, the tolerance for loss), each
pre-filled with what the inputs say or what would be assumed. Enter keeps the value shown; a bad
answer is said and asked again. `ask` reads and writes through the functions it is given."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from advisor.advise import answers
from advisor.advise.advice import Gathered, resolved_profile
from advisor.output import inert
from advisor.output.advise_text import found_lines
from advisor.recommend.profile import GOALS, LoadProfile

# field → (question, parser of an answer into {field: value}, how a value is shown)
Parser = Callable[[str], dict[str, Any]]


def _size(field: str) -> Parser:
    return lambda text: {field: answers.size(text)}


def _rate(text: str) -> dict[str, Any]:
    field, value = answers.rate(text)
    return {field: value}


def _p99(text: str) -> dict[str, Any]:
    return {"p99_ms": answers.duration_ms(text)}


def _choice(field: str, options: tuple[str, ...]) -> Parser:
    return lambda text: {field: answers.choice(text, options)}


QUESTIONS: tuple[tuple[tuple[str, ...], str, Parser], ...] = (
    (("goal",), f"Goal ({', '.join(GOALS)})", _choice("goal", GOALS)),
    (("message_bytes_avg",), "Average record size (200B, 1.5 KiB, ...)", _size("message_bytes_avg")),
    (("message_bytes_max",), "Largest record size", _size("message_bytes_max")),
    (("rate_mb_s", "rate_msgs_s"), "Average rate in (40 MB/s, 20k msg/s, ...)", _rate),
    (("p99_ms",), "End-to-end p99 target (10ms, 1.5s, none)", _p99),
    (("loss",), "May acknowledged records be lost? (none, some)", _choice("loss", ("none", "some"))),
)


def _shown(field: str, value: Any) -> str:
    if value is None:
        return "none"
    if field.startswith("message_bytes"):
        return f"{value:,} B"
    if field == "rate_mb_s":
        return f"{value:,.3g} MB/s"
    if field == "rate_msgs_s":
        return f"{value:,.0f} msg/s"
    if field == "p99_ms":
        return f"{value:g} ms"
    return str(value)


def ask(
    gathered: Gathered, given: dict[str, Any], read: Callable[[str], str], say: Callable[..., None]
) -> dict[str, Any]:
    """The profile's given fields after the questions; KeyboardInterrupt or EOFError end it."""
    for line in found_lines(gathered):
        say(inert(line))
    say("")
    say("The load profile: Enter keeps the value in brackets.")
    given = dict(given)
    for fields, question, parse in QUESTIONS:
        if any(field in given for field in fields):
            continue  # given by a flag, the profile file or the project config
        while True:
            resolved, _ = resolved_profile(given, gathered.inferred)
            field = next((f for f in fields if f in resolved.given or f in dict(resolved.seen)), fields[0])
            origin = resolved.origin(field) if field != "goal" else "the default"  # a goal given is not asked
            default = f"{_shown(field, resolved.goal if field == 'goal' else resolved[field])} — {origin}"
            text = read(f"{question} [{inert(default)}]: ")
            if not text.strip():
                break
            try:
                answer = parse(text)
                LoadProfile.model_validate({**given, **answer})
            except answers.BadAnswer as error:
                say(f"  ✗ {inert(str(error))}")
                continue
            except ValidationError as error:
                say(f"  ✗ {inert('; '.join(e['msg'] for e in error.errors()))}")
                continue
            given |= {name: value for name, value in answer.items() if value is not None}
            if answer.get("p99_ms", 0) is None:
                given.pop("p99_ms", None)
            break
    return given
