"""Recommendations against the user's own configurations: the value each runs with now (written or
its default), the Changes where it differs, a patch for the user's own files that never touches
the input, each library's own names, and no secret anywhere."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from advisor.fix import apply, plan_changes
from advisor.recommend.against import compare
from advisor.recommend.plan import plan
from advisor.recommend.profile import LoadProfile
from advisor.report.session import lint
from advisor.sources import LoadOptions, load

PROFILE = LoadProfile(goal="throughput", rate_mb_s=40, message_bytes_avg=200)
SECRET = "pa55-never-shown"


def recommend(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "advisor", "recommend", "--goal", "throughput", "--rate-mb-s", "40",
                           "--message-bytes", "200", *args], capture_output=True, text=True, timeout=120)  # fmt: skip


def test_each_value_now_is_beside_the_recommended_one(tmp_path: Path) -> None:
    producer = tmp_path / "producer.properties"
    producer.write_text("bootstrap.servers=kafka-1:9092\nacks=all\nlinger.ms=5\nclient.id=clicks\n")
    document = load([producer], LoadOptions())
    found = {a.key: a for a in compare(plan(PROFILE).recommendations, document, None)}
    assert found["acks"].change is None and found["acks"].written.line == 2  # already so, where it is written
    assert found["linger.ms"].current == "5" and found["linger.ms"].change.value == "27"
    assert found["compression.type"].current == "none" and found["compression.type"].written is None  # the default
    assert "partitions" not in found  # not a client setting


def test_the_patch_makes_the_file_say_what_was_recommended_and_it_lints_clean(tmp_path: Path) -> None:
    producer = tmp_path / "producer.properties"
    original = (
        f'bootstrap.servers=kafka-1:9092\nlinger.ms=5\nbatch.size=16384\nsasl.jaas.config=x password="{SECRET}";\n'
    )
    producer.write_text(original)
    result = recommend(str(producer), "--diff")
    assert result.returncode == 1, result.stderr
    assert "+linger.ms=27" in result.stdout and "+compression.type=lz4" in result.stdout
    assert SECRET not in result.stdout + result.stderr and producer.read_text() == original  # nothing written
    document = load([producer], LoadOptions())
    changes = [a.change for a in compare(plan(PROFILE).recommendations, document, None) if a.change]
    (file_plan,) = plan_changes(changes, document, ("unsafe",), join_inserts=True)
    patched = tmp_path / "patched.properties"
    patched.write_text(apply(original, file_plan.edits).replace(f'x password="{SECRET}";', "${file:/s:jaas}"))
    after = {a.key: a for a in compare(plan(PROFILE).recommendations, load([patched], LoadOptions()), None)}
    assert all(a.change is None for a in after.values()), [(k, a.current) for k, a in after.items() if a.change]
    loud = [f.rule for f in lint([patched]).findings if f.severity in ("error", "warning")]
    assert loud == []


def test_each_library_is_compared_in_its_own_names(tmp_path: Path) -> None:
    edge = tmp_path / "edge.json"
    edge.write_text(json.dumps({"producer": {"bootstrap.servers": "k:9092", "linger.ms": 50,
                                             "queue.buffering.max.kbytes": 4096}}))  # fmt: skip
    document = load([edge], LoadOptions())
    found = {a.key: a for a in compare(plan(PROFILE).recommendations, document, None)}
    assert found["linger.ms"].current == "50"
    assert found["enable.idempotence"].current == "false" and found["enable.idempotence"].change is not None
    assert "buffer.memory" not in found and "queue.buffering.max.kbytes" not in found  # 1 GiB default holds it
    result = recommend(str(edge), "--output-format", "json")
    against = json.loads(result.stdout)["against"]
    assert {(a["client"], a["key"]) for a in against} >= {
        ("librdkafka", "linger.ms"),
        ("librdkafka", "enable.idempotence"),
    }
    # The patch speaks librdkafka in the file's own layout: numbers stay numbers, a new key is added.
    patch = recommend(str(edge), "--diff").stdout
    assert '+{"producer": {"bootstrap.servers": "k:9092", "linger.ms": 27, "queue.buffering.max.kbytes": 4096, ' in (
        patch
    )
    assert '"enable.idempotence": true' in patch and '"compression.type": "lz4"' in patch


def test_brokers_take_the_topic_defaults_they_set(tmp_path: Path) -> None:
    broker = tmp_path / "server.properties"
    broker.write_text("process.roles=broker,controller\nnode.id=1\ncontroller.quorum.voters=1@k:9093\n"
                      "listeners=PLAINTEXT://:9092,CONTROLLER://:9093\ncontroller.listener.names=CONTROLLER\n"
                      "min.insync.replicas=1\n")  # fmt: skip
    found = {a.key: a for a in compare(plan(PROFILE).recommendations, load([broker], LoadOptions()), None)}
    assert found["min.insync.replicas"].current == "1" and found["min.insync.replicas"].change.value == "2"
    assert found["unclean.leader.election.enable"].change is None  # false by default
    assert "linger.ms" not in found and "partitions" not in found


def test_an_unreadable_config_is_an_error_and_nothing_else_is_printed(tmp_path: Path) -> None:
    broken = tmp_path / "values.yaml"
    broken.write_text("kafka: [unclosed\n")
    result = recommend(str(broken))
    assert result.returncode == 2 and "values.yaml" in result.stderr and "Traceback" not in result.stderr


# Held-out shapes of issue #25: a no-loss, ordered profile beside settings that contradict it.
NO_LOSS = LoadProfile(goal="durability", rate_mb_s=20, message_bytes_avg=1000, brokers=3, loss="none",
                      ordering="per-key")  # fmt: skip
CONTRADICTING = {
    "producer.properties": "bootstrap.servers=kafka:9092\nacks=1\nretries=0\n"
    "max.in.flight.requests.per.connection=20\nclient.id=orders\n",
    "consumer.properties": "bootstrap.servers=kafka:9092\ngroup.id=billing\nenable.auto.commit=true\n"
    "session.timeout.ms=10000\n",
    "server.properties": "process.roles=broker,controller\nnode.id=1\ndefault.replication.factor=2\n"
    "compression.type=gzip\nlog.dirs=/data/d1,/data/d2,/data/d3\nnum.recovery.threads.per.data.dir=1\n",
}


def _against(tmp_path: Path) -> dict[str, object]:
    for name, text in CONTRADICTING.items():
        (tmp_path / name).write_text(text)
    document = load([tmp_path / name for name in CONTRADICTING], LoadOptions())
    found = compare(plan(NO_LOSS).recommendations, document, None)
    return {f"{a.config_set.component} {a.key}": a for a in found}


def test_every_setting_that_contradicts_the_profile_is_changed_with_its_line(tmp_path: Path) -> None:
    found = _against(tmp_path)
    expected = {  # (now, line written, recommended)
        "producer retries": ("0", 3, "2147483647"),
        "producer max.in.flight.requests.per.connection": ("20", 4, "5"),
        "consumer enable.auto.commit": ("true", 3, "false"),
        "consumer session.timeout.ms": ("10000", 4, "45000"),
        "broker default.replication.factor": ("2", 3, "3"),
        "broker compression.type": ("gzip", 4, "producer"),
        "broker num.recovery.threads.per.data.dir": ("1", 6, "2"),
    }
    for key, (now, line, value) in expected.items():
        against = found[key]
        assert (against.current, against.written.line, str(against.value), against.change is not None) == (  # type: ignore[attr-defined]
            now,
            line,
            value,
            True,
        ), key


def test_idempotence_is_never_already_so_where_the_config_turns_it_off(tmp_path: Path) -> None:
    idempotence = _against(tmp_path)["producer enable.idempotence"]
    assert idempotence.current == "false" and idempotence.change is not None  # type: ignore[attr-defined]
    assert idempotence.why == "acks=1 turns the default off"  # type: ignore[attr-defined]


def test_a_librdkafka_plan_names_librdkafka_metrics_and_no_java_only_setting() -> None:
    done = subprocess.run([sys.executable, "-m", "advisor", "recommend", "--goal", "throughput", "--rate-mb-s", "100",
                           "--message-bytes", "5000000", "--brokers", "3", "--client", "librdkafka"],
                          capture_output=True, text=True, timeout=120, check=True)  # fmt: skip
    text = done.stdout
    assert "brokers.<broker>.rtt.avg" in text and "proves it: request-latency-avg" not in text
    assert "buffer.memory: nothing to set for librdkafka" in text and "buffer.memory =" not in text
    assert "compression-rate-avg (Java's; librdkafka reports none)" in text
    assert "≥ the largest record up to 1 MiB" in text  # a 5 MB record leaves alone: no formula promising more


def test_partitions_are_never_fewer_than_the_brokers() -> None:
    from advisor.recommend import sizing
    from advisor.recommend.profile import resolve

    quiet = resolve(LoadProfile(goal="latency", rate_mb_s=0.1, message_bytes_avg=200, brokers=3))
    assert sizing.partitions(quiet).value == 3  # the rate alone would give one


def _recommend_json(folder: Path, *args: str) -> dict:  # type: ignore[type-arg]
    done = subprocess.run([sys.executable, "-m", "advisor", "recommend", "--goal", "durability", "--brokers", "3",
                           "--output-format", "json", str(folder), *args], capture_output=True, text=True,
                          timeout=120, check=True)  # fmt: skip
    return json.loads(done.stdout)


def test_a_producer_in_transactions_puts_its_consumers_on_read_committed(tmp_path: Path) -> None:
    (tmp_path / "consumer.properties").write_text("bootstrap.servers=kafka:9092\ngroup.id=billing\n")
    plain = _recommend_json(tmp_path)
    assert "consumer isolation.level" not in {a["recommendation"] for a in plain["against"]}
    (tmp_path / "producer.properties").write_text("bootstrap.servers=kafka:9092\ntransactional.id=billing-tx\n")
    report = _recommend_json(tmp_path)
    written = f"from {tmp_path / 'producer.properties'}:2"
    assert report["profile"]["transactions"] == {"value": True, "origin": written}
    assert not [k for k in report["kept"] if "transactional.id" in k["keys"]]  # read for the profile, said there
    (isolation,) = [a for a in report["against"] if a["recommendation"] == "consumer isolation.level"]
    assert (isolation["current"], isolation["value"], isolation["change"]) == ("read_uncommitted", "read_committed",
                                                                             True)  # fmt: skip
    (tmp_path / "consumer.json").write_text('{"consumer": {"bootstrap.servers": "kafka:9092", "group.id": "g"}}')
    report = _recommend_json(tmp_path)  # librdkafka reads committed records by default
    (rdkafka,) = [a for a in report["against"] if a["path"].endswith("consumer.json")
                  and a["recommendation"] == "consumer isolation.level"]  # fmt: skip
    assert (rdkafka["current"], rdkafka["change"]) == ("read_committed", False)


def test_a_topic_declared_with_too_few_partitions_is_said_and_not_edited(tmp_path: Path) -> None:
    (tmp_path / "topic.yaml").write_text(
        "apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaTopic\nmetadata:\n  name: orders\n  labels:\n"
        "    strimzi.io/cluster: main\nspec:\n  partitions: 1\n  replicas: 3\n  config:\n"
        "    min.insync.replicas: 2\n"
    )
    (tmp_path / "topics.tf").write_text(
        'resource "kafka_topic" "clicks" {\n  name = "clicks"\n  replication_factor = 3\n'
        "  partitions = var.clicks_partitions\n}\n"
    )
    report = _recommend_json(tmp_path, "--rate-mb-s", "50")
    declared = {(a["subject"], a["key"]): a for a in report["against"] if a["declared"]}
    orders = declared[("KafkaTopic/orders", "partitions")]
    assert (orders["current"], orders["change"], orders["edit"]) == ("1", True, False)  # said; no edit of a setting
    assert declared[("KafkaTopic/orders", "replication.factor")]["change"] is False  # 3 replicas: already so
    assert not [key for key in declared if key[0].endswith("clicks") and key[1] == "partitions"]  # a variable
    text = subprocess.run([sys.executable, "-m", "advisor", "recommend", "--goal", "durability", "--rate-mb-s", "50",
                           str(tmp_path)], capture_output=True, text=True, timeout=120, check=True).stdout  # fmt: skip
    assert "now 1: " in text and "change it where the topic is created" in text


def test_more_recovery_threads_than_recommended_are_kept(tmp_path: Path) -> None:
    (tmp_path / "server.properties").write_text(
        "process.roles=broker\nnode.id=1\nnum.recovery.threads.per.data.dir=8\n"
    )
    report = _recommend_json(tmp_path)
    (threads,) = [a for a in report["against"] if a["key"] == "num.recovery.threads.per.data.dir"]
    assert (threads["current"], threads["change"]) == ("8", False)  # a RAID's disks: never lowered to 2


def test_every_written_setting_is_changed_or_said_kept(tmp_path: Path) -> None:
    """What no recommendation concerns is said kept, with why — never left out in silence — and
    what a recommendation compared is not said twice."""
    (tmp_path / "server.properties").write_text(
        "process.roles=broker\nnode.id=1\nnum.io.threads=16\nlog.retention.hours=72\ncompression.type=gzip\n"
    )
    report = _recommend_json(tmp_path)
    (kept,) = report["kept"]
    assert kept["keys"] == ["process.roles", "node.id", "num.io.threads", "log.retention.hours"]
    assert "lint" in kept["reason"]
    assert any(a["key"] == "compression.type" and a["change"] for a in report["against"])  # changed, not kept
    text = subprocess.run([sys.executable, "-m", "advisor", "recommend", "--goal", "durability", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, check=True).stdout  # fmt: skip
    assert "Kept as written" in text and "num.io.threads, log.retention.hours" in text


def test_one_partition_is_never_recommended_without_saying_why() -> None:
    from advisor.recommend import sizing
    from advisor.recommend.profile import resolve

    single = sizing.partitions(resolve(LoadProfile(goal="latency", rate_mb_s=0.1, message_bytes_avg=200, brokers=1)))
    assert single.value == 1 and "1 partition" in single.note and "move keys" in single.note
    (partitions,) = [r for r in plan(LoadProfile(goal="latency", rate_mb_s=0.1, message_bytes_avg=200, brokers=1))
                     .recommendations if r.key == "partitions"]  # fmt: skip
    assert "1 partition" in partitions.rationale
    assert sizing.partitions(resolve(LoadProfile(goal="latency", rate_mb_s=0.1, brokers=3))).note == ""
