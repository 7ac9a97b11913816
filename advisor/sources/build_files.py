"""The Camunda Spring starter a Spring application is built with, read from its build file: the
nearest pom.xml, build.gradle(.kts) (with gradle.properties and gradle/libs.versions.toml) in the
configuration's folder or a folder above it, up to the repository's root. The starter's release
decides what its job workers do and which property names are its own (the ZC rules).

Read as text, never run: a dependency's literal version, or a property the same build (or a
parent pom above it) defines. Anything else — a version from a BOM nothing here pins, a plugin, a
variable from the environment — is no release, and the file is said as consulted all the same.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from advisor import lazy_re
from advisor.named_tuple import NamedTuple

# io.camunda's Spring starters, newest first: camunda-spring-boot-starter (8.8 on; -3-/-4- per
# Spring Boot from 8.9), the SDK starter (8.5-8.7), Spring Zeebe's (up to 8.4), Connectors' runtime.
STARTERS = ("camunda-spring-boot-starter", "camunda-spring-boot-3-starter", "camunda-spring-boot-4-starter",
            "spring-boot-starter-camunda-sdk", "spring-boot-starter-camunda", "spring-zeebe-starter",
            "spring-boot-starter-camunda-connectors")  # fmt: skip
_GROUPS = ("io.camunda", "io.camunda.spring", "io.camunda.connector")
BUILD_FILES = ("pom.xml", "build.gradle.kts", "build.gradle")
MAX_BYTES = 2 * 1024 * 1024  # a build file larger than this is not read
MAX_LEVELS = 4  # folders walked up: src/main/resources/application.yaml is three below its pom.xml

_COMMENT = lazy_re.compile(r"<!--.*?-->", re.DOTALL)
_DEPENDENCY = lazy_re.compile(r"<dependency>(?P<body>.*?)</dependency>", re.DOTALL)
_PROPERTIES = lazy_re.compile(r"<properties>(?P<body>.*?)</properties>", re.DOTALL)
_ELEMENT = lazy_re.compile(r"<(?P<name>[\w.-]+)>\s*(?P<value>[^<]*?)\s*</(?P=name)>")
_RELEASE = lazy_re.compile(r"^8\.\d+(?:\.\d+)?(?:[-.][\w.-]+)?$")
_GRADLE = lazy_re.compile(
    r"[\"'](?P<group>io\.camunda(?:\.spring|\.connector)?):(?P<artifact>[\w.-]+):(?P<version>\$\{[^}\n]*\}|[^\"'\s]+)[\"']"
)
_GRADLE_REFERENCE = lazy_re.compile(
    r"^\$\{?(?:(?:project\.)?(?:property|findProperty)\(\"(?P<called>[\w.-]+)\"\)|(?P<bare>[\w.]+))\}?$"
)
_GRADLE_DEFINITION = lazy_re.compile(
    r"(?:\b(?:val|var|def)\s+|\bext\.|extra\[[\"']|\bset\([\"'])(?P<name>[\w.]+)[\"']?\]?\s*(?:=|,)\s*"
    r"[\"'](?P<value>[^\"']+)[\"']"
)


class Starter(NamedTuple):
    """The starter found: its artifact, release (None: not resolved from the build), and where."""

    artifact: str
    version: str | None
    build_file: str

    @property
    def said(self) -> str:
        return f"{self.build_file}: io.camunda:{self.artifact} {self.version or '(version not resolved)'}"


def starter_of(config_path: str) -> tuple[Starter | None, dict[str, str]]:
    """The Camunda starter of the nearest build above a Spring configuration file, and the texts
    read to find it ({path: text}, so the run's secret scan sees them too)."""
    read: dict[str, str] = {}
    folder = Path(config_path).parent
    for _ in range(MAX_LEVELS):
        for name in BUILD_FILES:
            build = folder / name
            text = _text(build)
            if text is None:
                continue
            read[str(build)] = text
            found = _maven(build, text, read) if name == "pom.xml" else _gradle(build, text, read)
            return found, read
        if (folder / ".git").exists() or folder.parent == folder:
            break
        folder = folder.parent
    return None, read


def _text(path: Path) -> str | None:
    try:
        if not path.is_file() or path.stat().st_size > MAX_BYTES:
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


# --- Maven -------------------------------------------------------------------------------------


def _maven(build: Path, text: str, read: dict[str, str]) -> Starter | None:
    text = _COMMENT.sub("", text)
    for match in _DEPENDENCY.finditer(text):
        fields = {m["name"]: m["value"] for m in _ELEMENT.finditer(match["body"])}
        if fields.get("groupId") in _GROUPS and fields.get("artifactId") in STARTERS:
            version = _resolved(fields.get("version"), build, text, read)
            return Starter(fields["artifactId"], version, str(build))
    return None


def _resolved(version: str | None, build: Path, text: str, read: dict[str, str]) -> str | None:
    """A version as written, a ${property} this pom or a parent pom above it defines, or None."""
    if version is None:
        return None
    seen = 0
    while version.startswith("${") and version.endswith("}") and seen < 5:  # a property naming another
        seen += 1
        name = version[2:-1]
        value = _property(name, text) or _parents_property(name, build, read)
        if value is None:
            return None
        version = value
    return version if _RELEASE.match(version) else None


def _property(name: str, text: str) -> str | None:
    for block in _PROPERTIES.finditer(text):
        for element in _ELEMENT.finditer(block["body"]):
            if element["name"] == name:
                return str(element["value"])
    return None


def _parents_property(name: str, build: Path, read: dict[str, str]) -> str | None:
    folder = build.parent.parent
    for _ in range(MAX_LEVELS):
        parent = folder / "pom.xml"
        text = _text(parent)
        if text is not None:
            read[str(parent)] = text
            value = _property(name, _COMMENT.sub("", text))
            if value is not None:
                return value
        if (folder / ".git").exists() or folder.parent == folder:
            return None
        folder = folder.parent
    return None


# --- Gradle ------------------------------------------------------------------------------------


def _gradle(build: Path, text: str, read: dict[str, str]) -> Starter | None:
    for match in _GRADLE.finditer(text):
        if match["artifact"] in STARTERS:
            version = _gradle_version(match["version"], build, text, read)
            return Starter(match["artifact"], version, str(build))
    return _catalog(build, text, read)


def _gradle_version(written: str, build: Path, text: str, read: dict[str, str]) -> str | None:
    reference = _GRADLE_REFERENCE.match(written)
    if reference is None:
        return written if _RELEASE.match(written) else None
    name = reference["called"] or reference["bare"]
    for definition in _GRADLE_DEFINITION.finditer(text):
        if definition["name"] == name:
            return definition["value"] if _RELEASE.match(definition["value"]) else None
    properties = _text(build.parent / "gradle.properties")
    if properties is not None:
        read[str(build.parent / "gradle.properties")] = properties
        for line in properties.splitlines():
            key, _, value = line.partition("=")
            if key.strip() == name and _RELEASE.match(value.strip()):
                return value.strip()
    return None


def _catalog(build: Path, text: str, read: dict[str, str]) -> Starter | None:
    """A starter named through the version catalog (gradle/libs.versions.toml)."""
    path = build.parent / "gradle" / "libs.versions.toml"
    raw = _text(path)
    if raw is None:
        return None
    read[str(path)] = raw
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found]
    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError:
        return None
    versions = data.get("versions") if isinstance(data.get("versions"), dict) else {}
    for entry in (data.get("libraries") or {}).values():
        module, version = _library(entry)
        group, _, artifact = (module or "").partition(":")
        if group not in _GROUPS or artifact not in STARTERS:
            continue
        if isinstance(version, dict):
            version = versions.get(str(version.get("ref")))
        shown = version if isinstance(version, str) and _RELEASE.match(version) else None
        return Starter(artifact, shown, str(path))
    return None


def _library(entry: object) -> tuple[str | None, object]:
    if isinstance(entry, str):  # "group:artifact:version"
        parts = entry.split(":")
        return ":".join(parts[:2]), parts[2] if len(parts) > 2 else None
    if not isinstance(entry, dict):
        return None, None
    module = entry.get("module") or (f"{entry.get('group')}:{entry.get('name')}" if entry.get("group") else None)
    return (str(module) if module else None), entry.get("version")  # {"ref": name} for version.ref
