#!/usr/bin/env python3
"""Open an HTML file in real headless Chromium (tools/fetch_chromium.py) over the DevTools
protocol on a pipe (`--remote-debugging-pipe`: no port, no websocket library), with no network —
every host unresolvable, a proxy that leads nowhere — and with JavaScript on or off. Collects
what a reviewer of the page would see go wrong: console errors, exceptions, requests that left
the page or failed; counts the charts and whether each draws; takes a screenshot and a PDF.

Used by tests/advise/test_html_report.py and to make the README's screenshot:
Usage: tools/browser_check.py REPORT.html SCREENSHOT.png
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fetch_chromium  # sibling developer script


class Browser:
    """One headless Chromium, spoken to over fds 3 (commands) and 4 (answers and events)."""

    def __init__(self, width: int = 1200, height: int = 900) -> None:
        binary, env = fetch_chromium.chromium()
        self.profile = tempfile.TemporaryDirectory()
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def fds() -> None:  # the child's fd 3 reads our commands, its fd 4 writes to us
            # Copied above 10 first: either end may itself be fd 3 or 4.
            reads, writes = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
            os.dup2(reads, 3)
            os.dup2(writes, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--no-first-run",
                 f"--user-data-dir={self.profile.name}", "--disable-extensions", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--host-resolver-rules=MAP * ~NOTFOUND",
                 "--proxy-server=127.0.0.1:9", "--hide-scrollbars", f"--window-size={width},{height}"]  # fmt: skip
        self.process = subprocess.Popen([str(binary), *flags, "about:blank"], env={**os.environ, **env},
                                        pass_fds=(3, 4), preexec_fn=fds,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []

    def close(self) -> None:
        with contextlib.suppress(OSError, TimeoutError):
            self.call("Browser.close", timeout=10)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        os.close(self._to_browser)
        os.close(self._from_browser)
        self.profile.cleanup()

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("Chromium did not answer")
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise OSError("Chromium closed its pipe")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def call(self, method: str, params: dict[str, Any] | None = None, session: str | None = None,
             timeout: float = 60) -> dict[str, Any]:  # fmt: skip
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            answer = self._read(deadline)
            if answer.get("id") == self._next:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)

    def wait_for(self, method: str, timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        for event in self.events:
            if event.get("method") == method:
                return event
        while True:
            event = self._read(deadline)
            self.events.append(event)
            if event.get("method") == method:
                return event


def _png_pixels(png: bytes) -> bytes:
    """The decompressed scanlines of a PNG (enough to tell a blank page from a drawn one)."""
    at, data = 8, b""
    while at < len(png):
        length = int.from_bytes(png[at : at + 4], "big")
        kind = png[at + 4 : at + 8]
        if kind == b"IDAT":
            data += png[at + 8 : at + 8 + length]
        at += 12 + length
    return zlib.decompress(data)


def check(report: Path, javascript: bool = True, screenshot: Path | None = None, fragment: str = "") -> dict[str, Any]:
    """Open the report (scrolled to `#fragment`); what went wrong, what the charts drew, a
    screenshot's variety, a PDF's size."""
    browser = Browser()
    try:
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.call(f"{domain}.enable", session=session)
        if not javascript:
            browser.call("Emulation.setScriptExecutionDisabled", {"value": True}, session=session)
        address = report.resolve().as_uri() + (f"#{fragment}" if fragment else "")
        browser.call("Page.navigate", {"url": address}, session=session)
        browser.wait_for("Page.loadEventFired")
        document = browser.call("DOM.getDocument", {"depth": 0}, session=session)["root"]["nodeId"]

        def count(selector: str) -> int:
            found = browser.call("DOM.querySelectorAll", {"nodeId": document, "selector": selector}, session=session)
            return len(found["nodeIds"])

        charts = count("figure.chart svg")
        scripts = count("script")
        drawn = count("figure.chart svg path.line")
        shot = base64.b64decode(browser.call("Page.captureScreenshot", {"format": "png"}, session=session)["data"])
        if screenshot is not None:
            screenshot.write_bytes(shot)
        pdf = base64.b64decode(browser.call("Page.printToPDF", {"printBackground": False}, session=session)["data"])
        time.sleep(0.2)  # late events (a failed request after load) are read by the calls above
        events = browser.events
        errors = [e["params"] for e in events if e.get("method") == "Runtime.exceptionThrown"]
        errors += [e["params"] for e in events if e.get("method") == "Runtime.consoleAPICalled"
                   and e["params"].get("type") in ("error", "assert")]  # fmt: skip
        errors += [e["params"]["entry"] for e in events if e.get("method") == "Log.entryAdded"
                   and e["params"]["entry"].get("level") == "error"]  # fmt: skip
        requests = [e["params"]["request"]["url"] for e in events if e.get("method") == "Network.requestWillBeSent"]
        failed = [e["params"] for e in events if e.get("method") == "Network.loadingFailed"]
        pixels = _png_pixels(shot)
        return {"scripts": scripts, "errors": errors, "requests": requests, "failed": failed, "charts": charts,
                "drawn": drawn,
                "screenshot_bytes": len(shot), "screenshot_values": len(set(pixels[:2_000_000])),
                "pdf_bytes": len(pdf), "pdf_pages": pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")}  # fmt: skip
    finally:
        browser.close()


if __name__ == "__main__":
    found = check(Path(sys.argv[1]), screenshot=Path(sys.argv[2]) if len(sys.argv) > 2 else None)
    print(json.dumps(found, indent=1, default=str))
