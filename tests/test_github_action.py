"""The GitHub Action (action.yml), its step run the way the runner runs a composite action's
`run` step: the `${{ inputs.* }}` of its `env` filled in from the inputs given (else their
defaults), `${{ github.action_path }}`'s GITHUB_ACTION_PATH, RUNNER_TEMP and GITHUB_OUTPUT set,
and the command run by `bash --noprofile --norc -eo pipefail`. The script installs the tool from
the action's own checkout into a fresh venv, prints workflow-command annotations, writes a SARIF
file that validates against the SARIF 2.1.0 schema, and exits as lint does."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest
import yaml

REPO_ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((REPO_ROOT / "action.yml").read_text())
SCHEMA = json.loads((REPO_ROOT / "tests" / "schemas" / "sarif-schema-2.1.0.json").read_text())


def run_action(workspace: Path, temp: Path, **given: str) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    inputs = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    unknown = set(given) - set(inputs)
    assert not unknown, f"not inputs of the action: {unknown}"
    inputs.update(given)
    (step,) = ACTION["runs"]["steps"]
    assert ACTION["runs"]["using"] == "composite" and step["shell"] == "bash"

    def filled(text: str) -> str:
        return re.sub(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", lambda m: inputs[m.group(1)], text)

    output = temp / "github_output"
    output.write_text("")
    env = {"PATH": os.environ["PATH"], "HOME": str(temp), "GITHUB_ACTION_PATH": str(REPO_ROOT),
           "RUNNER_TEMP": str(temp), "GITHUB_OUTPUT": str(output), "GITHUB_WORKSPACE": str(workspace),
           "GITHUB_ACTIONS": "true", **{k: filled(v) for k, v in step["env"].items()}}  # fmt: skip
    script = temp / "step.sh"
    script.write_text(step["run"])
    result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=workspace,
                            env=env, capture_output=True, text=True, timeout=900)  # fmt: skip
    outputs = dict(line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
    return result, outputs


@pytest.fixture(scope="module")
def temp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("runner-temp")  # one venv for the module's runs, as on one runner


def test_findings_are_annotations_and_a_valid_sarif_file_and_fail_the_step(tmp_path: Path, temp: Path) -> None:
    workspace = tmp_path / "repo"
    shutil.copytree(REPO_ROOT / "fixtures" / "demo", workspace / "kafka")
    (workspace / "README.md").write_text("# payments\n")
    result, outputs = run_action(workspace, temp, paths="kafka README.md")
    assert result.returncode == 1, result.stderr[-3000:]
    assert re.search(r"^::error file=kafka/application\.yml,line=\d+,col=\d+,title=KP116", result.stdout, re.MULTILINE)
    assert re.search(r"^::warning file=kafka/producer\.properties,line=\d+", result.stdout, re.MULTILINE)
    sarif = workspace / outputs["sarif-file"]
    report = json.loads(sarif.read_text())
    jsonschema.validate(report, SCHEMA)
    assert {r["ruleId"] for r in report["runs"][0]["results"]} >= {"KP116", "KP101"}


def test_a_clean_tree_passes_and_fail_on_is_honoured(tmp_path: Path, temp: Path) -> None:
    workspace = tmp_path / "repo"
    shutil.copytree(REPO_ROOT / "fixtures" / "demo" / "clean", workspace)
    result, outputs = run_action(workspace, temp, **{"sarif-file": "out/lint.sarif"})
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert outputs["sarif-file"] == "out/lint.sarif" and (workspace / "out" / "lint.sarif").exists()
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "producer.properties").write_text("linger.ms=5\nacks=1\n")  # KP101: a warning
    warned, _ = run_action(broken, temp, **{"fail-on": "error"})
    assert warned.returncode == 0 and "::warning" in warned.stdout
