"""A real Prometheus (Debian's package, tools/fetch_prometheus.py) run for a test: its folder's
prometheus.yml, its data there, on a free local port, stopped afterwards."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import fetch_prometheus  # tools/, on the path through tests/conftest.py


@contextmanager
def running(folder: Path, ready: Callable[[str], bool], *flags: str) -> Iterator[str]:
    """Prometheus over `folder`/prometheus.yml and `folder`/data; its address once `ready` says so."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = (folder / "prometheus.log").open("w")
    process = subprocess.Popen(
        [str(fetch_prometheus.prometheus_binary()), f"--config.file={folder / 'prometheus.yml'}",
         f"--storage.tsdb.path={folder / 'data'}", f"--web.listen-address=127.0.0.1:{port}", "--log.level=warn",
         *flags],
        stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while not ready(url):
            assert time.monotonic() < deadline, (folder / "prometheus.log").read_text()
            time.sleep(0.5)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()
