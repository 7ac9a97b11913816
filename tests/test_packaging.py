"""The wheel is what users install: it must carry the rules and run without a checkout."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), REPO_ROOT],
        check=True,
        timeout=300,
    )
    (built,) = out.glob("kafka_advisor-*.whl")
    return built


def test_wheel_ships_every_rule_file_inside_the_package(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    rule_files = [p.relative_to(REPO_ROOT / "rules") for p in (REPO_ROOT / "rules").rglob("*") if p.is_file()]
    assert rule_files, "rules/ is empty"
    for relative in rule_files:
        assert f"advisor/rules/definitions/{relative.as_posix()}" in names
    pages = sorted(p.name for p in (REPO_ROOT / "docs" / "rules").glob("*.md"))
    assert pages and all(f"advisor/docs/rules/{page}" in names for page in pages)  # SARIF helpUri targets
    assert "advisor/catalog/data/kafka.json" in names


def test_wheel_declares_the_console_command(wheel: Path) -> None:
    archive = zipfile.ZipFile(wheel)
    (entry_points,) = [n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt")]
    assert "kafka-advisor = advisor.cli:entrypoint" in archive.read(entry_points).decode()


def test_installed_package_finds_rules_without_a_checkout(wheel: Path, tmp_path: Path) -> None:
    zipfile.ZipFile(wheel).extractall(tmp_path / "site")
    code = "import advisor, advisor.resources as r; print(advisor.__file__, r.rules_dir(), r.rule_docs_dir())"
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path / "site"), "PATH": "/usr/bin:/bin"},
        check=True,
    )
    package_file, rules, rule_docs = result.stdout.split()
    assert Path(package_file).is_relative_to(tmp_path / "site")
    assert Path(rules) == tmp_path / "site" / "advisor" / "rules" / "definitions"
    assert Path(rule_docs) == tmp_path / "site" / "advisor" / "docs" / "rules"


def _interpreters() -> dict[str, Path]:
    """Every CPython 3 on this machine (pyenv's and Debian's), one per minor version."""
    found: dict[str, Path] = {}
    pyenv = sorted(Path.home().glob(".pyenv/versions/3.*/bin/python3"))
    candidates = [*pyenv, *sorted(Path("/usr/bin").glob("python3.*"))]
    for candidate in candidates:
        if candidate.name.endswith("-config") or not os.access(candidate, os.X_OK):
            continue
        version = subprocess.run([str(candidate), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                 capture_output=True, text=True, timeout=30).stdout.strip()  # fmt: skip
        if version:
            found.setdefault(version, candidate)
    return found


INTERPRETERS = _interpreters()


def _key(version: str) -> tuple[int, ...]:
    return tuple(map(int, version.split(".")))


SUPPORTED = [v for v in sorted(INTERPRETERS, key=_key) if _key(v) >= (3, 10)]


def _fresh_venv(python: Path, folder: Path) -> Path:
    subprocess.run([str(python), "-m", "venv", str(folder)], check=True, timeout=300)
    return folder / "bin"


@pytest.mark.parametrize("version", SUPPORTED)
def test_the_wheel_installs_and_runs_on_every_supported_python(wheel: Path, tmp_path: Path, version: str) -> None:
    """A fresh venv of each CPython here, the wheel installed as a user installs it (its
    dependencies from the index, no checkout anywhere on the path): lint, rules, explain and
    catalog work, and the slim install has no Kafka client — bench says which extra it needs."""
    bin_dir = _fresh_venv(INTERPRETERS[version], tmp_path / "venv")
    install = subprocess.run([str(bin_dir / "pip"), "install", "-q", "--disable-pip-version-check", str(wheel)],
                             capture_output=True, text=True, timeout=900)  # fmt: skip
    assert install.returncode == 0, install.stdout[-2000:] + install.stderr[-2000:]
    work = tmp_path / "work"
    shutil.copytree(REPO_ROOT / "fixtures" / "demo", work)
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path)}  # nothing of the checkout

    def advisor(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(bin_dir / "kafka-advisor"), *args], capture_output=True, text=True, cwd=work,
                              env=env, timeout=300)  # fmt: skip

    linted = advisor("lint", ".", "--output-format", "json")
    assert linted.returncode == 1, linted.stderr
    import json

    report = json.loads(linted.stdout)
    from_checkout = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    checkout = subprocess.run([sys.executable, "-m", "advisor", "lint", ".", "--output-format", "json"], cwd=work,
                              capture_output=True, text=True, timeout=300, env=from_checkout)  # fmt: skip
    expected = json.loads(checkout.stdout)
    # The same verdicts as the checkout gives on the same files.
    assert [(f["path"], f["rule"], f["line"]) for f in report["findings"]] == [
        (f["path"], f["rule"], f["line"]) for f in expected["findings"]
    ]
    assert len(report["findings"]) > 10 and not report["errors"]
    rules = advisor("rules")
    assert rules.returncode == 0 and "KB101" in rules.stdout
    explained = advisor("explain", "KB101")
    assert explained.returncode == 0 and "min.insync.replicas" in explained.stdout
    looked_up = advisor("catalog", "linger.ms", "--kafka-version", "3.9")
    assert looked_up.returncode == 0 and "linger.ms" in looked_up.stdout
    benched = advisor("bench", "--bootstrap-server", "127.0.0.1:1", "--classpath", "/nonexistent")
    assert benched.returncode == 2 and "pip install 'kafka-advisor[live]'" in benched.stderr
    clients = subprocess.run([str(bin_dir / "python"), "-c", "import confluent_kafka"], capture_output=True, timeout=60)
    assert clients.returncode != 0  # slim: the client comes only with the extra
    # A one-file lint reads what the build compiled as bytecode: no JSON parser, no YAML, no
    # models, no dataclasses (with inspect), no typing at start-up.
    listed = subprocess.run([str(bin_dir / "python"), "-c", _MODULES_AFTER, "lint", "producer.properties"],
                            capture_output=True, text=True, cwd=work, env=env, timeout=60)  # fmt: skip
    loaded = set(listed.stdout.split())
    assert "advisor" in loaded and not loaded & {
        "json",
        "yaml",
        "pydantic",
        "jmespath",
        "dataclasses",
        "inspect",
        "typing",
    }
    # What the build validated and compiled is trusted: no run validated again or kept a cache
    # (a CI runner's first run is as quick as any).
    assert not (tmp_path / ".cache" / "kafka-advisor").exists()


_MODULES_AFTER = """
import sys
from advisor.cli import main
stdout, sys.stdout = sys.stdout, open("/dev/null", "w")
main(sys.argv[1:])
print(" ".join(sorted({m.split(".")[0] for m in sys.modules})), file=stdout)
"""


def test_the_declared_python_range_is_what_pip_enforces(wheel: Path, tmp_path: Path) -> None:
    """requires-python says >=3.10; an older CPython here (if any) is refused by pip itself."""
    older = [v for v in INTERPRETERS if (3, 6) <= _key(v) < (3, 10)]
    if not older:
        pytest.skip("no CPython older than 3.10 on this machine")
    version = max(older, key=_key)
    bin_dir = _fresh_venv(INTERPRETERS[version], tmp_path / "venv")
    install = subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "--no-deps", str(wheel)],
                             capture_output=True, text=True, timeout=300)  # fmt: skip
    assert install.returncode != 0 and "requires a different Python" in install.stdout + install.stderr


def test_the_kafka_client_is_an_extra(wheel: Path) -> None:
    archive = zipfile.ZipFile(wheel)
    (metadata,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
    text = archive.read(metadata).decode()
    assert "Provides-Extra: live" in text
    requires = [line for line in text.splitlines() if line.startswith("Requires-Dist:")]
    assert any("confluent-kafka" in line and "extra == 'live'" in line for line in requires)
    assert not [line for line in requires if ("confluent-kafka" in line or "kafka-python" in line)
                and "extra ==" not in line]  # fmt: skip


@pytest.fixture(scope="module")
def sdist_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist, built by hatchling as `pip install` or `python -m build` would, unpacked."""
    out = tmp_path_factory.mktemp("sdist")
    subprocess.run([sys.executable, "-m", "hatchling", "build", "-t", "sdist", "-d", str(out)], cwd=REPO_ROOT,
                   check=True, capture_output=True, timeout=300)  # fmt: skip
    (archive,) = out.glob("*.tar.gz")
    import tarfile

    with tarfile.open(archive) as tar:
        tar.extractall(out / "tree", filter="data")
    (tree,) = (out / "tree").iterdir()
    return tree


def _wheel_from(tree: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(out),
                           str(tree)], capture_output=True, text=True, timeout=600)  # fmt: skip


def test_the_sdist_builds_a_wheel_whose_rules_were_compiled_by_its_build(sdist_tree: Path, tmp_path: Path) -> None:
    """The sdist holds what a wheel needs, and the wheel's build (hatch_build.py) validated every
    rule and data file and compiled the rules: the package advisor/_built holds each of them, as
    literals equal to the checkout's data."""
    built = _wheel_from(sdist_tree, tmp_path)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    (wheel_file,) = tmp_path.glob("*.whl")
    import json

    wheel = zipfile.ZipFile(wheel_file)

    def module(name: str) -> dict[str, Any]:
        namespace: dict[str, Any] = {}
        exec(compile(wheel.read(f"advisor/_built/{name}.py"), name, "exec"), namespace)  # our build's output
        return namespace

    index = module("index")
    assert sorted(index["RULES"]) == sorted(p.name for p in (REPO_ROOT / "rules").glob("*.yaml"))
    assert set(index["TREES"]) == set(index["RULES"])
    assert index["CATALOG"] == ("kafka.json", "kafka_python.json", "librdkafka.json")
    with_predicate = [name for name, raw in index["RULES"].items() if raw.get("when")]
    assert with_predicate and all(index["TREES"][name]["type"] for name in with_predicate)
    data_files = sorted(p.name for p in (REPO_ROOT / "advisor" / "catalog" / "data").glob("*.json"))
    assert list(index["DATA_FILES"]) == data_files
    for data_file in data_files:
        checkout = json.loads((REPO_ROOT / "advisor" / "catalog" / "data" / data_file).read_bytes())
        assert module(data_file.removesuffix(".json"))["DATA"] == checkout, data_file


def test_a_rule_file_its_model_rejects_fails_the_wheel_build(sdist_tree: Path, tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(sdist_tree, tree)
    broken = tree / "rules" / "KB101.yaml"
    broken.write_text(broken.read_text().replace("severity: warning", "severity: fatal"))
    built = _wheel_from(tree, tmp_path / "out")
    assert built.returncode != 0
    assert "KB101.yaml" in built.stdout + built.stderr and "invalid rule definition" in built.stdout + built.stderr
    assert not list((tmp_path / "out").glob("*.whl"))
