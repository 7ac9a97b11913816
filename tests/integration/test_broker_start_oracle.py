"""What a real broker does at startup with its security plugins: which authorizer classes each
release ships (KB130, read from the class files of 2.8.2, 3.9.1 and 4.4.0), that a 4.4 node
refuses to start with a removed one, and that super.users=User:ANONYMOUS hands every client
without credentials full rights (KB132). The nodes are standalone brokers outside the test
cluster."""

from __future__ import annotations

import re
import sys
import zipfile
from pathlib import Path

import pytest
from confluent_kafka.admin import (
    AclBinding,
    AclOperation,
    AclPermissionType,
    AdminClient,
    NewTopic,
    ResourcePatternType,
    ResourceType,
)
from oracles import standalone_broker

from advisor import catalog
from advisor.report.session import lint
from advisor.rules.checks.security import REMOVED_AUTHORIZERS

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tools"))
import fetch_kafka  # noqa: E402

RELEASES = {"2.8.2": fetch_kafka.kafka_core_libs, "3.9.1": fetch_kafka.kafka_core_libs, "4.4.0": fetch_kafka.kafka_libs}


def shipped_classes(release: str) -> set[str]:
    names: set[str] = set()
    for jar in fetch_kafka.classpath(RELEASES[release](release)).split(":"):
        if jar.endswith(".jar"):
            with zipfile.ZipFile(jar) as archive:
                names.update(n[: -len(".class")].replace("/", ".") for n in archive.namelist() if n.endswith(".class"))
    return names


@pytest.mark.parametrize("release", sorted(RELEASES))
def test_removed_authorizers_are_absent_from_the_releases_that_removed_them(release: str, tmp_path: Path) -> None:
    shipped = shipped_classes(release)
    assert "kafka.server.KafkaConfig" in shipped or "kafka.server.KafkaConfig$" in shipped  # the jars were read
    for name, (removed_in, replacement) in REMOVED_AUTHORIZERS.items():
        removed = catalog.versions.parse(release) >= removed_in
        assert (name not in shipped) is removed, (release, name)
        # the replacement the finding recommends exists where the finding fires
        if removed:
            assert set(re.findall(r"[a-z]+(?:\.\w+)+", replacement)) & shipped, (release, replacement)
        broker = tmp_path / "server.properties"
        broker.write_text(f"process.roles=broker,controller\nnode.id=1\nauthorizer.class.name={name}\n")
        fired = "KB130" in {f.rule for f in lint([broker], kafka_version=release).findings}
        assert fired is removed, (release, name)


@pytest.mark.kafka
def test_a_4x_broker_does_not_start_with_a_removed_authorizer(tmp_path: Path) -> None:
    overrides = {"authorizer.class.name": "kafka.security.authorizer.AclAuthorizer"}
    with pytest.raises(AssertionError, match="did not start") as refused, standalone_broker(tmp_path, overrides):
        pass
    assert "ClassNotFoundException" in str(refused.value) or "AclAuthorizer" in str(refused.value)


@pytest.mark.kafka
def test_anonymous_super_user_gives_clients_without_credentials_every_right(tmp_path: Path) -> None:
    overrides = {
        "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
        "allow.everyone.if.no.acl.found": "false",
        "super.users": "User:ANONYMOUS",
    }
    with standalone_broker(tmp_path, overrides) as bootstrap:
        admin = AdminClient({"bootstrap.servers": bootstrap})  # PLAINTEXT, no credentials
        admin.create_topics([NewTopic("anonymous-made-this", 1, 1)])["anonymous-made-this"].result(timeout=30)
        grant = AclBinding(
            ResourceType.TOPIC,
            "*",
            ResourcePatternType.LITERAL,
            "User:mallory",
            "*",
            AclOperation.ALL,
            AclPermissionType.ALLOW,
        )
        admin.create_acls([grant])[grant].result(timeout=30)
        assert "anonymous-made-this" in admin.list_topics(timeout=10).topics
    broker = tmp_path / "lint" / "server.properties"
    broker.parent.mkdir()
    broker.write_text("".join(f"{k}={v}\n" for k, v in overrides.items()))
    assert "KB132" in {f.rule for f in lint([broker]).findings}
