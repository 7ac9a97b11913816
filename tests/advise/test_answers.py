"""advise's answers, written the way people write them, and the re-ask a bad one gets."""

from __future__ import annotations

import pytest

from advisor.advise import answers


@pytest.mark.parametrize(
    ("text", "expected"),
    [("200", 200), ("200B", 200), ("200 b", 200), ("1.5 MiB", 1572864), ("1,5 MiB", 1572864), ("4KiB", 4096),
     ("2kB", 2000), ("2 KB", 2000), ("1 MB", 1_000_000), ("1,000 B", 1000), (".5 KiB", 512)],
)  # fmt: skip
def test_sizes_in_the_units_people_write(text: str, expected: int) -> None:
    assert answers.size(text) == expected


@pytest.mark.parametrize(
    ("text", "said"),
    [("abc", "is not a number"), ("-5", "is below 0"), ("10 parsecs", "unknown size unit 'parsecs'"),
     ("0", "less than one byte"), ("", "is not a number"), ("1e9", "is not a number")],
)  # fmt: skip
def test_a_bad_size_says_what_was_wrong_and_what_is_expected(text: str, said: str) -> None:
    with pytest.raises(answers.BadAnswer) as error:
        answers.size(text)
    assert said in str(error.value) and "1.5 MiB" in str(error.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("40", ("rate_mb_s", 40.0)), ("40MB/s", ("rate_mb_s", 40.0)), ("40 MB/s", ("rate_mb_s", 40.0)),
     ("500 KB/s", ("rate_mb_s", 0.5)), ("1 MiB/s", ("rate_mb_s", 1.048576)), ("20k msg/s", ("rate_msgs_s", 20000.0)),
     ("20000 records/s", ("rate_msgs_s", 20000.0)), ("1.5m msgs/s", ("rate_msgs_s", 1_500_000.0))],
)  # fmt: skip
def test_rates_in_bytes_or_records(text: str, expected: tuple[str, float]) -> None:
    field, value = answers.rate(text)
    assert (field, pytest.approx(value)) == expected


@pytest.mark.parametrize("text", ["10 parsecs", "abc", "-3 MB/s", "0", "0 msg/s"])
def test_a_bad_rate_is_refused(text: str) -> None:
    with pytest.raises(answers.BadAnswer):
        answers.rate(text)


@pytest.mark.parametrize(
    ("text", "expected"), [("10ms", 10.0), ("10 ms", 10.0), ("1.5s", 1500.0), ("250", 250.0), ("none", None)]
)
def test_p99_targets(text: str, expected: float | None) -> None:
    assert answers.duration_ms(text) == expected


@pytest.mark.parametrize("text", ["10 parsecs", "0ms", "soon", "-1s"])
def test_a_bad_p99_is_refused(text: str) -> None:
    with pytest.raises(answers.BadAnswer):
        answers.duration_ms(text)


def test_a_choice_takes_an_unambiguous_start_and_refuses_the_rest() -> None:
    options = ("throughput", "latency", "durability", "availability", "balanced")
    assert answers.choice("Thr", options) == "throughput"
    assert answers.choice(" latency ", options) == "latency"
    for bad in ("", "x", "speed"):
        with pytest.raises(answers.BadAnswer, match="is not one of"):
            answers.choice(bad, options)
