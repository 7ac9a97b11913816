"""What a file is, from its content: the role of a client config from keys only one role has,
a config shared by an application's producer and consumer linted as both, and a .properties
file with no Kafka key (log4j.properties) not taken for Kafka configuration in a folder walk."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from advisor.report.session import lint


def test_a_producer_only_key_makes_a_librdkafka_dict_a_producer(tmp_path: Path) -> None:
    """enable.idempotence is producer-only in librdkafka (an admin client is built from either's
    config, so admin tells nothing): no more 'cannot tell'."""
    config = tmp_path / "kafka.json"
    config.write_text('{"bootstrap.servers": "k.example:9092", "enable.idempotence": true, "max.in.flight": 5}\n')
    (config_set,) = lint([config]).document.config_sets
    assert (config_set.component, config_set.client, config_set.name) == ("producer", "librdkafka", "kafka.json")


def test_a_shared_client_config_is_linted_as_producer_and_consumer(tmp_path: Path) -> None:
    properties = tmp_path / "client.properties"
    properties.write_text("bootstrap.servers=k.example:9092\nsecurity.protocol=SASL_SSL\nsasl.mechanism=PLAIN\n")
    dictionary = tmp_path / "common.json"
    dictionary.write_text('{"bootstrap.servers": "k.example:9092", "security.protocol": "SASL_SSL"}\n')
    result = lint([properties, dictionary])
    assert not result.document.errors
    assert sorted((cs.name, cs.component) for cs in result.document.config_sets) == [
        ("client.properties:consumer", "consumer"),
        ("client.properties:producer", "producer"),
        ("common.json:consumer", "consumer"),
        ("common.json:producer", "producer"),
    ]
    # A producer-side finding of the shared file is the producer view's (librdkafka: acks=all
    # without idempotence), reported once.
    assert [f.subject for f in result.findings if f.rule == "KP108"] == ["common.json:producer"]


def test_a_properties_file_without_kafka_keys_is_not_ours_in_a_folder(tmp_path: Path) -> None:
    (tmp_path / "log4j.properties").write_text(
        "log4j.rootLogger=INFO, stdout\nlog4j.appender.stdout.Target=System.out\n"
    )
    (tmp_path / "removed.properties").write_text("# kafka-advisor: as=broker\nlog.message.format.version=2.8\n")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "advisor", "lint", *args, "--output-format", "json"]
        return subprocess.run(command, capture_output=True, text=True, timeout=60)

    folder = run(str(tmp_path))
    report = json.loads(folder.stdout)
    assert [Path(f["path"]).name for f in report["files"]] == ["removed.properties"]  # log4j: not ours, not listed
    assert report["errors"] == [] and report["skipped"] == []
    named = run(str(tmp_path / "log4j.properties"))
    assert named.returncode == 2 and "not a configuration format" in named.stderr


def test_an_env_file_of_jvm_options_is_a_brokers(tmp_path: Path) -> None:
    from advisor.sources import compose

    jvm = tmp_path / "broker.env"
    jvm.write_text("KAFKA_HEAP_OPTS=-Xms6g -Xmx6g\nKAFKA_JVM_PERFORMANCE_OPTS=-XX:+UseG1GC\n")
    assert compose.sniff(jvm, jvm.read_text()) == ("env", None)


def test_spring_profile_documents_are_judged_as_spring_runs_them(tmp_path: Path) -> None:
    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "rules" / "spring" / "profiles.yml"
    result = lint([fixture])
    names = sorted(cs.name for cs in result.document.config_sets)
    assert names == ["spring.kafka.producer", "spring.kafka.producer[prod]"]
    prod = next(cs for cs in result.document.config_sets if cs.name.endswith("[prod]"))
    assert prod.settings["acks"].value == "all" and prod.settings["retries"].value == "5"  # overrides, inherits
    assert "invoices-kafka-1.prod.example" in prod.settings["bootstrap.servers"].value
    # The same in a multi-document .properties file (`#---`, Spring Boot 2.4+).
    properties = tmp_path / "app.properties"
    properties.write_text(
        "spring.kafka.producer.acks=1\n#---\nspring.config.activate.on-profile=prod\nspring.kafka.producer.acks=all\n"
    )
    by_name = {cs.name: cs for cs in lint([properties]).document.config_sets}
    assert by_name["spring.kafka.producer"].settings["acks"].value == "1"
    assert by_name["spring.kafka.producer[prod]"].settings["acks"].value == "all"


def test_client_dicts_nested_under_an_application_are_found_with_their_roles(tmp_path: Path) -> None:
    config = tmp_path / "settings.json"
    config.write_text(
        '{"service": {"name": "billing", "port": 8080},\n'
        ' "messaging": {"kafkaProducer": {"bootstrap.servers": "k:9092", "acks": "1", "topic": "invoices"},\n'
        '               "kafkaConsumer": {"bootstrap.servers": "k:9092", "group.id": "g", "topics": ["a"]}}}\n'
    )
    result = lint([config])
    assert not result.document.errors
    views = {(cs.name, cs.component, cs.client) for cs in result.document.config_sets}
    assert views == {
        ("settings.json:messaging.kafkaProducer", "producer", "librdkafka"),
        ("settings.json:messaging.kafkaConsumer", "consumer", "librdkafka"),
    }
    assert {f.rule for f in result.findings} == {"KP101"}  # topic/topics are the application's


def test_kafka_python_kwargs_with_a_list_of_servers_are_a_client_config(tmp_path: Path) -> None:
    config = tmp_path / "consumer_settings.yaml"
    config.write_text("bootstrap_servers:\n  - k1:9092\n  - k2:9092\ngroup_id: g\nenable_auto_commit: true\n")
    (config_set,) = lint([config]).document.config_sets
    assert (config_set.component, config_set.client) == ("consumer", "kafka-python")
    assert config_set.settings["bootstrap.servers"].value == "k1:9092,k2:9092"


def test_application_keys_beside_client_keys_are_not_judged_but_typos_are(tmp_path: Path) -> None:
    config = tmp_path / "producer.json"
    config.write_text(
        '{"bootstrap.servers": "k:9092", "acks": "all", "topic": "orders", "schema_registry_url": "http://sr:8081",'
        ' "batch_size_hint": 5, "workers": 4, "lingr.ms": 5}\n'
    )
    result = lint([config])
    unknown = [f for f in result.findings if f.rule == "KX101"]
    assert [f.keys for f in unknown] == [("lingr.ms",)]  # a near spelling: strong evidence
    (config_set,) = result.document.config_sets
    assert config_set.facts["application_keys"] == ["topic", "schema_registry_url", "batch_size_hint", "workers"]
    assert "librdkafka 2." in unknown[0].message and "Kafka 4" not in unknown[0].message


def test_jvm_options_of_a_broker_start_script_and_unit_are_read_but_not_a_connect_workers(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text(
        '#!/bin/sh\nexport KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:-"-Xmx12g -Xms12g"}"\n'
        "exec kafka-server-start.sh /etc/kafka/server.properties\n"
    )
    unit = tmp_path / "broker.service"
    unit.write_text(
        '[Service]\nEnvironment="KAFKA_JVM_PERFORMANCE_OPTS=-XX:+UseParallelGC" "LANG=C"\n'
        "ExecStart=/opt/kafka/bin/kafka-server-start.sh /opt/kafka/config/server.properties\n"
    )
    connect = tmp_path / "connect.sh"
    connect.write_text('#!/bin/sh\nexport KAFKA_HEAP_OPTS="-Xmx12g"\nconnect-distributed.sh worker.properties\n')
    result = lint([script, unit])
    assert {(f.rule, Path(f.path).name, f.line) for f in result.findings} == {
        ("KB107", "run.sh", 2),
        ("KB106", "broker.service", 2),
    }
    assert lint([connect]).document.errors  # named on the command line and not read: said so


def test_kafkas_neighbours_are_recognised_and_not_judged_as_brokers_or_clients(tmp_path: Path) -> None:
    files = {
        "ksql-server.properties": "listeners=http://0.0.0.0:8088\nbootstrap.servers=k:9092\nksql.streams.replication.factor=1\n",
        "registry.properties": "listeners=http://0.0.0.0:8081\nkafkastore.bootstrap.servers=PLAINTEXT://k:9092\n",
        "worker.properties": "bootstrap.servers=k:9092\ngroup.id=connect\nkey.converter=org.example.Converter\n",
        "mm2.properties": "clusters=a, b\na.bootstrap.servers=a:9092\na->b.enabled=true\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    result = lint(sorted(tmp_path.iterdir()))
    assert result.document.config_sets == [] and result.findings == [] and not result.document.errors
    said = {Path(note.path).name: note.message.split(" configuration")[0] for note in result.document.notes}
    assert said == {
        "ksql-server.properties": "a ksqlDB server",
        "registry.properties": "a Schema Registry",
        "worker.properties": "a Kafka Connect worker",
        "mm2.properties": "a MirrorMaker 2",
    }
    # told otherwise, the file is judged as told
    worker = tmp_path / "worker.properties"
    worker.write_text("# kafka-advisor: as=consumer\n" + worker.read_text())
    assert [cs.component for cs in lint([worker]).document.config_sets] == ["consumer"]


def test_confluent_server_keys_get_no_did_you_mean(tmp_path: Path) -> None:
    broker = tmp_path / "server.properties"
    broker.write_text(
        "process.roles=broker\nconfluent.metrics.reporter.topic.replicas=3\nconfluent.balancer.enable=true\n"
        "log.retention.hour=24\n"
    )
    assert [f.keys for f in lint([broker]).findings if f.rule == "KB100"] == [("log.retention.hour",)]


def test_a_spring_profile_file_is_judged_on_top_of_its_application_yml(tmp_path: Path) -> None:
    """application-prod.yml is read by Spring over application.yml when `prod` is active."""
    (tmp_path / "application.yml").write_text("spring:\n  kafka:\n    producer:\n      retries: 0\n")
    prod = tmp_path / "application-prod.yml"
    prod.write_text("spring:\n  kafka:\n    producer:\n      transaction-id-prefix: tx-\n")
    result = lint([prod])
    assert [cs.name for cs in result.document.config_sets] == ["spring.kafka.producer[prod]"]
    (refused,) = [f for f in result.findings if f.rule == "KP116"]
    assert (Path(refused.path).name, refused.line) == ("application.yml", 4)  # where the fix goes


def test_a_configmap_carrying_server_properties_is_read_as_that_file(tmp_path: Path) -> None:
    manifest = tmp_path / "kafka.yaml"
    manifest.write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kafka\ndata:\n"
        "  server.properties: |\n    process.roles=broker\n    unclean.leader.election.enable=true\n"
        "  log4j.properties: |\n    log4j.rootLogger=INFO\n"
    )
    result = lint([manifest])
    (broker,) = result.document.config_sets
    assert (broker.component, broker.name) == ("broker", "ConfigMap/kafka/server.properties")
    (unclean,) = [f for f in result.findings if f.rule == "KB103"]
    assert (unclean.line, unclean.column) == (8, 5)  # in the YAML file, inside the block


def test_a_name_does_not_make_a_file_of_foreign_keys_kafka_s(tmp_path: Path) -> None:
    """A server.properties of another program (a game server's dozens of keys, none of Kafka's)
    is not a broker however it is named; a few keys Kafka does not know (typos) in a file named
    for Kafka still are, to be reported; one Kafka key among foreign ones makes the file ours."""
    from advisor.sources import properties

    foreign = "".join(f"game-setting-{n}=value-{n}\n" for n in range(properties.FOREIGN_KEYS))
    game = tmp_path / "server.properties"
    game.write_text(foreign + "rcon.password=not-kafka-at-all\n")
    assert properties.sniff(game, game.read_text()) is None
    walked = lint([tmp_path])
    assert walked.document.config_sets == [] and walked.findings == []
    typo = tmp_path / "typo" / "server.properties"
    typo.parent.mkdir()
    typo.write_text("log.retention.hour=72\nnum.partition=6\n")
    assert [f.keys for f in lint([typo]).findings if f.rule == "KB100"] == [("log.retention.hour",), ("num.partition",)]
    mixed = tmp_path / "mixed" / "server.properties"
    mixed.parent.mkdir()
    mixed.write_text(foreign + "unclean.leader.election.enable=true\n")
    assert "KB103" in {f.rule for f in lint([mixed]).findings}


def test_each_reader_is_declared_once_and_the_declaration_is_true() -> None:
    """sources/readers.py: its --format names are the vocabulary's, each module reads and names its
    files as declared, each writer exists, and no format is claimed by two readers."""
    import importlib

    from advisor.model.vocabulary import InputFormat
    from advisor.sources import readers

    names = [name for reader in readers.READERS for name in reader.names]
    assert sorted(names) == sorted(InputFormat.values()) and len(set(names)) == len(names)
    assert len(readers.BY_FORMAT) == len(readers.READERS)
    for reader in readers.READERS:
        module = importlib.import_module(f"advisor.sources.{reader.module}")
        assert reader.format == module.FORMAT, reader.module
        assert callable(module.sniff) and callable(module.load), reader.module
        if reader.writer is not None:
            importlib.import_module(f"advisor.fix.{reader.writer}")
        assert reader.reads and reader.claims


def test_a_walk_tells_what_every_suffix_is_read_as() -> None:
    """A Kafka-looking file no reader claimed is told what its kind of file is read as: every
    reader that claims its suffix, none that does not."""
    from advisor.sources import readers

    for suffix, modules in readers.claims().items():
        told = readers.what_is_read(suffix)
        for reader in readers.READERS:
            assert (reader.reads in told) == (reader.module in modules), (suffix, reader.module)
