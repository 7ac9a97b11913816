"""`recommend --camunda --diff|--apply`: the plan's broker values made in the configurations given,
in each file's own form — a nested application.yaml (a new key where Spring reads it), a compose
service's variables, a properties file — each edit read back before it is kept; applied once,
the plan has nothing left to change."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
PROFILE = ("--pi-per-second", "200", "--records-per-instance", "40", "--disk-gb", "100")
NESTED = """# kafka-advisor: camunda-version=8.9
camunda:
  processing:
    flow-control:
      write:
        enabled: false  # turned off during the migration
  data:
    primary-storage:
      disk:
        free-space:
          replication: 1GB
"""


def _recommend(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "advisor", "recommend", "--camunda", *PROFILE, *args],
                          capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)  # fmt: skip


def test_a_nested_application_yaml_gets_the_values_where_spring_reads_them(tmp_path: Path) -> None:
    config = tmp_path / "application.yaml"
    config.write_text(NESTED)
    shown = _recommend(str(config), "--diff")
    assert shown.returncode == 1, shown.stderr
    assert "-        enabled: false  # turned off during the migration" in shown.stdout
    assert "+        enabled: true  # turned off during the migration" in shown.stdout  # the comment kept
    assert "+        limit: 6700" in shown.stdout and "+        throttle.enabled: true" in shown.stdout
    assert config.read_text() == NESTED  # --diff writes nothing
    applied = _recommend(str(config), "--apply")
    assert applied.returncode == 0, applied.stderr
    assert "applied camunda.processing.flow-control.write.enabled=true" in applied.stdout
    assert "then, once it runs, watch:" in applied.stdout
    again = _recommend(str(config), "--diff")  # the plan, made, leaves nothing to change
    assert again.returncode == 0 and "nothing to change" in again.stdout


def test_a_compose_services_variables_take_the_releases_own_names(tmp_path: Path) -> None:
    compose = tmp_path / "docker-compose.yml"
    compose.write_text("services:\n  zeebe:\n    image: camunda/zeebe:8.7.4\n    environment:\n"
                       "      - ZEEBE_BROKER_FLOWCONTROL_WRITE_ENABLED=false\n")  # fmt: skip
    shown = _recommend(str(compose), "--diff")
    assert "+      - ZEEBE_BROKER_FLOWCONTROL_WRITE_ENABLED=true" in shown.stdout
    assert "+      - ZEEBE_BROKER_FLOWCONTROL_WRITE_LIMIT=6700" in shown.stdout  # 8.7 reads zeebe.broker.flowControl


def test_a_key_of_another_generation_is_replaced_not_left_beside(tmp_path: Path) -> None:
    config = tmp_path / "application.properties"  # an 8.9 broker still written in 8.6–8.8 keys
    config.write_text("# kafka-advisor: camunda-version=8.9\nzeebe.broker.flowControl.write.limit=500\n")
    shown = _recommend(str(config), "--diff")
    assert "-zeebe.broker.flowControl.write.limit=500" in shown.stdout
    assert "+camunda.processing.flow-control.write.limit=6700" in shown.stdout


def test_only_names_values_of_the_plan_and_files_are_needed(tmp_path: Path) -> None:
    config = tmp_path / "application.yaml"
    config.write_text(NESTED)
    only = _recommend(str(config), "--apply", "--only", "camunda.processing.flow-control.write.limit")
    assert only.returncode == 0 and "limit: 6700" in config.read_text() and "enabled: false" in config.read_text()
    unknown = _recommend(str(config), "--apply", "--only", "camunda.processing.flow-control.write.limt")
    assert unknown.returncode == 2 and "not a value of this plan" in unknown.stderr
    assert _recommend("--diff").returncode == 2  # nothing given to change
