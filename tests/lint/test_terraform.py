"""Terraform's Kafka resources: topics and MSK configurations, with exact lines; HCL it cannot
follow is a path:line error, never an internal one."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.report.session import lint
from advisor.sources.hcl_reader import read_hcl


def test_literals_expressions_heredocs_and_maps() -> None:
    text = (
        'resource "kafka_topic" "t" {\n'
        '  name = "t-${var.env}"  # a comment\n'
        "  partitions = 6\n"
        "  replication_factor = var.rf\n"
        '  config = { "retention.ms" = "1000", flag = true }\n'
        "  body = <<-EOT\n"
        "    a=1\n"
        "  EOT\n"
        "}\n"
    )
    (block,) = read_hcl(text, "t.tf")
    attributes = block.attributes
    assert (block.kind, block.labels) == ("resource", ["kafka_topic", "t"])
    assert attributes["name"].value == "t-${var.env}"
    assert attributes["partitions"].value == "6" and not attributes["partitions"].expression
    assert attributes["replication_factor"].expression
    config = attributes["config"].value
    assert config["retention.ms"].value == "1000" and config["flag"].value is True
    assert config["retention.ms"].key_span.line == 5
    assert attributes["body"].value == "    a=1\n"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('resource "kafka_topic" "t" {\n  name = "unclosed\n}\n', 2),
        ('resource "kafka_topic" "t" {\n  name = "x"\n', 3),
        ('resource "kafka_topic" "t" {\n  body = <<EOT\n  a=1\n', 2),
        ("a = {\n" * 80, 65),
    ],
)
def test_what_it_cannot_follow_is_an_error_at_its_line(tmp_path: Path, text: str, line: int) -> None:
    config = tmp_path / "main.tf"
    config.write_text('resource "kafka_topic" "x" {}\n' + text)
    problems = lint([config]).problems
    assert [(p.line, p.kind) for p in problems] == [(line + 1, "input")], problems


def test_an_msk_configuration_is_judged_on_what_it_writes(tmp_path: Path) -> None:
    config = tmp_path / "msk.tf"
    config.write_text(
        'resource "aws_msk_configuration" "c" {\n'
        '  kafka_versions = ["3.6.0"]\n'
        '  name = "c"\n'
        "  server_properties = <<PROPERTIES\n"
        "log.retention.hours=48\n"
        "PROPERTIES\n"
        "}\n"
    )
    result = lint([config])
    (config_set,) = result.document.config_sets
    assert config_set.kafka_version == "3.6.0"
    assert config_set.settings["log.retention.hours"].location.line == 5
    # MSK's own defaults are not Kafka's: nothing is said of what the properties leave out
    assert [f.rule for f in result.findings] == []
