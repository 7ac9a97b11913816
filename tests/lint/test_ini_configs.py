"""librdkafka properties in kcat.conf / configparser files: read by content, other programs'
.conf/.cfg/.ini files left alone, a malformed client file an error at its line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from advisor.report.session import lint


def test_other_programs_conf_files_are_neither_read_nor_errors(tmp_path: Path) -> None:
    (tmp_path / "nginx.conf").write_text("worker_processes 4;\nevents { worker_connections 1024; }\n")
    (tmp_path / "setup.cfg").write_text("[metadata]\nname = invoices\n[options]\npackages = find:\n")
    (tmp_path / "my.cnf").write_text("[mysqld]\nmax_connections = 200\n")
    run = subprocess.run(
        [sys.executable, "-m", "advisor", "lint", str(tmp_path), "--output-format", "json"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    report = json.loads(run.stdout)
    assert report["files"] == [] and report["errors"] == []
    assert [s["kind"] for s in report["skipped"]] == ["nothing-read"]  # said, and none of the files named


def test_sections_merge_the_default_below_each_role(tmp_path: Path) -> None:
    config = tmp_path / "settings.ini"
    config.write_text(
        "[default]\nbootstrap.servers = k1:9092\nclient.id = billing\n\n[producer]\nacks = 0\n\n"
        "[consumer]\ngroup.id = billing\nclient.id = billing-reader\n"
    )
    sets = {cs.component: cs for cs in lint([config]).document.config_sets}
    assert set(sets) == {"producer", "consumer"}
    assert sets["producer"].settings["client.id"].value == "billing"
    assert sets["consumer"].settings["client.id"].value == "billing-reader"  # the section wins
    assert sets["consumer"].settings["bootstrap.servers"].location.line == 2
    assert all(cs.client == "librdkafka" for cs in sets.values())


def test_a_client_file_with_a_line_that_is_not_one_is_an_error_there(tmp_path: Path) -> None:
    config = tmp_path / "kcat.conf"
    config.write_text("bootstrap.servers=k1:9092\nsecurity.protocol=ssl\nthis line is no setting\n")
    problems = lint([config]).problems
    assert [(p.line, p.kind) for p in problems] == [(3, "input")]
