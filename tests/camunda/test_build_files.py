"""The Camunda starter a Spring application is built with, read from the build file above its
configuration — in the shapes Maven and Gradle projects write it — and what the ZC rules make of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.report.session import RunRequest, run
from advisor.sources.build_files import MAX_BYTES, starter_of

POM = """<project>
  <!-- <dependency><groupId>io.camunda</groupId><artifactId>camunda-spring-boot-starter</artifactId>
       <version>8.9.1</version></dependency> -->
  <properties>
    <java.version>21</java.version>
    <camunda.version>8.8.9</camunda.version>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.springframework.boot</groupId>
      <artifactId>spring-boot-starter-web</artifactId>
    </dependency>
    <dependency>
      <groupId>io.camunda</groupId>
      <artifactId>{artifact}</artifactId>
      <version>{version}</version>
    </dependency>
  </dependencies>
</project>
"""


def _project(root: Path, files: dict[str, str]) -> Path:
    (root / ".git").mkdir(parents=True, exist_ok=True)  # the repository's root: the walk stops here
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    config = root / "src/main/resources/application.yaml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("camunda:\n  client:\n    prefer-rest-over-grpc: false\n    worker:\n      defaults:\n"
                      "        max-retries: 5\n")  # fmt: skip
    return config


@pytest.mark.parametrize(
    ("files", "artifact", "version"),
    [
        ({"pom.xml": POM.format(artifact="camunda-spring-boot-starter", version="${camunda.version}")},
         "camunda-spring-boot-starter", "8.8.9"),  # a property of the same pom; the commented-out one ignored
        ({"pom.xml": POM.format(artifact="spring-boot-starter-camunda-sdk", version="8.7.7")},
         "spring-boot-starter-camunda-sdk", "8.7.7"),
        ({"build.gradle.kts": 'dependencies {\n  implementation("io.camunda:spring-boot-starter-camunda-sdk:8.5.22")\n'
                              "}\n"},
         "spring-boot-starter-camunda-sdk", "8.5.22"),
        ({"build.gradle": "def camundaVersion = '8.8.3'\ndependencies {\n"
                          "  implementation \"io.camunda:camunda-spring-boot-starter:$camundaVersion\"\n}\n"},
         "camunda-spring-boot-starter", "8.8.3"),
        ({"build.gradle.kts": 'dependencies {\n  implementation("io.camunda:camunda-spring-boot-starter:'
                              '${property("camundaVersion")}")\n}\n', "gradle.properties": "camundaVersion=8.8.12\n"},
         "camunda-spring-boot-starter", "8.8.12"),
        ({"build.gradle.kts": "dependencies {\n  implementation(libs.camunda.starter)\n}\n",
          "gradle/libs.versions.toml": '[versions]\ncamunda = "8.8.7"\n[libraries]\n'
                                       'camunda-starter = { module = "io.camunda:camunda-spring-boot-starter", '
                                       'version.ref = "camunda" }\n'},
         "camunda-spring-boot-starter", "8.8.7"),
        ({"pom.xml": POM.format(artifact="camunda-spring-boot-starter", version="${revision}")},
         "camunda-spring-boot-starter", None),  # a property nothing here defines: no release
    ],
)  # fmt: skip
def test_the_starter_and_its_release(tmp_path: Path, files: dict[str, str], artifact: str, version: str | None) -> None:
    starter, read = starter_of(str(_project(tmp_path, files)))
    assert starter is not None and (starter.artifact, starter.version) == (artifact, version)
    assert set(read) <= {str(tmp_path / name) for name in files}  # what was read, for the secret scan


def test_a_parent_poms_property_names_a_modules_release(tmp_path: Path) -> None:
    parent = "<project><properties><camunda.version>8.8.11</camunda.version></properties></project>\n"
    module = POM.format(artifact="camunda-spring-boot-starter", version="${camunda.version}").replace(
        "<camunda.version>8.8.9</camunda.version>", ""
    )
    (tmp_path / "pom.xml").write_text(parent)
    (tmp_path / ".git").mkdir()
    config = _project(tmp_path / "workers", {"pom.xml": module})
    (tmp_path / "workers" / ".git").rmdir()
    starter, _ = starter_of(str(config))
    assert starter is not None and starter.version == "8.8.11"


def test_no_build_file_no_starter_and_an_oversized_one_is_not_read(tmp_path: Path) -> None:
    assert starter_of(str(_project(tmp_path / "a", {})))[0] is None
    huge = POM.format(artifact="camunda-spring-boot-starter", version="8.8.9") + "<!--" + "x" * MAX_BYTES + "-->"
    assert starter_of(str(_project(tmp_path / "b", {"pom.xml": huge})))[0] is None


def _zc(tmp_path: Path, artifact: str, version: str) -> tuple[list[str], list[str]]:
    config = _project(tmp_path, {"pom.xml": POM.format(artifact=artifact, version=version)})
    report = run(RunRequest(paths=(config,)))
    return [f.message for f in report.findings if f.rule == "ZC005"], [p.message for p in report.skipped]


def test_a_measured_starter_release_judges_grpc_with_attempts_to_spare(tmp_path: Path) -> None:
    (message,), _ = _zc(tmp_path / "measured", "camunda-spring-boot-starter", "8.8.9")
    assert "max-retries is 5, but starter 8.8.9 sends a refused completion over gRPC once" in message
    found, notes = _zc(tmp_path / "later", "camunda-spring-boot-starter", "8.8.15")  # past the measured range
    assert not found and any("ZC005 not judged" in n and "8.8.15" in n for n in notes)


def test_a_starter_before_8_8_keeps_its_names_and_is_not_judged_for_workers(tmp_path: Path) -> None:
    config = _project(tmp_path, {"pom.xml": POM.format(artifact="spring-boot-starter-camunda-sdk", version="8.7.7")})
    config.write_text("camunda:\n  client:\n    zeebe:\n      grpc-address: http://zeebe:26500\n")
    report = run(RunRequest(paths=(config,)))
    assert not [f for f in report.findings if f.rule == "ZC004"]  # 8.7's own name
    assert any("ZC005 not judged" in p.message and "older than 8.8's" in p.message for p in report.skipped)
