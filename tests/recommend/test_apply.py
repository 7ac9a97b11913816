"""`recommend --apply`: one step of the plan written into the user's own file by the fix writers —
the first step by default, the keys `--only` names instead, every step with `--all` (said not to be
the method) — then the command that proves it; everything else in the file byte for byte as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.cli import main

PRODUCER = "# orders\r\nbootstrap.servers=k:9092\r\nlinger.ms=0\r\nbatch.size=16384\r\nacks=1\r\n"


def _apply(tmp_path: Path, *flags: str) -> tuple[int, Path]:
    path = tmp_path / "orders.producer.properties"
    path.write_bytes(PRODUCER.encode())
    return main(["recommend", "--goal", "throughput", "--apply", *flags, str(path)]), path


def test_the_first_step_alone_is_written_then_its_check_is_printed(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, path = _apply(tmp_path)
    assert code == 0
    after = path.read_bytes().decode()
    assert after == PRODUCER.replace("acks=1\r\n", "acks=all\r\nenable.idempotence=true\r\n")  # the idempotence step
    out = capsys.readouterr().out
    assert "applied acks=all, enable.idempotence=true to" in out
    assert "--before producer-before.properties --after" in out and str(path) in out


def test_only_changes_that_key_alone(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, path = _apply(tmp_path, "--only", "linger.ms")
    assert code == 0
    before, after = PRODUCER.split("\r\n"), path.read_bytes().decode().split("\r\n")
    assert [(b, a) for b, a in zip(before, after, strict=True) if b != a] == [("linger.ms=0", after[2])]
    assert after[2].startswith("linger.ms=") and after[2] != "linger.ms=0"
    assert "kafka-advisor verify --before before.prom --after after.prom --expect linger.ms" in capsys.readouterr().out


def test_all_writes_every_step_and_says_it_is_not_the_method(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, path = _apply(tmp_path, "--all")
    assert code == 0
    after = path.read_text()
    assert "acks=all" in after and "linger.ms=0" not in after and "batch.size=16384" not in after
    assert "one step at a time, each checked before the next, is the method" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--only", "no.such.key"], "--only no.such.key: not a change this plan makes"),
        (["--only", "linger.ms", "--all"], "--only or --all go with --apply, not together"),
    ],
)
def test_what_cannot_be_applied_is_an_error_and_nothing_is_written(tmp_path: Path, capsys, flags, said) -> None:  # type: ignore[no-untyped-def]
    code, path = _apply(tmp_path, *flags)
    assert code == 2 and said in capsys.readouterr().err
    assert path.read_bytes().decode() == PRODUCER


def test_apply_needs_configuration_files(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["recommend", "--goal", "throughput", "--apply"]) == 2
    assert "--apply needs CONFIG files" in capsys.readouterr().err
