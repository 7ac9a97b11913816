"""sources/camunda.py: Camunda 8 settings read from every shape people keep them in, by content,
with the spans findings point at; secrets never shown; a file with Kafka's settings beside
Camunda's read by both readers."""

from __future__ import annotations

import json
from pathlib import Path

from advisor.output import render
from advisor.report.session import RunRequest, lint, run
from advisor.sources import camunda as reader


def _sets(tmp_path: Path, name: str, text: str):  # type: ignore[no-untyped-def]
    path = tmp_path / name
    path.write_text(text)
    result = lint([path])
    assert not result.problems, result.problems
    return result, [cs for cs in result.document.config_sets if cs.component in ("zeebe-broker", "camunda-client")]


def test_variables_name_the_keys_they_set() -> None:
    assert reader.variable_key("ZEEBE_BROKER_BACKPRESSURE_AIMD_REQUESTTIMEOUT") == (
        "zeebe-broker",
        "zeebe.broker.backpressure.aimd.requestTimeout",
    )
    assert reader.variable_key("CAMUNDA_PROCESSING_FLOWCONTROL_WRITE_ENABLED") == (
        "zeebe-broker",
        "camunda.processing.flow-control.write.enabled",
    )
    assert reader.variable_key("CAMUNDA_CLIENT_WORKER_DEFAULTS_MAXRETRIES") == (
        "camunda-client",
        "camunda.client.worker.defaults.max-retries",  # as the Spring starter spells it
    )
    sdk = "CAMUNDA_SDK_BACKPRESSURE_PROFILE"
    assert reader.variable_key(sdk) == ("camunda-client", sdk)
    assert reader.variable_key("CAMUNDA_OPERATE_ZEEBE_GATEWAYADDRESS") is None  # Operate's, not the broker's
    assert reader.variable_key("KAFKA_NODE_ID") is None
    assert reader.version_of_image("camunda/zeebe:8.5.4") == "8.5.4"
    assert reader.version_of_image("docker.io/camunda/camunda:8.9.0-alpha2") == "8.9.0"
    assert reader.version_of_image("camunda/zeebe:latest") is None
    assert reader.version_of_image("camunda/operate:8.5.4") is None


def test_a_spring_tree_nested_or_dotted_is_one_broker_set(tmp_path: Path) -> None:
    text = (
        "zeebe:\n  broker:\n    flowControl:\n      request:\n        aimd:\n          request-timeout: 300ms\n"
        "camunda.processing.flow-control.write.limit: 500\n"
        "camunda:\n  client:\n    worker:\n      defaults:\n        max-retries: 2\n"
        "camunda.bpm.admin-user.id: demo\n"  # Camunda 7's: not read
    )
    _, sets = _sets(tmp_path, "anything.yaml", text)
    broker, client = sorted(sets, key=lambda cs: cs.component, reverse=True)
    assert broker.component == "zeebe-broker" and client.component == "camunda-client"
    timeout = broker.settings["zeebe.broker.flowControl.request.aimd.requestTimeout"]  # the catalog's spelling
    assert (timeout.value, timeout.spelling, timeout.location.line, timeout.location.column) == (
        "300ms",
        "zeebe.broker.flowControl.request.aimd.request-timeout",
        6,
        11,
    )
    assert text[timeout.value_location.offset : timeout.value_location.end_offset] == "300ms"
    assert broker.settings["camunda.processing.flow-control.write.limit"].location.line == 7
    assert set(client.settings) == {"camunda.client.worker.defaults.max-retries"}


def test_compose_services_kubernetes_containers_and_env_files(tmp_path: Path) -> None:
    compose = (
        "services:\n  engine:\n    image: camunda/zeebe:8.5.1\n    environment:\n"
        "      ZEEBE_BROKER_DATA_DISK_FREESPACE_PROCESSING: 3GB\n"
        "  worker:\n    image: example/worker:1\n    environment:\n      - CAMUNDA_SDK_HTTP_RETRY_MAX_ATTEMPTS=1\n"
    )
    _, sets = _sets(tmp_path, "stack.yaml", compose)
    engine = next(cs for cs in sets if cs.name == "engine")
    assert (engine.kafka_version, engine.kafka_version_from) == ("8.5.1", "image camunda/zeebe:8.5.1 (service engine)")
    assert engine.settings["zeebe.broker.data.disk.freeSpace.processing"].location.line == 5
    worker = next(cs for cs in sets if cs.name == "worker")
    assert worker.component == "camunda-client" and "CAMUNDA_SDK_HTTP_RETRY_MAX_ATTEMPTS" in worker.settings
    manifest = (
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: broker\nspec:\n  containers:\n    - name: zeebe\n"
        "      image: camunda/zeebe:8.4.3\n      env:\n        - name: ZEEBE_BROKER_BACKPRESSURE_ENABLED\n"
        '          value: "false"\n'
    )
    _, (pod,) = _sets(tmp_path, "pod.yaml", manifest)
    assert pod.kafka_version == "8.4.3" and pod.settings["zeebe.broker.backpressure.enabled"].value == "false"
    _, (env,) = _sets(tmp_path, ".env", "# the broker's\nZEEBE_BROKER_BACKPRESSURE_ALGORITHM=vegas\nOTHER=1\n")
    assert env.settings["zeebe.broker.backpressure.algorithm"].location.line == 2


def test_a_chart_s_values_and_the_application_yaml_it_carries(tmp_path: Path) -> None:
    values = (
        "orchestration:\n  image:\n    tag: 8.9.1\n  env:\n    - name: CAMUNDA_PROCESSING_FLOWCONTROL_WRITE_LIMIT\n"
        '      value: "900"\n  configuration: |\n    camunda:\n      processing:\n        flow-control:\n'
        "          write:\n            enabled: true\n"
    )
    _, (orchestration,) = _sets(tmp_path, "values.yaml", values)
    assert orchestration.kafka_version == "8.9.1"
    enabled = orchestration.settings["camunda.processing.flow-control.write.enabled"]
    assert (enabled.location.line, enabled.location.column) == (12, 13)  # in the values file, not the string
    assert values[enabled.location.offset : enabled.location.end_offset] == "enabled"
    assert orchestration.settings["camunda.processing.flow-control.write.limit"].value == "900"


def test_files_without_camunda_8_settings_are_not_claimed(tmp_path: Path) -> None:
    for name, text in (
        ("application.yaml", "camunda:\n  bpm:\n    admin-user:\n      id: demo\n"),  # Camunda 7
        ("values.yaml", "zeebe:\n  enabled: false\n  note: a chart toggle only\n"),
        ("notes.yaml", "title: zeebe and camunda notes\n"),
        (
            "other-chart.yaml",
            "core:\n  image:\n    repository: example/core\n  env:\n    - name: LOG_LEVEL\n"
            "      value: info\ntheme: camunda-like\n",
        ),  # another chart's core:
    ):
        path = tmp_path / name
        path.write_text(text)
        assert reader.sniff(path, text) is None, name


def test_kafka_and_camunda_in_one_compose_file_are_both_read(tmp_path: Path) -> None:
    compose = (
        "services:\n  kafka:\n    image: apache/kafka:3.9.0\n    environment:\n      KAFKA_NODE_ID: 1\n"
        "      KAFKA_PROCESS_ROLES: broker,controller\n      KAFKA_MIN_INSYNC_REPLICAS: 1\n"
        "  zeebe:\n    image: camunda/zeebe:8.5.4\n    environment:\n"
        "      ZEEBE_BROKER_DATA_DISK_FREESPACE_PROCESSING: 1GB\n"
    )
    result, _ = _sets(tmp_path, "docker-compose.yml", compose)
    components = sorted(cs.component for cs in result.document.config_sets)
    assert components == ["broker", "zeebe-broker"]
    assert {f.rule for f in result.findings} >= {"ZB006"}  # 1GB processing, 1GB replication (the default)


def test_secrets_of_either_product_are_never_shown(tmp_path: Path) -> None:
    secret = "s3cr3t-azure-key-material"
    text = (
        "# kafka-advisor: camunda-version=8.9\n"
        f"zeebe.broker.data.backup.azure.connectionString: DefaultEndpointsProtocol=https;AccountKey={secret}\n"
        f"camunda.client.auth.client-secret: {secret}\n"
        f"zeebe.broker.flowControl.request.algorithm: {secret}\n"  # a finding quotes this value...
        f"zeebe.broker.data.backup.s3.secretKey: {secret}\n"
    )
    path = tmp_path / "application.yaml"
    path.write_text(text)
    report = run(RunRequest(paths=(path,)))
    assert any(f.rule == "ZB001" for f in report.findings)
    for fmt in ("text", "json", "sarif", "junit", "github"):
        assert secret not in render(report, fmt), fmt  # ... and redaction hides it everywhere


def test_a_finding_says_the_release_it_was_judged_with(tmp_path: Path) -> None:
    path = tmp_path / "application.yaml"
    path.write_text("# kafka-advisor: camunda-version=8.9\ncamunda.processing.flow-control.write.enabled: true\n")
    report = run(RunRequest(paths=(path,)))
    (finding,) = [f for f in report.findings if f.rule == "ZB009"]
    (record,) = [r for r in json.loads(render(report, "json"))["findings"] if r["rule"] == "ZB009"]
    assert record["kafka_version"] is None
    assert record["extra"] == {
        "product": "camunda",
        "release": "8.9",
        "release_from": "a '# kafka-advisor: camunda-version' line",
    }
    assert finding.release == "8.9"


def test_sarif_names_the_product_and_release(tmp_path: Path) -> None:
    path = tmp_path / "application.yaml"
    path.write_text("# kafka-advisor: camunda-version=8.9\ncamunda.processing.flow-control.write.enabled: true\n")
    sarif = json.loads(render(run(RunRequest(paths=(path,))), "sarif"))
    (result,) = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "ZB009"]
    assert result["properties"]["product"] == "camunda" and result["properties"]["release"] == "8.9"
    assert "kafkaVersion" not in result["properties"]


def test_a_standalone_gateway_is_no_broker_and_its_settings_are_the_gateway_s(tmp_path: Path) -> None:
    compose = (
        "services:\n  gateway:\n    image: camunda/zeebe:8.5.4\n    environment:\n"
        "      - ZEEBE_STANDALONE_GATEWAY=true\n      - ZEEBE_GATEWAY_CLUSTER_INITIALCONTACTPOINTS=broker:26502\n"
        "  broker:\n    image: camunda/zeebe:8.5.4\n"
    )
    result = lint([tmp_path / "docker-compose.yml"]) if (tmp_path / "docker-compose.yml").write_text(compose) else None
    assert result is not None and not result.problems
    sets = {(cs.component, cs.name) for cs in result.document.config_sets}
    assert sets == {("zeebe-gateway", "gateway"), ("zeebe-broker", "broker")}  # the gateway runs no broker
    (gateway,) = [cs for cs in result.document.config_sets if cs.component == "zeebe-gateway"]
    assert list(gateway.settings) == ["zeebe.gateway.cluster.initialContactPoints"]
    assert gateway.kafka_version == "8.5.4"


def test_a_chart_version_names_the_release_where_no_image_tag_does(tmp_path: Path) -> None:
    from advisor.catalog import store

    table = store.read("camunda_chart.json")["versions"]
    assert table["10.0.1"] == "8.5" and table["13.12.7"] == "8.8"  # the chart repository's own release tags
    (tmp_path / "Chart.yaml").write_text(
        "apiVersion: v2\nname: platform\nversion: 1.0.0\ndependencies:\n"
        "  - name: camunda-platform\n    version: ^13.0.0\n    repository: https://helm.camunda.io\n"
    )
    _, (broker,) = _sets(tmp_path, "values.yaml", "camunda-platform:\n  zeebe:\n    clusterSize: 3\n")
    assert broker.kafka_version == "8.8" and broker.kafka_version_from.startswith("camunda-platform chart 13.")


def test_camundas_own_components_client_settings_are_said_not_judged(tmp_path: Path) -> None:
    manifest = (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: operate\nspec:\n  template:\n    spec:\n"
        "      containers:\n        - name: operate\n          image: camunda/operate:8.5.4\n          env:\n"
        "            - name: ZEEBE_CLIENT_ID\n              value: operate\n"
        "            - name: ZEEBE_TOKEN_AUDIENCE\n              value: zeebe-api\n"
        "        - name: worker\n          image: example/invoice-worker:1.2.0\n          env:\n"
        '            - name: CAMUNDA_CLIENT_WORKER_DEFAULTS_MAXRETRIES\n              value: "1"\n'
    )
    result, sets = _sets(tmp_path, "deployment.yaml", manifest)
    assert [cs.name for cs in sets] == ["worker"]  # an application's client is still judged
    (note,) = [n for n in result.notes if "own component" in n.message]
    assert note.kind == "not-judged" and note.line == 12 and "operate (camunda/operate:8.5.4)" in note.message
    report = run(RunRequest(paths=(tmp_path / "deployment.yaml",)))
    assert not [f for f in report.findings if f.rule == "ZC004"]  # the Java client's own variable, not a starter's


def test_a_file_with_only_a_components_settings_is_read_and_says_so(tmp_path: Path) -> None:
    compose = "services:\n  tasklist:\n    image: camunda/tasklist:8.5.1\n    environment:\n      - ZEEBE_CLIENT_ID=t\n"
    path = tmp_path / "docker-compose.yml"
    path.write_text(compose)
    report = run(RunRequest(paths=(path,)))
    assert not report.problems and report.files[0].format == "camunda"
    assert any("tasklist (camunda/tasklist:8.5.1) is Camunda's own component" in n.message for n in report.skipped)


def test_a_standalone_gateway_deployment_is_no_broker(tmp_path: Path) -> None:
    manifest = (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: zeebe-gateway\nspec:\n  template:\n    spec:\n"
        "      containers:\n        - name: zeebe-gateway\n          image: camunda/zeebe:8.7.4\n          env:\n"
        '            - name: ZEEBE_STANDALONE_GATEWAY\n              value: "true"\n'
        "            - name: ZEEBE_GATEWAY_CLUSTER_INITIALCONTACTPOINTS\n              value: zeebe:26502\n"
    )
    (tmp_path / "deployment.yaml").write_text(manifest)
    result = lint([tmp_path / "deployment.yaml"])
    assert [cs.component for cs in result.document.config_sets] == ["zeebe-gateway"]  # no broker with every default
