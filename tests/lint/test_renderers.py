"""Every command's report goes through `output.render(report, format)`: the RENDERERS table names
a function for each kind and format, each command offers exactly its kind's formats, and a report
asked for a format its kind lacks is refused by name."""

from __future__ import annotations

import importlib
import json

import pytest

from advisor.bench.compare import Bench, Side
from advisor.bench.perf import PerfResult
from advisor.cli import build_parser
from advisor.output import RENDERERS, formats, render
from advisor.recommend.plan import plan
from advisor.recommend.profile import LoadProfile
from advisor.verify.compare import Verification

KIND_OF_COMMAND = {"lint": "lint", "analyze": "lint", "diff": "diff", "recommend": "recommend", "verify": "verify",
                   "bench": "bench"}  # fmt: skip
SECRET = "s3cr3t-bench-pw"


def test_every_renderer_the_table_names_is_a_function() -> None:
    for kind, by_format in RENDERERS.items():
        for fmt, named in by_format.items():
            module, _, function = named.partition(":")
            assert callable(getattr(importlib.import_module(f"advisor.output.{module}"), function)), (kind, fmt)


@pytest.mark.parametrize("command", sorted(KIND_OF_COMMAND))
def test_each_command_offers_its_kind_s_formats(command: str) -> None:
    parser = build_parser(command)
    sub = next(a for a in parser._actions if a.dest == "command").choices[command]  # type: ignore[union-attr]
    offered = next(a for a in sub._actions if a.dest == "output_format").choices
    assert tuple(offered) == formats(KIND_OF_COMMAND[command])


def test_a_format_the_kind_lacks_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"recommend report is not written as 'sarif' .*text, json"):
        render(plan(LoadProfile.model_validate({})), "sarif")


def _side(name: str, settings: dict[str, str], rate: float) -> Side:
    run = PerfResult(1000, rate, rate / 1000, 4.0, 9.0, 3.0, 6.0, 8.0, 9.0, {"batch-size-avg": rate / 10})
    return Side(name, settings, [run, run._replace(records_per_second=rate * 1.1)])


def test_a_bench_renders_as_text_and_json_without_its_secrets() -> None:
    common = {"bootstrap.servers": "k:9092", "sasl.jaas.config": f'x password="{SECRET}";'}
    before = _side("before", {**common, "ssl.key.password": "a" + SECRET}, 1000.0)
    after = _side("after", {**common, "ssl.key.password": SECRET, "linger.ms": "20"}, 2000.0)
    bench = Bench("bench-1", 1000, 512, before, after).redacted()
    text, record = render(bench, "text"), render(bench, "json")
    assert SECRET not in text + record
    assert "after sets: linger.ms=20\n" in text  # the two passwords differ, but neither is shown as a change
    assert "2.00×" in text and "batch-size-avg" in text
    data = json.loads(record)
    assert data["ratios"]["records_per_second"] == pytest.approx(2.0)
    assert "bootstrap.servers" not in data["after"]["settings"]


def test_a_verification_with_nothing_measured_says_so() -> None:
    empty = Verification([])
    assert render(empty, "text").startswith("No proof measured on both sides")
    assert json.loads(render(empty, "json")) == {"verdicts": [], "regressed": False}


def test_the_kinds_are_the_report_classes() -> None:
    from advisor.advise.advice import Advice
    from advisor.recommend.camunda import CamundaPlan
    from advisor.recommend.plan import Plan
    from advisor.report.diff_report import DiffReport
    from advisor.report.model import Report

    def kind(cls: type) -> str:
        # A NamedTuple states its kind as a property (mypy allows no other class constant there); it reads no field.
        attribute = cls.KIND  # type: ignore[attr-defined]
        return attribute if isinstance(attribute, str) else attribute.fget(None)

    kinds = (Report, DiffReport, Plan, Bench, Verification, Advice, CamundaPlan)
    assert {kind(cls) for cls in kinds} == set(RENDERERS)
