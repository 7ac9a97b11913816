"""A property of `lint --fix`, over files made at random (a seeded generator: the same files every
run): whatever comments, blank lines, separators, quoting, indentation and line endings surround a
fixable setting, the fixed file differs from the original only in that setting's value."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from advisor.cli import main

RUNS = 60


def _noise(rnd: random.Random, newline: str, comment: str) -> str:
    """Lines no reader reads as settings: blank, or comments."""
    lines = [rnd.choice(["", f"{comment} a note", f"{comment}", f"   {comment} indented note", f"{comment}key=value"])
             for _ in range(rnd.randint(0, 3))]  # fmt: skip
    return "".join(line + newline for line in lines)


def _properties(rnd: random.Random) -> tuple[str, int, int, str]:
    """A producer file: (text, start and end of the value the fix changes, the fixed value)."""
    newline = rnd.choice(["\n", "\r\n"])
    separator = rnd.choice(["=", ":", " = ", " : ", "\t=\t", " "])
    parts = [_noise(rnd, newline, rnd.choice("#!")), "bootstrap.servers=kafka-1:9092", newline,
             _noise(rnd, newline, "#"), f"enable.idempotence{rnd.choice(['=', ': '])}true", newline,
             _noise(rnd, newline, "!"), rnd.choice(["", "  "]), "max.in.flight.requests.per.connection",
             separator]  # fmt: skip
    head = "".join(parts)
    value = str(rnd.randint(6, 99))
    tail = rnd.choice(["", newline]) if rnd.random() < 0.5 else newline + _noise(rnd, newline, "#") + "acks=all"
    return head + value + tail, len(head), len(head) + len(value), "5"


def _strimzi(rnd: random.Random) -> tuple[str, int, int, str]:
    """A Strimzi Kafka resource whose config turns the log cleaner off, quoted any way YAML allows."""
    newline = rnd.choice(["\n", "\r\n"])
    indent = rnd.choice([2, 4])
    pad = " " * indent
    head = (f"apiVersion: kafka.strimzi.io/v1beta2{newline}kind: Kafka{newline}{_noise(rnd, newline, '#')}"
            f"metadata:{newline}{pad}name: events{newline}spec:{newline}{pad}kafka:{newline}"
            f"{pad * 2}version: 4.0.0{newline}{pad * 2}replicas: 3{newline}{pad * 2}config:{newline}"
            f"{_noise(rnd, newline, pad * 3 + '#')}{pad * 3}log.cleaner.enable:{rnd.choice([' ', '  '])}")  # fmt: skip
    quote = rnd.choice(["", "'", '"'])
    head += quote
    comment = rnd.choice(["", "  # off for now", " #x"])
    tail = quote + comment + rnd.choice(["", newline, f"{newline}{pad * 3}min.insync.replicas: 2{newline}"])
    return head + "false" + tail, len(head), len(head) + len("false"), "true"


@pytest.mark.parametrize(("make", "name"), [(_properties, "orders.producer.properties"), (_strimzi, "kafka.yaml")],
                         ids=["properties", "strimzi"])  # fmt: skip
def test_only_the_fixed_value_differs(tmp_path: Path, make, name: str, capsys) -> None:  # type: ignore[no-untyped-def]
    rnd = random.Random(f"kafka-advisor-fix-{name}")
    for run in range(RUNS):
        text, start, end, fixed = make(rnd)
        path = tmp_path / str(run) / name
        path.parent.mkdir()
        path.write_bytes(text.encode())
        main(["lint", str(path), "--fix"])
        capsys.readouterr()
        assert path.read_bytes().decode() == text[:start] + fixed + text[end:], repr(text)
