#!/usr/bin/env python3
"""Fetch real browsers for the HTML report's tests: Debian's `chromium` and `firefox-esr`
packages and the libraries each needs that this machine lacks, downloaded with `apt-get download`
and unpacked with `dpkg -x` into the git-ignored cache (`.cache/<package>/<version>/`) — nothing
installed. A browser already installed (`chromium`, `firefox-esr` on the PATH) is used as it is.

The packages are the closure of the browser's first-choice Depends and Pre-Depends that dpkg does
not list as installed: a headless browser draws no window, but the loader wants every library the
binary links. A directory is used only once it carries a `.complete` marker.

Usage: tools/fetch_browsers.py [chromium|firefox-esr]   (prints the command that runs it)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fetch_kafka  # sibling developer script: the cache's root and its marker


def _installed(package: str) -> bool:
    result = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
    return "install ok installed" in result.stdout


def _depends(package: str) -> list[str]:
    """The first choice of each Depends and Pre-Depends of a package (not a virtual one)."""
    flags = ["--no-recommends", "--no-suggests", "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances"]
    text = subprocess.run(["apt-cache", "depends", *flags, package], capture_output=True, text=True).stdout
    found, alternative = [], False
    for line in text.splitlines()[1:]:
        field = line.strip()
        if field.lstrip("|").startswith(("Depends:", "PreDepends:")):
            name = field.split(":", 1)[1].strip()
            if not alternative and not name.startswith("<"):
                found.append(name)
            alternative = field.startswith("|")
    return found


def missing_closure(root: str) -> list[str]:
    todo, seen, needed = [root], set(), []
    while todo:
        package = todo.pop()
        if package in seen:
            continue
        seen.add(package)
        if _installed(package):
            continue
        needed.append(package)
        todo += _depends(package)
    return sorted(needed)


def library_dirs(root: Path) -> list[Path]:
    base = root / "usr" / "lib" / "x86_64-linux-gnu"
    return [base, base / "pulseaudio"]


BINARIES = {"chromium": ("usr", "lib", "chromium", "chromium"),
            "firefox-esr": ("usr", "lib", "firefox-esr", "firefox-esr")}  # fmt: skip


def browser(package: str) -> tuple[Path, dict[str, str]]:
    """The browser's binary and the environment it runs with."""
    found = shutil.which(package)
    if found:
        return Path(found), {}
    cache = fetch_kafka.cache_root() / package
    done = sorted(p for p in cache.glob("*") if (p / fetch_kafka.COMPLETE_MARKER).exists()) if cache.exists() else []
    if not done:
        done = [_fetch(cache, package)]
    root = done[-1]
    env = {"LD_LIBRARY_PATH": os.pathsep.join(str(d) for d in library_dirs(root))}
    return root.joinpath(*BINARIES[package]), env


def chromium() -> tuple[Path, dict[str, str]]:
    return browser("chromium")


def firefox() -> tuple[Path, dict[str, str]]:
    return browser("firefox-esr")


def _fetch(cache: Path, package: str) -> Path:
    packages = missing_closure(package)
    print(f"fetch_browsers: downloading {package} and {len(packages) - 1} Debian packages ...", file=sys.stderr)
    with tempfile.TemporaryDirectory() as scratch:
        result = subprocess.run(["apt-get", "download", *packages], cwd=scratch, capture_output=True, text=True)
        debs = sorted(Path(scratch).glob("*.deb"))
        if result.returncode != 0 or not debs:
            raise SystemExit(f"fetch_browsers: apt-get download failed:\n{result.stderr[-2000:]}")
        version = next(d.name.split("_")[1] for d in debs if d.name.startswith(f"{package}_"))
        staging = Path(scratch) / "unpacked"
        for deb in debs:
            subprocess.run(["dpkg", "-x", str(deb), str(staging)], check=True)
        (staging / fetch_kafka.COMPLETE_MARKER).write_text("ok\n")
        target = cache / version.replace("~", "-")
        cache.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(target, ignore_errors=True)
        shutil.move(str(staging), target)
    return target


if __name__ == "__main__":
    binary, environment = browser(sys.argv[1] if len(sys.argv) > 1 else "chromium")
    print(" ".join([*(f"{k}={v}" for k, v in environment.items()), str(binary)]))
