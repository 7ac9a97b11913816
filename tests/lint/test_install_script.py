"""A script that downloads a Kafka release pins it for the broker and topic files it installs
(sources/install_script.py, sources/pins.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.report.session import lint
from advisor.sources import install_script

BROKER = "broker.id=1\nzookeeper.connect=zk-1:2181\nlisteners=PLAINTEXT://:9092\nlog.message.format.version=0.10.2\n"


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("wget https://archive.apache.org/dist/kafka/2.4.1/kafka_2.12-2.4.1.tgz\n", [("2.4.1", 1)]),
        ('V="3.6.0"\nS="2.13"\ncurl -O https://downloads.apache.org/kafka/$V/kafka_$S-$V.tgz\n', [("3.6.0", 3)]),
        ("curl -sL https://dlcdn.apache.org/kafka/3.9.1/kafka_2.13-3.9.1.tar.gz \\\n  | tar -xz\n", [("3.9.1", 1)]),
        ("wget https://archive.apache.org/dist/kafka/$VERSION/kafka_2.13-$VERSION.tgz\n", []),  # not in the script
    ],
)
def test_downloads_are_read_with_the_scripts_own_variables(script: str, expected: list) -> None:
    assert install_script.downloads(script) == expected


def _project(folder: Path, script: str) -> set[tuple[str, str | None]]:
    (folder / "install.sh").write_text(f"#!/bin/bash\n{script}cp server.properties /opt/kafka/config/\n")
    (folder / "server.properties").write_text(BROKER)
    result = lint([folder / "install.sh", folder / "server.properties"])
    return {(f.rule, f.kafka_version_from) for f in result.findings if f.rule == "KB144"}


def test_the_release_a_script_downloads_judges_the_broker_file_it_installs(tmp_path: Path) -> None:
    found = _project(tmp_path, "wget https://archive.apache.org/dist/kafka/2.8.2/kafka_2.13-2.8.2.tgz\n")
    assert [rule for rule, _ in found] == ["KB144"]  # 2.8 keeps the old format; 4.4 would not have the key
    ((_, how),) = found
    assert how == "the Kafka 2.8.2 download at line 2 in install.sh, which names server.properties"


def test_two_releases_in_one_script_pin_nothing(tmp_path: Path) -> None:
    downloads = "wget x/kafka_2.13-2.8.2.tgz\nwget x/kafka_2.13-3.9.1.tgz\n"
    assert _project(tmp_path, downloads) == set()
