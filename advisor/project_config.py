"""Project configuration: `.kafka-advisor.toml`, or `[tool.kafka-advisor]` in pyproject.toml.

The closest file to the first linted path (walking up from it) wins; files are not merged.
Command-line flags override it.

    select = ["KB", "KP101"]          ignore = ["KC102"]
    per-file-ignores = {"legacy/*.properties" = ["KP101"]}
    fail-on = "warning"               kafka-version = "3.9"
    profile = "prod"                  docs-url = "https://example.org/rules"
    baseline = ".kafka-advisor-baseline.json"   # accepted findings (kafka-advisor init writes one)

    [params.KB128]                    # a rule's parameters (`kafka-advisor explain KB128`)
    follower_replicas = 2000

    [clusters.payments]               # files that are one cluster, and what they cannot say
    paths = ["deploy/payments/**", "apps/billing/*.properties"]
    brokers = 6                       racks = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]
    kafka-version = "3.9"             environment = "prod"   # or "dev"

    [overrides."deploy/**/*.conf"]    # what files are where content cannot say (docs/detection.md)
    format = "properties"             as = "broker"          client = "java"
    kafka-version = "3.7"             cluster = "payments"

    [limits]                          # how much a run reads (docs/reliability.md)
    file-bytes = 16777216             line-chars = 1048576    files = 100000
    yaml-nodes = 250000               depth = 200
"""

from __future__ import annotations

import fnmatch
from pathlib import Path

from advisor.model.document import LoadError
from advisor.model.record import Value
from advisor.model.topology import ClusterDeclaration
from advisor.model.vocabulary import Client, Component, InputFormat, Profile, Severity
from advisor.report.selection import Stated
from advisor.sources import FileOverride
from advisor.sources import limits as bounds
from advisor.sources.structured import Located, read_toml

KEYS = (
    "select", "ignore", "per-file-ignores", "fail-on", "kafka-version", "profile", "docs-url", "clusters", "params",
    "overrides", "limits", "load", "baseline", "unread",
)  # fmt: skip
CLUSTER_KEYS = ("paths", "brokers", "racks", "kafka-version", "environment")
OVERRIDE_KEYS = ("format", "as", "client", "kafka-version", "cluster")
_OVERRIDE_CHOICES = {"format": InputFormat.values(), "as": Component.values(), "client": Client.values()}
_CHOICES = {"fail-on": tuple(reversed(Severity.values())), "profile": Profile.values(), "unread": ("note", "error")}


class ProjectConfig(Value):
    __slots__ = ("baseline", "clusters", "docs_url", "fail_on", "ignore", "kafka_version", "limits", "load",
                 "overrides", "params", "path", "per_file_ignores", "profile", "select", "selector_lines",
                 "unread")  # fmt: skip

    def __init__(
        self,
        path: Path | None = None,
        select: list[str] | None = None,
        ignore: list[str] | None = None,
        per_file_ignores: dict[str, list[str]] | None = None,
        fail_on: str | None = None,
        kafka_version: str | None = None,
        profile: str | None = None,
        docs_url: str | None = None,
        baseline: str | None = None,  # relative to the config's folder; --baseline overrides it
        clusters: tuple[ClusterDeclaration, ...] = (),
        overrides: tuple[FileOverride, ...] = (),  # [overrides."GLOB"], in the order written
        # rule id → parameter → (the value as written, its line); checked against the rules by the run session
        params: dict[str, dict[str, tuple[str, int]]] | None = None,
        # [load]: the workload's load profile for recommend and bench, each value with its line
        load: dict[str, tuple[object, int]] | None = None,
        limits: bounds.Limits = bounds.DEFAULTS,
        selector_lines: dict[str, int] | None = None,  # select, ignore, per-file-ignores.GLOB → its line
        unread: str | None = None,  # note or error: a Kafka file no reader claims, a run that read nothing
    ) -> None:
        self.path = path
        self.select: list[str] = [] if select is None else select
        self.ignore: list[str] = [] if ignore is None else ignore
        self.per_file_ignores: dict[str, list[str]] = {} if per_file_ignores is None else per_file_ignores
        self.fail_on = fail_on
        self.kafka_version = kafka_version
        self.profile = profile
        self.docs_url = docs_url
        self.baseline = baseline
        self.clusters = clusters
        self.overrides = overrides
        self.params: dict[str, dict[str, tuple[str, int]]] = {} if params is None else params
        self.load: dict[str, tuple[object, int]] = {} if load is None else load
        self.limits = limits
        self.selector_lines: dict[str, int] = {} if selector_lines is None else selector_lines
        self.unread = unread

    def stated(self, fields: tuple[str, ...] = ("select", "ignore", "per-file-ignores")) -> list[Stated]:
        """Every selector of these fields as written here, with its line (checked against the rules by the run)."""
        where = str(self.path or "project config")
        found = []
        if "select" in fields:
            found += [Stated(s, where, self.selector_lines.get("select")) for s in self.select]
        if "ignore" in fields:
            found += [Stated(s, where, self.selector_lines.get("ignore")) for s in self.ignore]
        if "per-file-ignores" in fields:
            for glob, codes in self.per_file_ignores.items():
                line = self.selector_lines.get(f"per-file-ignores.{glob}")
                found += [Stated(code, where, line) for code in codes]
        return found

    @property
    def base(self) -> Path | None:
        """The folder that path patterns are relative to."""
        return self.path.parent.resolve() if self.path is not None else None

    @property
    def baseline_path(self) -> Path | None:
        """`baseline`, relative to the config's folder."""
        if self.baseline is None or self.path is None:
            return None
        return self.path.parent / self.baseline

    def ignored_for(self, path: str) -> list[str]:
        """Codes ignored for one linted file (patterns are relative to the config's folder)."""
        if self.path is None:
            return []
        if "://" in path:  # a live config or a scrape: matched by its name (live://prod/broker:1)
            relative = path
        else:
            base = self.path.parent.resolve()
            resolved = Path(path).resolve()
            relative = resolved.relative_to(base).as_posix() if resolved.is_relative_to(base) else resolved.as_posix()
        return [
            c for pattern, codes in self.per_file_ignores.items() if fnmatch.fnmatch(relative, pattern) for c in codes
        ]


def find(start: Path) -> Path | None:
    folder = (start if start.is_dir() else start.parent).resolve()
    for candidate in (folder, *folder.parents):
        dedicated = candidate / ".kafka-advisor.toml"
        if dedicated.is_file():
            return dedicated
        pyproject = candidate / "pyproject.toml"
        if pyproject.is_file() and "[tool.kafka-advisor]" in pyproject.read_text(encoding="utf-8"):
            return pyproject
    return None


def _strings(table: Located, key: str, path: str) -> list[str]:
    value = table[key]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise LoadError(path, table.position(key)[0], f"{key} must be a list of rule codes, prefixes or names")
    return value


def _clusters(table: object, line: int, path: Path) -> tuple[ClusterDeclaration, ...]:
    if not isinstance(table, Located):
        raise LoadError(str(path), line, "clusters must be tables: [clusters.NAME] with paths = [globs]")
    declared = []
    for name, entry in table.items():
        where = table.position(name)[0]
        if not isinstance(entry, Located):
            raise LoadError(str(path), where, f"clusters.{name} must be a table with paths = [globs]")
        for key in entry:
            if key not in CLUSTER_KEYS:
                expected = ", ".join(CLUSTER_KEYS)
                raise LoadError(str(path), entry.position(key)[0], f"unknown key clusters.{name}.{key} ({expected})")
        paths = entry.get("paths")
        if not isinstance(paths, list) or not paths or not all(isinstance(p, str) for p in paths):
            raise LoadError(str(path), where, f"clusters.{name}.paths must be a list of glob patterns")
        brokers = entry.get("brokers")
        if brokers is not None and not (isinstance(brokers, str) and brokers.isdigit() and int(brokers) > 0):
            raise LoadError(str(path), entry.position("brokers")[0], f"clusters.{name}.brokers must be a count")
        racks = entry.get("racks", [])
        if not isinstance(racks, list) or not all(isinstance(r, str) for r in racks):
            raise LoadError(str(path), entry.position("racks")[0], f"clusters.{name}.racks must be a list of names")
        environment = entry.get("environment")
        if environment is not None and environment not in Profile.values():
            expected = " or ".join(Profile.values())
            raise LoadError(str(path), entry.position("environment")[0], f"clusters.{name}.environment: {expected}")
        declared.append(
            ClusterDeclaration(
                name=name,
                paths=tuple(paths),
                brokers=int(brokers) if brokers is not None else None,
                racks=tuple(racks),
                kafka_version=entry.get("kafka-version"),
                environment=environment,
                declared_in=str(path),
            )
        )
    return tuple(declared)


def load(path: Path) -> ProjectConfig:
    text = path.read_text(encoding="utf-8")
    data = read_toml(text, str(path))
    table = data
    if path.name == "pyproject.toml":
        table = data.get("tool", {}).get("kafka-advisor", Located())
    config = ProjectConfig(path=path)
    assigned: list[tuple[str, str]] = []  # (cluster, glob) of override globs that name a cluster
    for key, value in table.items():
        line = table.position(key)[0]
        if key not in KEYS:
            raise LoadError(
                str(path), line, f"unknown kafka-advisor setting {key!r} (expected one of {', '.join(KEYS)})"
            )
        if key in ("select", "ignore"):
            setattr(config, key, _strings(table, key, str(path)))
            config.selector_lines[key] = line
        elif key == "clusters":
            config.clusters = _clusters(value, line, path)
        elif key == "overrides":
            config.overrides, assigned = _overrides(value, line, path)
        elif key == "params":
            if not isinstance(value, Located) or not all(isinstance(v, Located) for v in value.values()):
                raise LoadError(str(path), line, "params must be tables: [params.RULE] name = value")
            config.params = {
                rule: {name: (str(v), table_.position(name)[0]) for name, v in table_.items()}
                for rule, table_ in value.items()
            }
        elif key == "limits":
            config.limits = _limits(value, line, path)
        elif key == "load":
            if not isinstance(value, Located) or any(isinstance(v, Located | list) for v in value.values()):
                raise LoadError(str(path), line, "load must be a table of numbers and words: [load] rate_mb_s = 40")
            config.load = {name: (v, value.position(name)[0]) for name, v in value.items()}
        elif key == "per-file-ignores":
            if not isinstance(value, Located):
                raise LoadError(str(path), line, "per-file-ignores must be a table of glob = [codes]")
            config.per_file_ignores = {glob: _strings(value, glob, str(path)) for glob in value}
            config.selector_lines.update({f"per-file-ignores.{glob}": value.position(glob)[0] for glob in value})
        else:
            if not isinstance(value, str) or (key in _CHOICES and value not in _CHOICES[key]):
                expected = " or ".join(_CHOICES.get(key, ("a string",)))
                raise LoadError(str(path), line, f"{key} must be {expected}")
            setattr(config, key.replace("-", "_"), value)
    if config.overrides:
        config.clusters = _with_assigned(config.clusters, assigned, path)
    return config


def _limits(table: object, line: int, path: Path) -> bounds.Limits:
    """[limits]: each a whole number from 1 to its maximum (a run must stay bounded)."""
    if not isinstance(table, Located):
        raise LoadError(str(path), line, "limits must be a table: [limits] files = 100000")
    fields = {name: field_ for field_, name in bounds.NAMES.items()}
    chosen: dict[str, int] = {}
    for name, value in table.items():
        at = table.position(name)[0]
        if name not in fields:
            raise LoadError(str(path), at, f"unknown key limits.{name} (expected one of {', '.join(fields)})")
        maximum = getattr(bounds.MAXIMUMS, fields[name])
        text = str(value).strip()
        if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= maximum:
            raise LoadError(str(path), at, f"limits.{name} must be a whole number from 1 to {maximum:,}")
        chosen[fields[name]] = int(text)
    return bounds.DEFAULTS._replace(**chosen)


def _overrides(table: object, line: int, path: Path) -> tuple[tuple[FileOverride, ...], list[tuple[str, str]]]:
    """[overrides."GLOB"] tables, and the (cluster, glob) pairs they assign."""
    if not isinstance(table, Located):
        raise LoadError(str(path), line, 'overrides must be tables: [overrides."GLOB"] format = "properties"')
    found, assigned = [], []
    for glob, entry in table.items():
        where = table.position(glob)[0]
        if not isinstance(entry, Located):
            raise LoadError(str(path), where, f"overrides.{glob!r} must be a table ({', '.join(OVERRIDE_KEYS)})")
        for key, value in entry.items():
            at = entry.position(key)[0]
            if key not in OVERRIDE_KEYS:
                raise LoadError(
                    str(path), at, f"unknown key {key!r} in overrides.{glob!r} ({', '.join(OVERRIDE_KEYS)})"
                )
            if not isinstance(value, str) or (key in _OVERRIDE_CHOICES and value not in _OVERRIDE_CHOICES[key]):
                expected = ", ".join(_OVERRIDE_CHOICES.get(key, ("a string",)))
                raise LoadError(str(path), at, f"overrides.{glob!r}.{key} must be one of: {expected}")
        if entry.get("cluster"):
            assigned.append((entry["cluster"], glob))
        found.append(
            FileOverride(
                glob=glob,
                format=entry.get("format"),
                component=entry.get("as"),
                client=entry.get("client"),
                kafka_version=entry.get("kafka-version"),
                line=where,
            )
        )
    return tuple(found), assigned


def _with_assigned(
    clusters: tuple[ClusterDeclaration, ...], assigned: list[tuple[str, str]], path: Path
) -> tuple[ClusterDeclaration, ...]:
    """An override's `cluster = NAME` adds its glob to that declared cluster (or declares it)."""
    by_name = {c.name: c for c in clusters}
    for name, glob in assigned:
        current = by_name.get(name) or ClusterDeclaration(name=name, declared_in=str(path))
        by_name[name] = current._replace(paths=(*current.paths, glob))
    return tuple(by_name.values())
