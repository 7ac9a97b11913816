#!/usr/bin/env python3
"""Open an HTML file in real headless Chromium (tools/fetch_browsers.py) over the DevTools
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
import fetch_browsers  # sibling developer script


class Browser:
    """One headless Chromium, spoken to over fds 3 (commands) and 4 (answers and events)."""

    def __init__(self, width: int = 1200, height: int = 900) -> None:
        binary, env = fetch_browsers.chromium()
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


def png_colours(png: bytes) -> set[tuple[int, int, int]]:
    """Every colour of an 8-bit RGB or RGBA PNG (its scanlines unfiltered: None, Sub, Up, Average,
    Paeth), to tell whether a chart's lines were drawn in their colours."""
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    depth, kind = png[24], png[25]
    if depth != 8 or kind not in (2, 6):
        raise ValueError(f"an 8-bit RGB(A) PNG is expected, not depth {depth} colour type {kind}")
    step = 3 if kind == 2 else 4
    raw, stride = _png_pixels(png), width * step
    previous, found, at = bytearray(stride), set(), 0
    for _ in range(height):
        method, line = raw[at], bytearray(raw[at + 1 : at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up, corner = previous[i], previous[i - step] if i >= step else 0
            if method == 1:
                line[i] = (line[i] + left) & 0xFF
            elif method == 2:
                line[i] = (line[i] + up) & 0xFF
            elif method == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif method == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        found |= {(line[i], line[i + 1], line[i + 2]) for i in range(0, stride, step)}
        previous = line
    return found


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


def firefox_screenshot(report: Path, screenshot: Path) -> dict[str, Any]:
    """The report drawn by real headless Firefox (`--screenshot`, a fresh profile, the top of the
    page): whether it exited cleanly, how varied its picture is (a blank page has a handful of
    values) and how many of its colours are saturated (a chart's lines, not text or rules)."""
    binary, env = fetch_browsers.firefox()
    with tempfile.TemporaryDirectory() as home:
        result = subprocess.run([str(binary), "--headless", "--no-remote", "--profile", home, "--screenshot",
                                 str(screenshot), "--window-size=1200,900", report.resolve().as_uri()],
                                env={**os.environ, **env, "HOME": home}, capture_output=True, text=True,
                                timeout=120)  # fmt: skip
    shot = screenshot.read_bytes() if screenshot.exists() else b""
    colours = png_colours(shot) if shot else set()
    return {"returncode": result.returncode, "stderr": result.stderr[-2000:],
            "screenshot_values": len(set(_png_pixels(shot)[:2_000_000])) if shot else 0,
            "saturated": sum(1 for c in colours if max(c) - min(c) > 60)}  # fmt: skip


if __name__ == "__main__":
    found = check(Path(sys.argv[1]), screenshot=Path(sys.argv[2]) if len(sys.argv) > 2 else None)
    print(json.dumps(found, indent=1, default=str))
