#!/usr/bin/env python3
"""Fetch Apache Kafka jars and the Prometheus JMX exporter from Maven Central.

Maven resolves each artifact's runtime closure and copies it into the
git-ignored cache (``.cache/`` at the repository root, or ``$KAFKA_ADVISOR_CACHE``):

    .cache/kafka/<version>/libs/*.jar
    .cache/jmx-exporter/<version>/jmx_prometheus_javaagent.jar

A directory is only used once it carries a ``.complete`` marker, so an
interrupted download is redone rather than half-used. Once the cache exists
nothing touches the network.

Usage: tools/fetch_kafka.py [--kafka-version V] [--jmx-exporter-version V] [--print-classpath]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
MAVEN_DIR = REPO_ROOT / "tools" / "maven"
DEFAULT_KAFKA_VERSION = "4.4.0"
# 1.0.1 is the newest release of the agent that Maven Central serves here.
DEFAULT_JMX_EXPORTER_VERSION = "1.0.1"
# The newest Strimzi Metrics Reporter served here (0.3.0 and later are refused).
DEFAULT_STRIMZI_REPORTER_VERSION = "0.2.0"
COMPLETE_MARKER = ".complete"


def cache_root() -> Path:
    return Path(os.environ.get("KAFKA_ADVISOR_CACHE", REPO_ROOT / ".cache"))


def _fingerprint(pom: Path, properties: dict[str, str]) -> str:
    """What a resolution was made from: the POM's text and its properties (a dependency added to
    the POM makes a cached resolution stale)."""
    digest = hashlib.sha256(pom.read_bytes())
    digest.update(repr(sorted(properties.items())).encode())
    return f"ok {digest.hexdigest()}\n"


def resolved(pom: Path, properties: dict[str, str], target: Path) -> bool:
    """Whether ``target`` holds a complete resolution of this POM with these properties."""
    marker = target / COMPLETE_MARKER
    return marker.exists() and marker.read_text() == _fingerprint(pom, properties)


def copy_dependencies(pom: Path, properties: dict[str, str], target: Path) -> None:
    """Run Maven's copy-dependencies for ``pom`` into ``target`` (created atomically)."""
    arguments = ["-f", str(pom), "dependency:copy-dependencies", "-DincludeScope=runtime"]
    arguments += [f"-D{key}={value}" for key, value in properties.items()]
    _maven_into(target, arguments, f"{pom.name} with {properties}", _fingerprint(pom, properties))


def _maven_into(target: Path, arguments: list[str], what: str, marker: str = "ok\n") -> None:
    """Run Maven with ``arguments`` writing into a staging directory that becomes ``target``
    only once complete (with its marker), so an interrupted run leaves nothing half-used."""
    if shutil.which("mvn") is None:
        raise SystemExit("fetch_kafka: Maven (mvn) is not on PATH; install it (apt-get install maven)")
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=target.parent))
    command = ["mvn", "-B", "-q", *arguments, f"-DoutputDirectory={staging}"]
    # Run in the staging directory, where no pom.xml is unless -f names one.
    result = subprocess.run(command, cwd=staging, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        shutil.rmtree(staging, ignore_errors=True)
        raise SystemExit(f"fetch_kafka: Maven could not resolve {what}:\n{result.stdout[-4000:]}")
    (staging / COMPLETE_MARKER).write_text(marker)
    if target.exists():
        shutil.rmtree(target)
    staging.rename(target)


def kafka_libs(version: str = DEFAULT_KAFKA_VERSION) -> Path:
    """Return the directory holding Kafka ``version``'s runtime jars (broker and
    CLI tools, with a logging binding), fetching it if needed."""
    return _kafka_closure(version, "libs", "kafka-runtime.pom.xml")


def kafka_core_libs(version: str) -> Path:
    """Return the directory holding only the broker jar of Kafka ``version`` and
    its dependencies: enough to read ConfigDefs, for releases without kafka-tools."""
    return _kafka_closure(version, "core-libs", "kafka-core.pom.xml")


def _kafka_closure(version: str, name: str, pom: str) -> Path:
    libs = cache_root() / "kafka" / version / name
    if not (libs / COMPLETE_MARKER).exists():
        print(f"fetch_kafka: resolving Apache Kafka {version} ({pom}) from Maven Central ...", file=sys.stderr)
        copy_dependencies(MAVEN_DIR / pom, {"kafka.version": version}, libs)
    return libs


def artifact_jar(coordinate: str) -> Path:
    """Return one jar, ``group:artifact:version``, without its dependencies, fetching it if
    needed: for old releases whose single jars the tests read (see test_legacy_removals)."""
    group, artifact, version = coordinate.split(":")
    directory = cache_root() / "maven" / group / artifact / version
    if not (directory / COMPLETE_MARKER).exists():
        print(f"fetch_kafka: resolving {coordinate} from Maven Central ...", file=sys.stderr)
        _maven_into(directory, ["dependency:copy", f"-Dartifact={coordinate}"], coordinate)
    return directory / f"{artifact}-{version}.jar"


def jmx_exporter_agent(version: str = DEFAULT_JMX_EXPORTER_VERSION) -> Path:
    """Return the path of the JMX exporter java agent jar, fetching it if needed."""
    directory = cache_root() / "jmx-exporter" / version
    if not (directory / COMPLETE_MARKER).exists():
        print(f"fetch_kafka: resolving the Prometheus JMX exporter {version} ...", file=sys.stderr)
        copy_dependencies(MAVEN_DIR / "jmx-exporter.pom.xml", {"jmx.exporter.version": version}, directory)
    agents = sorted(directory.glob("jmx_prometheus_javaagent-*.jar"))
    if len(agents) != 1:
        raise SystemExit(f"fetch_kafka: expected one agent jar in {directory}, found {agents}")
    return agents[0]


def strimzi_metrics_reporter(version: str = DEFAULT_STRIMZI_REPORTER_VERSION) -> Path:
    """Return the directory holding the Strimzi Metrics Reporter's jars (without Kafka's, which
    the broker has), fetching them if needed."""
    pom = MAVEN_DIR / "strimzi-metrics-reporter.pom.xml"
    properties = {"reporter.version": version}
    directory = cache_root() / "strimzi-metrics-reporter" / version
    if not resolved(pom, properties, directory):
        print(f"fetch_kafka: resolving the Strimzi Metrics Reporter {version} ...", file=sys.stderr)
        copy_dependencies(pom, properties, directory)
    return directory


# Micrometer (its Kafka client binder and Prometheus registry): the newest served here.
DEFAULT_MICROMETER_VERSION = "1.17.2"


def micrometer(version: str = DEFAULT_MICROMETER_VERSION) -> Path:
    """Return the directory holding Micrometer's core and Prometheus registry jars (without
    Kafka's, which the harness brings), fetching them if needed."""
    pom = MAVEN_DIR / "micrometer.pom.xml"
    properties = {"micrometer.version": version}
    directory = cache_root() / "micrometer" / version
    if not resolved(pom, properties, directory):
        print(f"fetch_kafka: resolving Micrometer {version} ...", file=sys.stderr)
        copy_dependencies(pom, properties, directory)
    return directory


# The Camunda Spring Boot starter (Apache-2.0): the job worker's settings as Spring binds them.
DEFAULT_CAMUNDA_STARTER_VERSION = "8.8.5"


def camunda_spring_starter(version: str = DEFAULT_CAMUNDA_STARTER_VERSION) -> Path:
    """Return the directory holding the Camunda Spring Boot starter's jars with what it runs on
    (Spring Boot, the Camunda Java client), fetching them if needed. No Zeebe broker."""
    pom = MAVEN_DIR / "camunda-spring-starter.pom.xml"
    properties = {"starter.version": version}
    directory = cache_root() / "camunda-starter" / version
    if not resolved(pom, properties, directory):
        print(f"fetch_kafka: resolving the Camunda Spring Boot starter {version} ...", file=sys.stderr)
        copy_dependencies(pom, properties, directory)
    return directory


def classpath(libs: Path) -> str:
    return os.pathsep.join(str(jar) for jar in sorted(libs.glob("*.jar")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kafka-version", default=DEFAULT_KAFKA_VERSION)
    parser.add_argument("--jmx-exporter-version", default=DEFAULT_JMX_EXPORTER_VERSION)
    parser.add_argument("--print-classpath", action="store_true", help="print the Kafka classpath and exit")
    args = parser.parse_args(argv)
    libs = kafka_libs(args.kafka_version)
    if args.print_classpath:
        print(classpath(libs))
        return 0
    agent = jmx_exporter_agent(args.jmx_exporter_version)
    print(f"kafka {args.kafka_version}: {libs} ({len(list(libs.glob('*.jar')))} jars)")
    print(f"jmx exporter {args.jmx_exporter_version}: {agent}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
