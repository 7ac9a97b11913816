#!/usr/bin/env python3
"""Fetch a real Prometheus server for the tests: Debian's `prometheus` package, unpacked (not
installed) into the git-ignored cache, `.cache/prometheus/<package version>/usr/bin/prometheus`.

`apt-get download` needs no root and `dpkg -x` installs nothing; the binary is Go, linked
against libc alone. A directory is used only once it carries a `.complete` marker.

Usage: tools/fetch_prometheus.py    (prints the binary's path)
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fetch_kafka  # sibling developer script: the cache's root and its marker


def prometheus_binary() -> Path:
    root = fetch_kafka.cache_root() / "prometheus"
    done = sorted(p for p in root.glob("*") if (p / fetch_kafka.COMPLETE_MARKER).exists()) if root.exists() else []
    if done:
        return done[-1] / "usr" / "bin" / "prometheus"
    with tempfile.TemporaryDirectory() as scratch:
        print("fetch_prometheus: downloading Debian's prometheus package ...", file=sys.stderr)
        result = subprocess.run(["apt-get", "download", "prometheus"], cwd=scratch, capture_output=True, text=True)
        packages = sorted(Path(scratch).glob("prometheus_*.deb"))
        if result.returncode != 0 or not packages:
            raise SystemExit(f"fetch_prometheus: apt-get download prometheus failed:\n{result.stderr[-2000:]}")
        version = packages[0].name.split("_")[1]
        staging = Path(scratch) / "unpacked"
        subprocess.run(["dpkg", "-x", str(packages[0]), str(staging)], check=True)
        (staging / fetch_kafka.COMPLETE_MARKER).write_text("ok\n")
        target = root / version
        root.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(target, ignore_errors=True)
        shutil.move(str(staging), target)
    return target / "usr" / "bin" / "prometheus"


if __name__ == "__main__":
    print(prometheus_binary())
