"""Loaders turn input files into the normalized document; one module per format.

Each loader module has `sniff(path, text)`, returning a payload when the file is
its format (None otherwise), and `load(path, text, payload, options)`, returning
the source file and its config sets. `discover` walks the paths once, reading each
candidate file once; `load` collects config sets, and a file that cannot be
parsed adds a LoadError while the others are still loaded. A loader may also have
`link(document)`, run once after every file is loaded, for facts that span files.
"""

from __future__ import annotations

import fnmatch
import importlib
import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from advisor import TYPE_CHECKING, lazy_re
from advisor.metrics.sniff import described
from advisor.metrics.sniff import kind as metric_kind
from advisor.model.document import Document, LoadError, Problem, SourceFile
from advisor.model.topology import ClusterDeclaration
from advisor.model.vocabulary import Product, product_of
from advisor.named_tuple import NamedTuple
from advisor.sources import limits as bounds
from advisor.sources import pins, readers, topology
from advisor.sources.text import decode

if TYPE_CHECKING:
    from typing import Any

# The detection tables, built from the one declaration of each reader (sources/readers.py).
LOADERS = tuple(reader.module for reader in readers.READERS)  # in precedence
# The loaders that may claim a file, by its suffix (an extensionless file: a `.env` or a #! script).
# A loader is imported only when a file could be its: a one-file run pays for one or two.
_CLAIMS = readers.claims()
SUFFIXES = set(_CLAIMS)


def _loaders(names: Iterable[str]) -> Iterator[Any]:
    """These loaders in order (those that may claim a suffix), each imported when asked: a
    compose file claimed by the first never imports the Strimzi, Spring or Helm readers."""
    for name in names:
        loader = _IMPORTED.get(name)
        if loader is None:
            loader = _IMPORTED[name] = importlib.import_module(f"advisor.sources.{name}")
        yield loader


_IMPORTED: dict[str, Any] = {}


# --format names (vocabulary.InputFormat) and what reads each: (loader, the suffix its sniffing
# expects, None: any).
FORMATS = readers.named()


class FileOverride(NamedTuple):
    """`[overrides."GLOB"]` in the project config: what the files it matches are, where their
    content cannot say (a `kafka.conf` is properties; these dicts are a consumer's)."""

    glob: str
    format: str | None = None
    component: str | None = None
    client: str | None = None
    kafka_version: str | None = None
    line: int = 0


class LoadOptions(NamedTuple):
    component: str | None = None  # --as
    client: str | None = None  # --client
    clusters: tuple[ClusterDeclaration, ...] = ()  # declared in the project config
    base: Path | None = None  # the project config's folder: declared globs are relative to it
    overrides: tuple[FileOverride, ...] = ()  # [overrides."GLOB"], in the order written
    format: str | None = None  # --format, for files named on the command line
    limits: bounds.Limits = bounds.DEFAULTS  # [limits] in the project config
    follow_links: bool = False  # --follow-links: read links that leave the linted folder

    def override_for(self, path: Path) -> FileOverride:
        """What the project config's globs say of one file, later globs over earlier ones."""
        merged = FileOverride("")
        if not self.overrides:
            return merged
        relative = _relative(path, self.base)
        for override in self.overrides:
            if fnmatch.fnmatch(relative, override.glob):
                merged = merged._replace(
                    glob=override.glob,
                    **{f: getattr(override, f) for f in ("format", "component", "client", "kafka_version", "line")
                       if getattr(override, f)},
                )  # fmt: skip
        return merged

    def for_file(self, path: Path) -> LoadOptions:
        """The options one file is read with: the command line's, else its override's."""
        override = self.override_for(path)
        return self._replace(component=self.component or override.component, client=self.client or override.client)


def _relative(path: Path, base: Path | None) -> str:
    resolved = path.resolve()
    if base is not None and resolved.is_relative_to(base):
        return resolved.relative_to(base).as_posix()
    return path.as_posix()


class Candidate(NamedTuple):
    path: Path
    text: str
    loader: Any
    payload: Any
    walked: bool = False  # found in a folder walk (not named): what is not Kafka's is passed over
    # (text, secrets.Scanned) of the texts this file brings, when its reader scanned them (a large
    # walk's worker, which holds them): the run's redaction need not scan them again
    scanned: tuple[tuple[str, Any], ...] = ()


def _undecodable(path: Path, error: UnicodeDecodeError) -> Problem:
    message = f"not UTF-8 or UTF-16 text (undecodable byte at offset {error.start})"
    return Problem(str(path), None, message, "input")


def _unreadable(path: Path, error: OSError) -> Problem:
    return Problem(str(path), None, f"cannot be read: {error.strerror or type(error).__name__}", "input")


def _refused(problem: Problem, skipped: list[Problem] | None) -> Candidate | None:
    """A file that is not read: in a folder walk, a skipped note (the run goes on); named on
    the command line, an input error (exit 2)."""
    if skipped is not None:
        skipped.append(problem._replace(message=f"skipped: {problem.message}", kind="skipped"))
        return None
    return Candidate(Path(problem.path), "", _Failed, problem)


def _bounded_text(path: Path, limit: bounds.Limits) -> str | Problem:
    """The file's text, or why it is not read: over a limit, undecodable or unreadable."""
    try:
        with open(path, "rb") as stream:  # opened once: its size from the open file, not the path again
            size = os.fstat(stream.fileno()).st_size
            if size > limit.file_bytes:
                message = f"larger than {limit.file_bytes:,} bytes ({size:,}; limits.file-bytes): not read"
                return Problem(str(path), None, message, "input")
            data = stream.read()
        text = decode(path, data)
    except UnicodeDecodeError as error:
        return _undecodable(path, error)
    except OSError as error:  # no permission, a file gone since the walk saw it
        return _unreadable(path, error)
    long = bounds.long_line(text, limit.line_chars)
    if long is not None:
        message = f"line longer than {limit.line_chars:,} characters (limits.line-chars): not read"
        return Problem(str(path), long, message, "input")
    return text


def _forced(path: Path, format_name: str, why: str, limit: bounds.Limits) -> Candidate:
    """The file read as `format_name` was said to be (--format, an override glob), whatever its
    name; content that is not of that format is an error, not a guess."""
    module_name, suffix = FORMATS[format_name]
    loader = importlib.import_module(f"advisor.sources.{module_name}")
    text = _bounded_text(path, limit)
    if isinstance(text, Problem):
        return Candidate(path, "", _Failed, text)
    # Sniffing looks at the suffix too: show the loader the one its format has.
    shown = path if suffix is None or path.suffix == suffix else Path(f"{path}{suffix}")
    try:
        payload = loader.sniff(shown, text)
    except Exception as error:  # noqa: BLE001 - reported as this file's problem
        return Candidate(path, text, _Failed, _internal(str(path), error))
    if payload is None:
        message = f"{why} says {format_name}, but this is not a {format_name} file kafka-advisor can read"
        return Candidate(path, text, _Failed, Problem(str(path), 1, message, "unsupported"))
    return Candidate(path, text, loader, payload)


def _sniff(path: Path, skipped: list[Problem] | None = None, options: LoadOptions | None = None) -> Candidate | None:
    """The loader that claims the file, with its payload; a file no loader claims goes to
    `skipped` (when given) if it looks like Kafka configuration. A format an override glob
    states is read as such."""
    if options is not None and (override := options.override_for(path)).format:
        why = f"[overrides.{override.glob!r}] in the project config"
        return _forced(path, override.format, why, options.limits)
    suffix = path.suffix
    walked = skipped is not None
    if _looked_into(path.name):  # the readers content decides for; else said if it mentions Kafka
        text = _bounded_text(path, (options or LoadOptions()).limits)
        if isinstance(text, Problem):
            return _refused(text, skipped)
        claimed = _by_content(path, text, walked)
        if claimed is None and walked and (reason := _skipped(path, text)) is not None:
            skipped.append(reason)  # type: ignore[union-attr]
        return claimed
    script = True
    if not suffix and path.name != ".env":
        try:
            with path.open("rb") as stream:  # an extensionless file counts only as a #! script
                script = stream.read(2) == b"#!"
        except OSError as error:
            return _refused(_unreadable(path, error), skipped)
    if (suffix not in SUFFIXES and path.name != ".env") or not script:
        if walked:
            return None  # a walk reads only the names above: sniffing every file would cost every file
        text = _bounded_text(path, (options or LoadOptions()).limits)  # named: whatever its name, content decides
        return _refused(text, skipped) if isinstance(text, Problem) else _by_content(path, text, walked)
    text = _bounded_text(path, (options or LoadOptions()).limits)
    if isinstance(text, Problem):
        return _refused(text, skipped)
    if suffix in _METRIC_SUFFIXES and (measured := metric_kind(text[:8192])):
        if skipped is not None:  # metrics, not configuration: said in a walk; a file named is `unknown`
            message = f"skipped: {described(measured)}, not configuration; kafka-advisor analyze reads it"
            skipped.append(Problem(str(path), None, message, "skipped"))
        return None
    claimed = _first_claim(_loaders(_CLAIMS.get(suffix, ())), path, text, walked)
    if claimed is None and skipped is not None and (reason := _skipped(path, text)) is not None:
        skipped.append(reason)
    return claimed


_METRIC_SUFFIXES = (".json",)  # the suffixes a config reader claims that metrics also come in


def _by_content(path: Path, text: str, walked: bool) -> Candidate | None:
    """The reader that content alone decides for (a Dockerfile by any name) that claims the file."""
    return _first_claim(_loaders(readers.by_content()), path, text, walked)


def _first_claim(loaders: Iterator[Any], path: Path, text: str, walked: bool) -> Candidate | None:
    """The first loader whose sniffing accepts the file, with its payload."""
    for loader in loaders:
        try:
            payload = loader.sniff(path, text)
        except Exception as error:  # noqa: BLE001 - reported when the file is loaded, the others go on
            return Candidate(path, text, _Failed, _internal(str(path), error), walked)
        if payload is not None:
            return Candidate(path, text, loader, payload, walked)
    return None


def _internal(path: str, error: Exception) -> Problem:
    """A bug met while reading one file, named by the exception's type only: its text may
    quote a value from the file, which may be a secret."""
    return Problem(path, None, f"internal error ({type(error).__name__}) while reading this file; please report it",
                   "internal")  # fmt: skip


class _Failed:
    """The loader of a file whose sniffing failed: loading it reports the failure."""

    @staticmethod
    def load(path: str, text: str, problem: Problem, options: LoadOptions) -> tuple[Any, list[Any]]:
        raise LoadError(problem.path, problem.line, problem.message, problem.kind)


# Settings only Kafka configuration holds: a file in a folder walk that has one, but that no
# loader claims, is reported as skipped (with why and what would make it read) — never silent.
_KAFKA_MARKERS = lazy_re.compile(
    r"bootstrap[._-]servers|zookeeper\.connect|kafka\.strimzi\.io|\bKAFKA_[A-Z][A-Z0-9_]*|spring\.kafka"
    # a Kafka image, a Kafka CLI tool, cp-ansible's and Terraform's Kafka names, the broker keys every file sets
    r"|[\w.-]+/(?:cp-)?kafka(?=[:@\s\"']|$)|\bkafka-(?:topics|configs|acls|reassign-partitions|server-start)\b"
    r"|\bkafka_broker(?:_custom_properties)?\b|\"kafka_(?:topic|acl|quota)\"|\baws_msk_(?:cluster|configuration)\b"
    r"|\b(?:broker\.id|min\.insync\.replicas|default\.replication\.factor|log\.retention\.(?:hours|ms|bytes))\s*[=:]"
)
# Files no reader claims that a folder walk still looks into, for a mention of Kafka to report:
# the configuration people keep in Dockerfiles, Terraform, INI-style and templated files.
_LOOKED_INTO_SUFFIXES = frozenset({".tfvars", ".hcl", ".j2", ".jinja", ".jinja2", ".tpl", ".tmpl",
                                   ".template", ".dockerfile"})  # fmt: skip
_LOOKED_INTO_NAMES = frozenset({"Dockerfile", "Containerfile", "hosts", "inventory"})


def _looked_into(name: str) -> bool:
    """A name no reader claims whose file a walk still reads, to say so if it mentions Kafka."""
    return _suffix(name).lower() in _LOOKED_INTO_SUFFIXES or name in _LOOKED_INTO_NAMES or _dockerfile_named(name)


def _dockerfile_named(name: str) -> bool:
    """Named as container builds are (the skipped message says what such a file would need)."""
    lowered = name.lower()
    return (
        lowered in ("dockerfile", "containerfile")
        or lowered.startswith("dockerfile.")
        or lowered.endswith(".dockerfile")
    )


def _suffix(name: str) -> str:
    """A file name's suffix, as Path(name).suffix says it (`a.tar.gz`: `.gz`; `.env`, `a.`: none)."""
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


def _walk(root: Path, skipped: list[Problem], options: LoadOptions) -> tuple[list[Path], Problem | None]:
    """The files under `root` a folder walk looks at, sorted: hidden entries (but `.env`)
    left out; a folder it cannot read, and a link that leaves `root`, said in `skipped`
    (--follow-links reads such links); at most limits.files of them (past it, an input error)."""
    found: list[str] = []  # plain strings while walking, Paths for what is found: pathlib is slow
    top = root.resolve()
    seen_folders = {top}
    pending = [os.fspath(root)]
    while pending:
        folder = pending.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError as error:
            reason = error.strerror or type(error).__name__
            message = f"skipped: this folder cannot be read ({reason})"
            skipped.append(Problem(str(Path(folder)), None, message, "skipped"))
            continue
        for entry in entries:
            name = entry.name
            if name.startswith(".") and name != ".env":
                continue
            if entry.is_symlink():
                path = Path(entry.path)
                try:
                    target = path.resolve()
                except (OSError, RuntimeError):  # a loop of links: nothing to read
                    continue
                if not options.follow_links and not target.is_relative_to(top):
                    message = "skipped: a link to outside the linted folder, not followed (--follow-links reads it)"
                    skipped.append(Problem(str(path), None, message, "skipped"))
                    continue
                if target.is_dir():
                    if target not in seen_folders:  # a loop of links is walked once
                        seen_folders.add(target)
                        pending.append(entry.path)
                    continue
            if entry.is_dir(follow_symlinks=False):
                pending.append(entry.path)
            elif entry.is_file() and (
                _suffix(name) in SUFFIXES
                or name == ".env"
                or _looked_into(name)
                or (options.overrides and options.override_for(Path(entry.path)).format)
            ):
                found.append(entry.path)
    paths = sorted(map(Path, found))
    if len(paths) <= options.limits.files:
        return paths, None
    message = (
        f"more than {options.limits.files:,} files to read (limits.files): the first {options.limits.files:,} read"
    )
    return paths[: options.limits.files], Problem(str(root), None, message, "input")


_TEMPLATE = lazy_re.compile(r"\{\{.*?\}\}|\{%.*?%\}|<%.*?%>")


def _passed_over(candidate: Candidate, problem: Problem) -> Problem | None:
    """A file of a folder walk that cannot be read is an error only if it is Kafka
    configuration: a template (Helm, Jinja, ERB) or a file that mentions nothing of Kafka's
    (a tsconfig.json with comments) is said and passed over, and the run does not fail."""
    if problem.kind == "internal":
        return None  # a bug stays a bug
    if _TEMPLATE.search(candidate.text):
        message = "skipped: a template ({{ … }}), not configuration yet: lint what it renders to"
        return Problem(
            problem.path, problem.line, message, "skipped", kafka=_KAFKA_MARKERS.search(candidate.text) is not None
        )
    if _KAFKA_MARKERS.search(candidate.text) is None:
        message = f"skipped: {problem.message}; nothing in it is Kafka configuration"
        return Problem(problem.path, problem.line, message, "skipped")
    return None


def _skipped(path: Path, text: str) -> Problem | None:
    """Why a file of a folder walk that no loader claimed is not read — if it looks like Kafka
    configuration at all (else it is simply not ours: package.json, a Helm template)."""
    match = _KAFKA_MARKERS.search(text)
    if match is None:
        return None
    line = text.count("\n", 0, match.start()) + 1
    if _looked_into(path.name):
        kind = path.suffix or path.name.partition(".")[0]
        content = [r.reads for r in readers.READERS if r.by_content and _dockerfile_named(path.name)]
        why = (
            f"such a file is read if it is {'; or '.join(content)}"
            if content
            else f"kafka-advisor reads no {kind} file yet"
        )
    else:
        why = readers.what_is_read(".env" if path.name == ".env" else path.suffix)
    how = 'an [overrides."GLOB"] format in the project config (or --format FORMAT for a file named) reads it as FORMAT'
    message = f"skipped: it mentions {match.group()} but no reader claims it; {why}; {how}"
    return Problem(str(path), line, message, "skipped", kafka=True)


def discover(
    paths: Iterable[Path],
    skipped: list[Problem] | None = None,
    options: LoadOptions | None = None,
    *,
    read_ahead: bool = False,
) -> tuple[list[Candidate], list[Path], list[Path]]:
    """(files to load, files named explicitly that no loader reads, missing paths); files of a
    folder walk that look like Kafka configuration but that no loader claims go to `skipped`.
    `options`: --format for the files named, the project config's override globs for all.
    `read_ahead`: a walk's files are loaded too, each as it is sniffed (by several processes for a
    large walk, sources/parallel.py), for a `load` with these same options."""
    with bounds.using((options or LoadOptions()).limits):
        return _discover(paths, skipped, options, read_ahead)


def _discover(
    paths: Iterable[Path], skipped: list[Problem] | None, options: LoadOptions | None, read_ahead: bool = False
) -> tuple[list[Candidate], list[Path], list[Path]]:
    found: list[Candidate] = []
    unknown: list[Path] = []
    missing: list[Path] = []
    for path in paths:
        if path.is_dir():
            walk_notes: list[Problem] = []
            paths_found, too_many = _walk(path, walk_notes, options or LoadOptions())
            from advisor.sources import parallel  # a folder walk's: a lint of named files never forks

            if read_ahead:  # every file sniffed and loaded at once (its YAML read once), by one of several processes
                jobs = parallel.workers(len(paths_found))
                read, notes = parallel.read_all(paths_found, lambda p, n: _read_walked(p, n, options), jobs)
                found += read
                walk_notes += notes
            else:
                found += [c for p in paths_found if (c := _sniff(p, walk_notes, options)) is not None]
            if too_many is not None:
                found.append(Candidate(path, "", _Failed, too_many))
            if skipped is not None:
                skipped.extend(walk_notes)
        elif path.is_file():
            if options is not None and options.format:
                found.append(_forced(path, options.format, "--format", options.limits))
                continue
            sniffed = _sniff(path, None, options)
            if sniffed:
                found.append(sniffed)
            else:
                unknown.append(path)
        else:
            missing.append(path)
    return found, unknown, missing


def _read_walked(path: Path, notes: list[Problem], options: LoadOptions | None) -> Candidate | None:
    """A walked file sniffed and loaded at once, as a candidate whose loading hands over the
    outcome (parallel.Loaded): what `_load` would have made of it, met in a worker."""
    candidate = _sniff(path, notes, options)
    if candidate is None:
        return None
    from advisor import secrets
    from advisor.sources import parallel

    outcome = _load_one(candidate, options or LoadOptions())
    texts = [candidate.text]
    if outcome[0] == "loaded":
        source = outcome[1][0]
        source.__dict__.pop("lines", None)  # a loader's split lines: not kept, read here or in a worker alike
        texts += [source.text, *source.includes.values(), *source.consulted.values()]
    unique = {id(text): text for text in texts}.values()
    scanned = tuple((text, secrets.scan(text)) for text in unique)
    return candidate._replace(loader=parallel.Loaded, payload=outcome, scanned=scanned)


def _load_one(candidate: Candidate, options: LoadOptions) -> tuple[str, Any]:
    """("loaded", (source, config sets)), or ("failed", the problem): a LoadError's, or an
    internal one named by the exception's type (its text may quote a secret)."""
    path, file_options = str(candidate.path), options.for_file(candidate.path)
    try:
        return "loaded", candidate.loader.load(path, candidate.text, candidate.payload, file_options)
    except LoadError as error:
        return "failed", error.problem
    except Exception as error:  # noqa: BLE001 - a bug in one loader must not cost the other files
        return "failed", _internal(path, error)


def _override_version(override: FileOverride, source: SourceFile, config_sets: list[Any]) -> None:
    """An override glob's kafka-version: over what the file implies (an image tag), under the
    file's own `# kafka-advisor: kafka-version` line."""
    if not override.kafka_version or any(d.verb == "kafka-version" for d in source.directives):
        return
    for config_set in config_sets:
        if product_of(config_set.component) != Product.KAFKA:
            continue  # a Camunda set's release is Camunda's, never a Kafka version
        config_set.kafka_version = override.kafka_version
        config_set.kafka_version_from = f"[overrides.{override.glob!r}] in the project config"


def _fold_includes(document: Document) -> None:
    """Files another file reads as part of itself (a compose file's `.env` and env_file:s) are
    not configs of their own: their config sets go, and their text stays for the findings that
    point into them."""
    included: dict[str, str] = {}
    for source in document.files:
        document.notes.extend(source.notes)
        for path, text in source.includes.items():
            if path != source.path:
                included.setdefault(path, text)
    if not included:
        return
    document.config_sets = [cs for cs in document.config_sets if cs.path not in included]
    loaded = {source.path for source in document.files}
    document.files += [SourceFile(path, text, "env") for path, text in included.items() if path not in loaded]


def load(candidates: Iterable[Candidate | Path], options: LoadOptions) -> Document:
    with bounds.using(options.limits):  # YAML's alias and depth bounds, deep in the readers
        return _load(candidates, options)


def reread(source: SourceFile, text: str, options: LoadOptions) -> tuple[SourceFile, list[Any]]:
    """Another text of a file read as the file was (its loader, its options): what a writer's
    edit would make of it. Raises LoadError (or whatever the loader meets) when it cannot be read."""
    reader = readers.BY_FORMAT.get(source.format)
    if reader is None:
        raise LoadError(source.path, 1, f"no loader reads {source.format}", "unsupported")
    suffix = next(iter(reader.names.values()))  # what a file forced to this format is sniffed as
    loader = importlib.import_module(f"advisor.sources.{reader.module}")
    path = Path(source.path)
    with bounds.using(options.limits):
        payload = loader.sniff(path, text)
        if payload is None and suffix is not None and path.suffix != suffix:  # read as forced (--format)
            payload = loader.sniff(Path(f"{path}{suffix}"), text)
        if payload is None:
            raise LoadError(source.path, 1, f"no longer a {source.format} file", "unsupported")
        return loader.load(source.path, text, payload, options.for_file(path))  # type: ignore[no-any-return]


def _load(candidates: Iterable[Candidate | Path], options: LoadOptions) -> Document:
    document = Document(options=options)
    for item in candidates:
        candidate = item if isinstance(item, Candidate) else _sniff(item)
        if candidate is None:
            message = "not a configuration format kafka-advisor reads"
            document.errors.append(Problem(str(item), 1, message, "unsupported"))
            continue
        outcome, value = _load_one(candidate, options)
        if outcome == "failed":  # an internal problem is never passed over (_passed_over)
            passed = _passed_over(candidate, value) if candidate.walked else None
            if passed is not None:
                document.notes.append(passed)
            else:
                document.errors.append(value)
            continue
        source, config_sets = value
        document.files.append(source)
        document.config_sets.extend(config_sets)
        _override_version(options.override_for(candidate.path), source, config_sets)
    _fold_includes(document)
    pins.apply(document)  # a release the Dockerfile or compose file beside a file runs
    for name in LOADERS:  # facts that span files (Strimzi node pools in files of their own)
        loader = sys.modules.get(f"advisor.sources.{name}")  # only loaders that were asked to read
        if loader is not None and hasattr(loader, "link"):
            loader.link(document)
    topology.link(document, options.clusters, options.base)  # which files are one cluster
    return document
