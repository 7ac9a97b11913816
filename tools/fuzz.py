#!/usr/bin/env python3
"""Mutation fuzzing of kafka-advisor, in process: every reader alone and the whole lint.

    .venv/bin/python tools/fuzz.py --minutes 10 [--seed 1] [--jobs 2] [--target NAME]

Seeds are the project's own fixtures (fixtures/rules, realworld, demo), grouped by the reader
that claims them (properties, compose, spring, strimzi, helm, client dicts, shell, JVM options,
reassignment plans, ConfigMaps, .env). Each input is a seed with one to four mutations: values
swapped for what real files and attackers write (templated `${X}` and `{{ .Values.x }}`, empty,
nan, Infinity, 1e400, huge numbers, lists, maps, YAML anchors, aliases and merge keys, control
characters, BOMs, bidirectional overrides), keys swapped for catalog keys, lines deleted,
duplicated, re-indented or spliced from another seed, bytes inserted and ranges cut.

An input fails when the lint raises, reports an internal error (a bug: every input-caused
failure must be a load error naming the file), a formatter raises, or one input takes more
than --timeout seconds. Each failure is shrunk (lines, then characters, while it fails the same
way) and saved under tests/fuzz_corpus/<hash>/<the seed's file name>, which
tests/lint/test_fuzz.py replays on every run. The figures (inputs per target, failures) are
printed at the end; docs/reliability.md records the last long run.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import multiprocessing
import os
import random
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
CORPUS = REPO_ROOT / "tests" / "fuzz_corpus"

INTERESTING = [
    "", "${FETCH_MAX_BYTES}", "${REPLICAS:-3}", "$REPLICAS", "{{ .Values.kafka.replicas }}", "<%= @size %>",
    "nan", "NaN", "-nan", "Infinity", "-Infinity", ".inf", "-.inf", "1e400", "-1e400", "1e-400", "-1", "0", "-0",
    "9" * 40, "-" + "9" * 40, "0x1F", "0o17", "1_000", "1.5", ".5", "5.", "10GB", "100ms", "P1D", "1h", "2147483648",
    "true", "false", "yes", "off", "null", "~", "None", "[]", "{}", "[1, [2, [3]]]", "{a: {b: c}}", "a,b,,c", ",",
    ":", "=", "'", '"', "\\", "&anchor x", "*anchor", "<<: *anchor", "!!binary aGVsbG8=", "!!python/object:os.system",
    "SASL_SSL://user:secret@host:9092", "PLAINTEXT://:9092", "1@a:9093,2@b", "é", "\u202e", "\x1b[31m", "\x00",
    "\ufeff", "a" * 300, "broker,controller", "all", "-1s", "1e3", "01", "+5", " 5 ", "5\t",
]  # fmt: skip
INSERTIONS = [
    ":", "-", "- ", "[", "]", "{", "}", "&a ", "*a", "!", "|", ">", "'", '"', "%", "@", "`", "#", "\t", "\n", "\n---\n",
    "<<: foo\n", "? ", "\x00", "\ufeff", "\u202e", "\r", "\\", "\\\n", "=", "${", "}}", "{{", "\\u00", "\\u12zz",
]  # fmt: skip


# ---------------------------------------------------------------- seeds and targets


def seeds() -> dict[str, list[tuple[str, str]]]:
    """The fixtures by the reader that claims them: {target: [(file name, text)]}."""
    from advisor.metrics.sniff import kind as metric_kind
    from advisor.sources import _sniff

    grouped: dict[str, list[tuple[str, str]]] = {}
    for path in sorted((REPO_ROOT / "fixtures").rglob("*")):
        if not path.is_file() or path.name in ("SOURCES.md", "README.md"):
            continue
        text = path.read_text(errors="replace")
        parser = _PARSER_OF_SUFFIX.get(path.suffix)
        if parser:  # the readers alone too: cheaper inputs, deeper into their corners
            grouped.setdefault(parser, []).append((path.name, text))
        if path.parent.name == "recommend":  # load profiles: read, validated, planned and rendered
            grouped.setdefault("recommend", []).append((path.name, text))
            continue
        if path.suffix == ".prom" or metric_kind(text[:8192]):  # metrics: read, observed, judged by `analyze`
            grouped.setdefault("analyze", []).append((path.name, text))
            continue
        candidate = _sniff(path)
        if candidate is not None:
            grouped.setdefault(candidate.loader.__name__.rsplit(".", 1)[-1], []).append((path.name, text))
    return grouped


_PARSER_OF_SUFFIX = {".json": "parser:json", ".toml": "parser:toml", ".yaml": "parser:yaml", ".yml": "parser:yaml",
                     ".properties": "parser:properties", ".sh": "parser:shell-words",
                     ".prom": "parser:exposition"}  # fmt: skip


def _parse(target: str, name: str, text: str) -> None:
    """One reader alone: it may refuse the input (LoadError, or ValueError from the shell
    splitter, as shlex does), nothing else."""
    from advisor.model.document import LoadError
    from advisor.sources import properties_syntax, shell, shell_words, structured

    try:
        if target == "parser:json":
            structured.read_json(text, name)
        elif target == "parser:toml":
            structured.read_toml(text, name)
        elif target == "parser:yaml":
            structured.read_yaml(text, name)
        elif target == "parser:properties":
            properties_syntax.parse(text, name)
        elif target == "parser:exposition":
            from advisor.metrics import exposition

            for _ in exposition.parse(text.splitlines(keepends=True), name):
                pass
        else:
            for _, _, line in shell._logical_lines(text):
                with contextlib.suppress(ValueError):  # an open quote: refused, as shlex refuses it
                    shell_words.split(line)
    except LoadError:
        pass


# ---------------------------------------------------------------- mutations


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True) or [""]


def _value_swap(rnd: random.Random, text: str, _others: list[str]) -> str:
    lines = _lines(text)
    index = rnd.randrange(len(lines))
    line = lines[index]
    for separator in ("=", ": ", ":"):
        if separator in line:
            head = line.split(separator, 1)[0]
            ending = "\n" if line.endswith("\n") else ""
            lines[index] = f"{head}{separator}{rnd.choice(INTERESTING)}{ending}"
            break
    return "".join(lines)


def _key_swap(rnd: random.Random, text: str, _others: list[str]) -> str:
    from advisor.catalog import store

    components = store.kafka().components
    component = rnd.choice(sorted(components))
    key = rnd.choice(sorted(components[component]))
    styles = [key, "KAFKA_" + key.upper().replace(".", "_"), "KAFKA_CFG_" + key.upper().replace(".", "_"),
              key.replace(".", "_"), key.replace(".", "-")]  # fmt: skip
    lines = _lines(text)
    index = rnd.randrange(len(lines))
    line = lines[index]
    for separator in ("=", ":"):
        if separator in line:
            head, tail = line.split(separator, 1)
            indent = head[: len(head) - len(head.lstrip())]
            lines[index] = f"{indent}{rnd.choice(styles)}{separator}{tail}"
            break
    return "".join(lines)


def _line_delete(rnd: random.Random, text: str, _others: list[str]) -> str:
    lines = _lines(text)
    start = rnd.randrange(len(lines))
    del lines[start : start + rnd.choice((1, 1, 2, 5))]
    return "".join(lines)


def _line_duplicate(rnd: random.Random, text: str, _others: list[str]) -> str:
    lines = _lines(text)
    index = rnd.randrange(len(lines))
    lines[index:index] = [lines[index]] * rnd.choice((1, 2, 50))
    return "".join(lines)


def _indent(rnd: random.Random, text: str, _others: list[str]) -> str:
    lines = _lines(text)
    index = rnd.randrange(len(lines))
    line = lines[index]
    lines[index] = (" " * rnd.choice((1, 2, 4))) + line if rnd.random() < 0.5 else line.lstrip(" ")
    return "".join(lines)


def _splice(rnd: random.Random, text: str, others: list[str]) -> str:
    other = _lines(rnd.choice(others))
    lines = _lines(text)
    start = rnd.randrange(len(other))
    piece = other[start : start + rnd.randint(1, 8)]
    at = rnd.randrange(len(lines) + 1)
    return "".join(lines[:at] + piece + lines[at:])


def _insert(rnd: random.Random, text: str, _others: list[str]) -> str:
    at = rnd.randrange(len(text) + 1)
    return text[:at] + rnd.choice(INSERTIONS + INTERESTING) + text[at:]


def _cut(rnd: random.Random, text: str, _others: list[str]) -> str:
    if not text:
        return text
    start = rnd.randrange(len(text))
    return text[:start] + text[start + rnd.randint(1, 40) :]


def _truncate(rnd: random.Random, text: str, _others: list[str]) -> str:
    return text[: rnd.randrange(len(text) + 1)]


MUTATIONS: list[Callable[[random.Random, str, list[str]], str]] = [
    _value_swap, _value_swap, _value_swap, _key_swap, _key_swap, _line_delete, _line_duplicate, _indent,
    _splice, _insert, _insert, _cut, _truncate,
]  # fmt: skip


def mutate(rnd: random.Random, text: str, others: list[str]) -> str:
    for _ in range(rnd.choice((1, 1, 2, 3, 4))):
        text = rnd.choice(MUTATIONS)(rnd, text, others)
    return text


# ---------------------------------------------------------------- one input through the lint


class Timeout(Exception):
    pass


def _on_alarm(_signum: int, _frame: object) -> None:
    raise Timeout


def _where(error: BaseException) -> str:
    """A failure's signature: its type and the innermost frame in our own code."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "/advisor/" in f.filename]
    frame = frames[-1] if frames else traceback.extract_tb(error.__traceback__)[-1]
    place = f"{Path(frame.filename).parent.name}/{Path(frame.filename).name}:{frame.lineno}"
    return f"{type(error).__name__} at {place}"


class Harness:
    """Runs one input through discover → load → rules → report → every formatter and the
    safe-fix diff; returns None or a failure signature. Internal errors the pipeline catches
    (it must, so that the other files are still judged) are recorded with their traceback."""

    def __init__(self, folder: Path, timeout: float) -> None:
        import advisor.fix as fix
        import advisor.rules.runner as runner
        import advisor.sources as sources

        self.folder = folder
        self.timeout = timeout
        self.every_format = False  # else every 8th input: rendering all five is half an input's cost
        self.calls = 0
        self.caught: list[BaseException] = []
        internal, failed = sources._internal, runner._Run.failed
        caught = self.caught

        def recording_internal(path: str, error: Exception):  # type: ignore[no-untyped-def]
            caught.append(error)
            return internal(path, error)

        def recording_failed(self_, config_set, error):  # type: ignore[no-untyped-def]
            caught.append(error)
            return failed(self_, config_set, error)

        def recording_writer(change, error):  # type: ignore[no-untyped-def]
            caught.append(error)

        sources._internal = recording_internal  # type: ignore[assignment]
        runner._Run.failed = recording_failed  # type: ignore[method-assign]
        fix.writer_failed = recording_writer  # type: ignore[assignment]
        signal.signal(signal.SIGALRM, _on_alarm)

    def __call__(self, name: str, text: str, target: str = "") -> str | None:
        from advisor.output import FORMATS, render
        from advisor.report.session import RunRequest, run_with_document

        if target.startswith("parser:"):
            return self._alone(target, lambda: _parse(target, name, text))
        path = self.folder / name
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        if target == "recommend":
            return self._alone(target, lambda: _recommend(path))
        self.caught.clear()
        signal.setitimer(signal.ITIMER_REAL, self.timeout)
        try:
            if target == "analyze" or name.endswith(".prom"):
                from advisor.report.session import run as analyze

                report = analyze(RunRequest(paths=(), metric_files=(path,)))
            else:  # every fix of every applicability planned: each writer meets the mutated file
                every = ("safe", "unsafe", "display-only")
                report, document = run_with_document(RunRequest(paths=(path,), fixes=every))
                if self.calls % 4 == 0:
                    _recommend_against(document)
            self.calls += 1
            for fmt in FORMATS if self.every_format or self.calls % 8 == 0 else ("json",):
                render(report, fmt)
        except Timeout:
            return f"slower than {self.timeout:g} s"
        except BaseException as error:
            if isinstance(error, KeyboardInterrupt):
                raise
            return _where(error)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        if self.caught:
            return "internal: " + _where(self.caught[0])
        if any(problem.kind == "internal" for problem in report.problems):
            return "internal error without a traceback"
        return None

    def _alone(self, target: str, work: Callable[[], None]) -> str | None:
        """One reader or command alone, under the timeout: any escape is a failure to record."""
        signal.setitimer(signal.ITIMER_REAL, self.timeout)
        try:
            work()
        except Timeout:
            return f"slower than {self.timeout:g} s"
        except Exception as error:  # noqa: BLE001 - every escape is a failure to record
            return f"{target}: {_where(error)}"
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        return None


def _recommend(path: Path) -> None:
    """A load profile file: refused with a ProfileError or a ValidationError, or planned for every
    client and rendered (text and JSON) — nothing else."""
    from pydantic import ValidationError

    from advisor.output import render
    from advisor.recommend import load_file
    from advisor.recommend.plan import plan
    from advisor.recommend.profile import LoadProfile

    try:
        fields = load_file.read(str(path))
        for client in ("java", "librdkafka", "kafka-python"):
            result = plan(LoadProfile.model_validate(fields), client)
            render(result, "text")
            render(result, "json")
    except (load_file.ProfileError, ValidationError):
        pass


def _recommend_against(document) -> None:  # type: ignore[no-untyped-def]
    """A profile's recommendations against the mutated file, planned into edits and shown as a diff."""
    from advisor import fix
    from advisor.catalog import UnknownVersionError
    from advisor.recommend.against import compare
    from advisor.recommend.plan import plan
    from advisor.recommend.profile import LoadProfile

    for goal in ("throughput", "durability"):
        try:
            against = compare(plan(LoadProfile(goal=goal)).recommendations, document, None)
        except UnknownVersionError:
            continue  # a release no catalog knows: the CLI says so (exit 2)
        changes = [a.change for a in against if a.change is not None]
        fix.unified_diff(fix.plan_changes(changes, document, ("unsafe", "safe"), join_inserts=True), document)


# ---------------------------------------------------------------- shrinking and saving


def shrink(harness: Harness, name: str, text: str, signature: str, target: str = "", budget: int = 400) -> str:
    """The smallest text (by lines, then characters) that still fails with `signature`."""
    tries = 0
    harness.every_format = True

    def fails(candidate: str) -> bool:
        nonlocal tries
        tries += 1
        return harness(name, candidate, target) == signature

    lines = _lines(text)
    chunk = max(len(lines) // 2, 1)
    while chunk >= 1 and tries < budget:
        index, removed = 0, False
        while index < len(lines) and tries < budget:
            candidate = lines[:index] + lines[index + chunk :]
            if candidate and fails("".join(candidate)):
                lines, removed = candidate, True
            else:
                index += chunk
        if not removed:
            chunk //= 2
    text = "".join(lines)
    index = 0
    while index < len(text) and tries < budget:
        candidate = text[:index] + text[index + 1 :]
        if fails(candidate):
            text = candidate
        else:
            index += 1
    return text


def save(name: str, text: str, target: str = "") -> Path:
    """A reproducer in a folder of its own (the file name decides the reader); a reader-alone
    failure's folder is named for that reader."""
    digest = hashlib.sha256(f"{name}\0{text}".encode(errors="surrogatepass")).hexdigest()[:12]
    named = target.startswith("parser:") or target == "analyze"  # replayed where it was found
    folder = CORPUS / (f"{target.replace(':', '-')}-{digest}" if named else digest)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


# ---------------------------------------------------------------- the loop


def inputs(
    rnd: random.Random, grouped: dict[str, list[tuple[str, str]]], only: str | None
) -> Iterator[tuple[str, str, str]]:
    if only == "lint":  # every loader through the whole lint, no reader alone
        targets = sorted(t for t in grouped if not t.startswith("parser:"))
    else:
        targets = sorted(t for t in grouped if not only or only in t)
    if not targets:
        raise SystemExit(f"no target matches {only!r}; targets: {', '.join(sorted(grouped))}")
    while True:
        target = rnd.choice(targets)
        name, text = rnd.choice(grouped[target])
        others = [t for _, t in grouped[target]]
        yield target, name, mutate(rnd, text, others)


def fuzz(seconds: float, seed: int, only: str | None, timeout: float, limit: int | None = None,
         save_failures: bool = True) -> tuple[Counter[str], dict[str, tuple[str, str]]]:  # fmt: skip
    """Fuzz for `seconds` (or `limit` inputs); (inputs per target, {signature: (name, text)})."""
    grouped = seeds()
    rnd = random.Random(seed)
    counts: Counter[str] = Counter()
    failures: dict[str, tuple[str, str]] = {}
    deadline = time.monotonic() + seconds
    with tempfile.TemporaryDirectory(dir="/dev/shm" if os.path.isdir("/dev/shm") else None) as tmp:
        harness = Harness(Path(tmp), timeout)
        for target, name, text in inputs(rnd, grouped, only):
            if time.monotonic() > deadline or (limit is not None and sum(counts.values()) >= limit):
                break
            counts[target] += 1
            signature = harness(name, text, target)
            if signature is None or signature in failures:
                continue
            small = shrink(harness, name, text, signature, target)
            harness.every_format = False
            failures[signature] = (name, small)
            if save_failures:
                saved = save(name, small, target).relative_to(REPO_ROOT)
                print(f"FAILURE {signature}  ({target}) saved as {saved}", flush=True)
    return counts, failures


def _worker(arguments: tuple[float, int, str | None, float]) -> tuple[Counter[str], dict[str, tuple[str, str]]]:
    import resource

    gigabytes = 4
    resource.setrlimit(resource.RLIMIT_AS, (gigabytes << 30, gigabytes << 30))  # a blow-up is a MemoryError here
    return fuzz(*arguments)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--target", help="targets whose name contains this; 'lint': every loader, no reader alone")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds one input may take")
    args = parser.parse_args()
    started = time.monotonic()
    jobs = [(args.minutes * 60, args.seed + job, args.target, args.timeout) for job in range(args.jobs)]
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        results = pool.map(_worker, jobs)
    counts: Counter[str] = Counter()
    failures: dict[str, tuple[str, str]] = {}
    for job_counts, job_failures in results:
        counts.update(job_counts)
        failures.update(job_failures)
    elapsed = time.monotonic() - started
    total = sum(counts.values())
    print(f"{total:,} inputs in {elapsed / 60:.1f} min ({total / elapsed:,.0f}/s, {args.jobs} jobs, seed {args.seed})")
    for target, count in sorted(counts.items()):
        print(f"  {target:20} {count:>10,}")
    print(f"failures: {len(failures)}")
    for signature in sorted(failures):
        print(f"  {signature}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
