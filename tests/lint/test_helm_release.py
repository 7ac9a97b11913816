"""A Terraform helm_release of Bitnami's kafka chart: the values it writes itself (set entries,
YAML heredocs, yamlencode objects) judged as Helm merges them, alone or over the values files
it names, and every part Terraform computes said as not judged."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.report.session import RunRequest, lint, run
from advisor.sources.helm_release import _set_path

RELEASE = """resource "helm_release" "kafka" {{
  name       = "kafka"
  repository = "https://charts.bitnami.com/bitnami"
  chart      = "kafka"
  version    = "{version}"
{body}
}}
"""


def _write(folder: Path, body: str, version: str = "28.3.0", **files: str) -> Path:
    (folder / "main.tf").write_text(RELEASE.format(version=version, body=body))
    for name, text in files.items():
        target = folder / name.replace("__", "/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return folder / "main.tf"


def _findings(*paths: Path) -> list[tuple[str, str, int]]:
    report = run(RunRequest(paths=paths))
    return sorted((Path(f.location.path).name, f.rule, f.location.line) for f in report.findings)


@pytest.mark.parametrize(
    ("name", "path"),
    [
        ("controller.replicaCount", ["controller", "replicaCount"]),
        ("extraEnvVars[0].value", ["extraEnvVars", 0, "value"]),
        ("podAnnotations.prometheus\\.io/scrape", ["podAnnotations", "prometheus.io/scrape"]),
        ("listeners[1]", ["listeners", 1]),
        ("a..b", None),
        ("[0].a", None),
        ("a[x]", None),
        ("a[100000]", None),
    ],
)
def test_set_names_are_read_as_helm_reads_a_set_path(name: str, path: list[object] | None) -> None:
    assert _set_path(name) == path


def test_a_release_of_set_blocks_alone_is_judged_in_its_tf(tmp_path: Path) -> None:
    body = """
  set {
    name  = "controler.replicaCount"
    value = "3"
  }
  set {
    name  = "extraConfig"
    value = "offsets.topic.replication.factor=1"
  }"""
    main = _write(tmp_path, body)
    result = lint([main])
    (broker,) = [cs for cs in result.document.config_sets if cs.component == "broker"]
    assert broker.name == "helm_release/kafka" and broker.kafka_version_from.startswith("Bitnami kafka chart 28.3.0")
    setting = broker.settings["offsets.topic.replication.factor"]
    assert (setting.value, setting.location.line, setting.location.column) == ("1", 13, 14)  # inside the quotes
    found = {(f.rule, f.location.line) for f in result.findings}
    assert ("KB145", 8) in found  # the misspelled set name, at its line
    assert ("KB134", 13) in found  # the internal topic at RF 1 on the chart's three nodes


def test_the_providers_list_form_reads_as_the_blocks_do(tmp_path: Path) -> None:
    blocks = '  set {\n    name  = "replicaCount"\n    value = "3"\n  }\n'
    listed = '  set = [\n    { name = "replicaCount", value = "3" },\n  ]\n'
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    one, other = _write(tmp_path / "a", blocks), _write(tmp_path / "b", listed)
    assert [r for _, r, _ in _findings(one)] == [r for _, r, _ in _findings(other)]
    assert ("main.tf", "KB145", 7) in _findings(one) and ("main.tf", "KB145", 7) in _findings(other)


def test_inline_values_merge_in_order_and_sets_come_last(tmp_path: Path) -> None:
    body = """  values = [
    yamlencode({
      controller = {
        replicaCount = 1
        heapOpts     = "-Xmx2g -Xms2g"
      }
      extraConfig = "log.retention.hours=24"
    }),
    <<-EOT
    controller:
      heapOpts: "-Xmx3g -Xms3g"
    extraConfig: |
      log.retention.hours=48
    EOT
  ]
  set {
    name  = "controller.persistence.size"
    value = "50Gi"
  }"""
    broker = next(cs for cs in lint([_write(tmp_path, body)]).document.config_sets if cs.component == "broker")
    assert broker.facts["broker_count"] == 1  # the first layer's count: maps merge key by key
    assert broker.facts["jvm"]["controller.heapOpts"]["value"] == "-Xmx3g -Xms3g"  # the heredoc's, later
    retention = broker.settings["log.retention.hours"]
    assert (retention.value, retention.location.line, retention.location.column) == ("48", 18, 7)


def test_a_set_over_a_values_file_it_names_replaces_what_the_file_writes(tmp_path: Path) -> None:
    body = """  values = [file("${path.module}/helm/kafka.yaml")]
  set {
    name  = "extraConfig"
    value = "log.flush.interval.messages=1"
  }"""
    values = "controller:\n  replicaCount: 3\nextraConfig: |\n  default.replication.factor=3\n"
    main = _write(tmp_path, body, **{"helm__kafka.yaml": values})
    result = lint([main, tmp_path / "helm" / "kafka.yaml"])
    (broker,) = [cs for cs in result.document.config_sets if cs.component == "broker"]
    assert Path(broker.path).name == "kafka.yaml"  # judged in the values file, with the release's set over it
    assert "default.replication.factor" not in broker.settings  # Helm replaces a string whole
    flush = broker.settings["log.flush.interval.messages"]
    assert Path(flush.location.path).name == "main.tf" and flush.location.line == 9
    default = broker.settings["controller.listener.names"]  # a chart default: placed in the values file
    assert default.location.path.endswith("kafka.yaml")
    found = {(Path(f.location.path).name, f.rule, f.location.line) for f in result.findings}
    assert ("main.tf", "KB104", 9) in found and ("kafka.yaml", "KB102", 1) in found


def test_a_templated_replica_count_leaves_the_broker_count_unknown(tmp_path: Path) -> None:
    body = '  set {\n    name  = "controller.replicaCount"\n    value = var.kafka_nodes\n  }'
    broker = next(cs for cs in lint([_write(tmp_path, body)]).document.config_sets if cs.component == "broker")
    assert broker.facts["broker_count"] is None


def test_what_terraform_computes_is_said_and_never_judged(tmp_path: Path) -> None:
    body = """  values = [var.kafka_values, file("${path.module}/absent.yaml")]
  dynamic "set" {
    for_each = var.sets
    content {
      name  = set.value.name
      value = set.value.value
    }
  }
  set {
    name  = var.key
    value = "1"
  }"""
    main = _write(tmp_path, body)
    report = run(RunRequest(paths=(main,)))
    assert not report.findings  # the values are not known: nothing is judged on the chart's defaults
    said = sorted((p.line, p.message) for p in report.skipped)
    assert [line for line, _ in said] == [1, 6, 7, 15]
    assert "absent.yaml, which does not exist" in said[0][1]  # at the release's first line
    assert "its values var.kafka_values are computed by Terraform" in said[1][1]
    assert 'a dynamic "set" block is computed by Terraform' in said[2][1]
    assert "set name var.key is computed by Terraform" in said[3][1]
    assert all(p.kafka for p in report.skipped)


def test_a_values_file_not_in_the_run_is_said(tmp_path: Path) -> None:
    main = _write(tmp_path, '  values = [file("values.yaml")]', **{"values.yaml": "controller:\n  replicaCount: 3\n"})
    report = run(RunRequest(paths=(main,)))
    (note,) = report.skipped
    assert note.line == 1 and "values.yaml, which is not among the files checked" in note.message
    assert _findings(tmp_path) and not run(RunRequest(paths=(tmp_path,))).skipped  # the folder: read, not said


def test_unread_parts_fail_a_gate_that_asks_for_it(tmp_path: Path) -> None:
    _write(tmp_path, "  values = [var.kafka_values]")
    command = [sys.executable, "-m", "advisor", "lint", str(tmp_path), "--unread=error", "--output-format", "json"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "computed by Terraform" in json.loads(done.stdout)["errors"][0]["message"]
    plain = subprocess.run(command[:5], capture_output=True, text=True, check=False)
    assert "1 part(s) of files read not judged (see stderr)" in plain.stdout and plain.returncode == 0


SECRETS = ("hunter2secret", "s3cr3tkeystore", "kspass1234")


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "junit", "github"])
def test_set_values_that_are_secret_never_show(fmt: str, tmp_path: Path) -> None:
    body = """  set {
    name  = "sasl.client.passwords"
    value = "hunter2secret"
  }
  set_sensitive {
    name  = "tls.keystorePassword"
    value = "s3cr3tkeystore"
  }
  set = [{ name = "extraConfig", value = "ssl.keystore.password=kspass1234" }]"""
    main = _write(tmp_path, body)
    command = [sys.executable, "-m", "advisor", "lint", str(main), "--output-format", fmt]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert "KX108" in done.stdout or "plaintext-secret" in done.stdout
    assert not any(secret in done.stdout + done.stderr for secret in SECRETS)
