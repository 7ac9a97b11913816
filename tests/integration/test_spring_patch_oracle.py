"""`recommend --diff` on Spring Boot files, proven by Spring Boot itself: the patched
application.yml / application.properties, read by Boot's own property source loaders and bound to
its KafkaProperties (tests/java/SpringBindOracle.java), builds producer and consumer configurations
with every recommended value — for Boot 2.7, 3.5 and 4.0. The unpatched file binds to what our
loader reads, so the model the patch is planned on is Boot's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from oracles import compile_java

from advisor.fix import apply, plan_changes
from advisor.fix.readback import same_value
from advisor.recommend.against import compare
from advisor.recommend.plan import plan
from advisor.recommend.profile import LoadProfile
from advisor.sources import LoadOptions, load

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO_ROOT / "tools"), str(REPO_ROOT / "tools" / "catalog")]
import fetch_kafka  # noqa: E402
import gen_spring_catalog  # noqa: E402

ORACLE = REPO_ROOT / "tests" / "java" / "SpringBindOracle.java"
PROFILE = LoadProfile(goal="throughput", rate_mb_s=40, message_bytes_avg=200)

# The shapes people write: typed properties beside the `properties` map, nested or flat, the
# bracketed map keys, values quoted or not, a comment after a value; typed properties alone.
FILES = {
    "application.yml": """\
spring:
  application:
    name: clicks
  kafka:
    bootstrap-servers: kafka-1:9092
    producer:
      acks: all
      batch-size: 16KB   # the default, written out
      properties:
        linger.ms: 5
        "[request.timeout.ms]": "30000"
    consumer:
      group-id: clicks
      fetch-min-size: 1
      properties:
        max.poll.interval.ms: 300000
""",
    "application.properties": """\
spring.application.name=clicks
spring.kafka.bootstrap-servers=kafka-1:9092
spring.kafka.producer.acks=1
spring.kafka.producer.properties.linger.ms=0
spring.kafka.consumer.group-id=clicks
spring.kafka.consumer.properties[max.poll.interval.ms]=300000
""",
    # Typed properties only: the patch begins Boot's `properties` map.
    "typed-only/application.yml": """spring:
  kafka:
    bootstrap-servers: kafka-1:9092
    producer:
      acks: all
      key-serializer: org.apache.kafka.common.serialization.StringSerializer
    consumer:
      group-id: clicks
""",
    "typed-only/application.properties": """spring.kafka.bootstrap-servers=kafka-1:9092
spring.kafka.producer.acks=1
spring.kafka.consumer.group-id=clicks
""",
}


@pytest.fixture(scope="module")
def oracle_classes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    compiled = {}
    for boot in sorted(gen_spring_catalog.BOOT_RELEASES):
        jars = fetch_kafka.classpath(gen_spring_catalog.boot_jars(boot))
        compiled[boot] = compile_java(ORACLE, tmp_path_factory.mktemp(f"spring-bind-{boot}"), jars)
    return compiled


def bind(boot: str, classes: Path, path: Path) -> dict[str, dict[str, str]]:
    jars = gen_spring_catalog.boot_jars(boot)
    properties_class, _ = gen_spring_catalog.read_metadata(jars)
    command = ["java", "-cp", f"{classes}:{fetch_kafka.classpath(jars)}", "SpringBindOracle", properties_class,
               str(path)]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.parametrize("boot", sorted(gen_spring_catalog.BOOT_RELEASES))
@pytest.mark.parametrize("name", sorted(FILES))
def test_the_patched_spring_file_binds_to_the_recommended_values(
    oracle_classes: dict[str, Path], tmp_path: Path, boot: str, name: str
) -> None:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(FILES[name])
    document = load([path], LoadOptions())
    before = bind(boot, oracle_classes[boot], path)
    for config_set in document.config_sets:  # our reading of the file is Boot's
        built = before[config_set.component]
        for key, setting in config_set.settings.items():
            assert same_value(built.get(key), setting.value), (boot, key, built.get(key), setting.value)

    against = compare(plan(PROFILE).recommendations, document, None)
    changes = [a.change for a in against if a.change is not None]
    assert changes
    (file_plan,) = plan_changes(changes, document, ("unsafe", "safe"), join_inserts=True)
    assert file_plan.skipped == (), file_plan.skipped  # every change written into the file
    patched = tmp_path / "patched" / name
    patched.parent.mkdir(parents=True)
    patched.write_text(apply(FILES[name], file_plan.edits))
    after = bind(boot, oracle_classes[boot], patched)
    for change in changes:
        role = next(cs.component for cs in document.config_sets if cs.name == change.subject)
        assert same_value(after[role].get(change.key), change.value), (boot, change, after[role].get(change.key))
    # Nothing else moved: every other key Boot builds is as it was.
    for role in ("producer", "consumer"):
        changed = {c.key for c in changes if c.subject.endswith(role)}
        assert {k: v for k, v in after[role].items() if k not in changed} == {
            k: v for k, v in before[role].items() if k not in changed
        }
