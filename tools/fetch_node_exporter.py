#!/usr/bin/env python3
"""Build the Prometheus node_exporter from the Go module proxy into the git-ignored cache:

    .cache/node-exporter/<version>/node_exporter

for tests that need a host's real filesystem metrics (node_filesystem_avail_bytes). The
directory is only used once it carries a `.complete` marker; once built, nothing touches the
network. Needs the `go` command (this machine's Go 1.26 builds it).

Usage: tools/fetch_node_exporter.py [--version V]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fetch_kafka import COMPLETE_MARKER, cache_root  # the same cache, the same marker

# The newest release the module proxy serves here (go list -m -versions, 2026-12-01).
DEFAULT_VERSION = "v1.12.1"
MODULE = "github.com/prometheus/node_exporter"


def node_exporter(version: str = DEFAULT_VERSION) -> Path:
    """The node_exporter binary of `version`, built on first use."""
    directory = cache_root() / "node-exporter" / version
    binary = directory / "node_exporter"
    if (directory / COMPLETE_MARKER).exists() and binary.exists():
        return binary
    if shutil.which("go") is None:
        raise SystemExit("fetch_node_exporter: the go command is not on PATH")
    print(f"fetch_node_exporter: building {MODULE}@{version} ...", file=sys.stderr)
    directory.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f"{version}.", dir=directory.parent))
    environment = {**os.environ, "GOBIN": str(staging), "CGO_ENABLED": "0", "GOFLAGS": "-mod=mod"}
    result = subprocess.run(["go", "install", f"{MODULE}@{version}"], env=environment, cwd=staging,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)  # fmt: skip
    if result.returncode != 0 or not (staging / "node_exporter").exists():
        shutil.rmtree(staging, ignore_errors=True)
        raise SystemExit(f"fetch_node_exporter: could not build {MODULE}@{version}:\n{result.stdout[-4000:]}")
    (staging / COMPLETE_MARKER).write_text("ok\n")
    if directory.exists():
        shutil.rmtree(directory)
    staging.rename(directory)
    return binary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", default=DEFAULT_VERSION)
    print(node_exporter(parser.parse_args().version))
    return 0


if __name__ == "__main__":
    sys.exit(main())
