#!/usr/bin/env python3
"""Generate advisor/catalog/data/camunda_clients.json — the Camunda clients' settings — from the
clients as published (both Apache-2.0):

* the TypeScript SDK `@camunda8/orchestration-cluster-api` (npm): its configuration schema, one
  entry per environment variable (CAMUNDA_SDK_*, CAMUNDA_*) with type, default, choices, aliases
  and whether it is secret, read from the package's own type declarations (the schema is declared
  `as const`, so the published .d.ts holds every value);
* the Spring Boot starter `io.camunda:camunda-spring-boot-starter` (Maven Central): the typed
  `camunda.client.*` properties from its configuration metadata, each legacy spelling it still maps
  (its `camunda-client-legacy-property-mappings.properties`) and the deprecations it declares.

    tools/camunda/gen_camunda_client_catalog.py [--check]
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import fetch_kafka  # noqa: E402 - tools/fetch_kafka.py: the cache and Maven
import generated  # noqa: E402 - tools/generated.py: write, or --check

REPO_ROOT = HERE.parent.parent
OUTPUT = REPO_ROOT / "advisor" / "catalog" / "data" / "camunda_clients.json"
SDK_PACKAGE = "@camunda8/orchestration-cluster-api"
SDK_VERSION = "9.1.5"
STARTER = "io.camunda:camunda-spring-boot-starter:8.8.5"
SCHEMA_VERSION = 1
_ENTRY = re.compile(r"^\s{4}readonly (?P<name>[A-Z][A-Z0-9_]*): \{$")
_FIELD = re.compile(r"^\s{8}readonly (?P<field>\w+): (?P<value>.+);$")


def sdk_folder() -> Path:
    """The SDK as npm installs it, cached (no install scripts run)."""
    folder = fetch_kafka.cache_root() / "npm" / f"orchestration-cluster-api-{SDK_VERSION}"
    package = folder / "node_modules" / SDK_PACKAGE
    if not (package / "package.json").exists():
        folder.mkdir(parents=True, exist_ok=True)
        print(f"gen_camunda_client_catalog: installing {SDK_PACKAGE}@{SDK_VERSION} ...", file=sys.stderr)
        subprocess.run(["npm", "install", "--prefix", str(folder), "--no-audit", "--no-fund", "--ignore-scripts",
                        "--no-save", f"{SDK_PACKAGE}@{SDK_VERSION}"], check=True, capture_output=True)  # fmt: skip
    return package


def _declarations(package: Path) -> str:
    """The .d.ts that declares the configuration schema (the bundle names it by a content hash)."""
    for path in sorted((package / "dist").glob("*.d.ts")):
        text = path.read_text()
        if "readonly CAMUNDA_SDK_HTTP_RETRY_MAX_ATTEMPTS: {" in text:
            return text
    raise SystemExit(f"gen_camunda_client_catalog: no configuration schema in {package}/dist")


def _literal(value: str) -> Any:
    """A TypeScript literal type as the schema writes it: "x", 3, true, readonly ["A", "B"]."""
    value = value.strip().removeprefix("readonly ").strip()
    if value.startswith("["):
        return [_literal(part) for part in re.findall(r'"(?:\\.|[^"\\])*"|[^,\[\]\s]+', value)]
    return json.loads(value)


def sdk_schema(declarations: str) -> dict[str, dict[str, Any]]:
    """Every variable of the schema's block (`readonly NAME: { readonly field: literal; … };`)."""
    found: dict[str, dict[str, Any]] = {}
    current: dict[str, Any] | None = None
    for line in declarations.splitlines():
        entry = _ENTRY.match(line)
        if entry is not None:
            current = found.setdefault(entry.group("name"), {})
            continue
        if current is None:
            continue
        field = _FIELD.match(line)
        if field is not None:
            if field.group("field") in ("type", "default", "choices", "aliases", "secret"):
                current[field.group("field")] = _literal(field.group("value"))
            elif field.group("field") in ("doc", "desc"):
                current["doc"] = _literal(field.group("value"))
        elif line.strip() == "};":
            current = None
    return dict(sorted(found.items()))


def starter_jar() -> Path:
    return fetch_kafka.artifact_jar(STARTER)


def starter_properties(jar: Path) -> tuple[dict[str, dict[str, Any]], dict[str, list[str]]]:
    """(typed properties with default and deprecation, unified key → the legacy spellings it maps)."""
    with zipfile.ZipFile(jar) as archive:
        metadata = json.loads(archive.read("META-INF/spring-configuration-metadata.json"))
        extra = json.loads(archive.read("META-INF/additional-spring-configuration-metadata.json"))
        mappings = archive.read("camunda-client-legacy-property-mappings.properties").decode()
    properties: dict[str, dict[str, Any]] = {}
    for entry in [*metadata.get("properties", []), *extra.get("properties", [])]:
        record = properties.setdefault(entry["name"], {})
        for field in ("type", "defaultValue"):
            if entry.get(field) is not None:
                record["default" if field == "defaultValue" else field] = entry[field]
        if entry.get("deprecation"):
            record["deprecation"] = {k: v for k, v in entry["deprecation"].items() if k in ("replacement", "level")}
    legacy: dict[str, list[str]] = {}
    for line in mappings.splitlines():
        if line.strip() and not line.lstrip().startswith("#") and "=" in line:
            unified, _, olds = line.partition("=")
            legacy[unified.strip()] = [old.strip() for old in olds.split(",") if old.strip()]
    return dict(sorted(properties.items())), legacy


def build() -> dict[str, Any]:
    package = sdk_folder()
    version = json.loads((package / "package.json").read_text())["version"]
    properties, legacy = starter_properties(starter_jar())
    return {
        "about": "generated by tools/camunda/gen_camunda_client_catalog.py from the published clients; do not edit",
        "schema_version": SCHEMA_VERSION,
        "sdk": {"package": SDK_PACKAGE, "version": version, "variables": sdk_schema(_declarations(package))},
        "spring": {"artifact": STARTER, "properties": properties, "legacy": legacy},
    }


def produce() -> dict[Path, str]:
    return {OUTPUT: json.dumps(build(), indent=1) + "\n"}


if __name__ == "__main__":
    sys.exit(generated.run(__doc__.split("\n\n")[0], produce, "tools/camunda/gen_camunda_client_catalog.py"))
