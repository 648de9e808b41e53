"""Headless Chromium driven over the Chrome DevTools Protocol through a pipe.

Chromium started with ``--remote-debugging-pipe`` reads protocol commands from file
descriptor 3 and writes answers and events to descriptor 4, each message JSON ended by a NUL
byte. That needs no driver binary to keep in step with the browser (chromedriver), no client
package (selenium, playwright), no websocket and no port: only Debian's ``chromium``. Clicks and
keystrokes are real input events (``Input.dispatchMouseEvent``, ``Input.insertText``), the same
ones chromedriver sends.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

# the flags Chromium needs on a machine with no network but loopback and no display, run as
# root (no sandbox), without first-run, sync, component updates or background requests
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
)


def chromium_path() -> str | None:
    return os.environ.get("ASTRAG_CHROMIUM") or shutil.which("chromium")


class BrowserError(AssertionError):
    pass


class Browser:
    """One Chromium process; :meth:`tab` opens a page in it."""

    def __init__(self, executable: str, *, width: int = 1280, height: int = 900) -> None:
        self.profile = tempfile.mkdtemp(prefix="astrag-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def fds() -> None:  # in the child: the two pipe ends on 3 and 4, via free numbers
            high_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
            high_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.proc = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self.profile}",
             f"--window-size={width},{height}", "about:blank"],
            pass_fds=(3, 4),  # kept open in the child: what fds() put there (it runs first)
            preexec_fn=fds,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._next = 0
        self._answers: dict[int, dict[str, Any]] = {}
        self._events: list[dict[str, Any]] = []
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = os.read(self._from_browser, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                with self._cond:
                    self._answers[-1] = {"error": {"message": "browser closed the pipe"}}
                    self._cond.notify_all()
                return
            buffer += chunk
            while b"\0" in buffer:
                raw, _, buffer = buffer.partition(b"\0")
                message = json.loads(raw)
                with self._cond:
                    if "id" in message:
                        self._answers[message["id"]] = message
                    else:
                        self._events.append(message)
                    self._cond.notify_all()

    def call(
        self, method: str, params: dict | None = None, *, session: str | None = None,
        timeout: float = 30.0,
    ) -> dict[str, Any]:  # fmt: skip
        with self._cond:
            self._next += 1
            ident = self._next
        message: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        with self._cond:
            while ident not in self._answers:
                if -1 in self._answers:
                    raise BrowserError(f"{method}: the browser exited")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BrowserError(f"{method}: no answer in {timeout} s")
                self._cond.wait(left)
            answer = self._answers.pop(ident)
        if "error" in answer:
            raise BrowserError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    def tab(self) -> Tab:
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})
        tab = Tab(self, session["sessionId"], target)
        tab.send("Page.enable")
        tab.send("Runtime.enable")
        return tab

    def close(self) -> None:
        with contextlib.suppress(BrowserError):
            self.call("Browser.close", timeout=5)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_browser, self._from_browser):
            with contextlib.suppress(OSError):
                os.close(fd)
        shutil.rmtree(self.profile, ignore_errors=True)


class Tab:
    """One page: navigate, evaluate, wait, click, type, screenshot."""

    def __init__(self, browser: Browser, session: str, target: str) -> None:
        self.browser = browser
        self.session = session
        self.target = target

    def close(self) -> None:
        self.browser.call("Target.closeTarget", {"targetId": self.target})

    def send(self, method: str, params: dict | None = None) -> dict[str, Any]:
        return self.browser.call(method, params, session=self.session)

    def eval(self, expression: str) -> Any:
        result = self.send(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
        )
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 15.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.eval(expression)
            except BrowserError:
                value = None  # a navigation destroyed the context: ask again
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError(f"timed out waiting for {expression}")
            time.sleep(0.05)

    def goto(self, url: str) -> None:
        """Open ``url`` and wait until the page it leads to (after any redirect) has loaded."""
        self.eval("window.__astragLeft = true")  # gone once a new document replaced this one
        self.send("Page.navigate", {"url": url})
        self.wait_for("window.__astragLeft === undefined && document.readyState === 'complete'")

    def center_of(self, selector: str) -> tuple[float, float]:
        box = self.wait_for(
            f"(() => {{ const el = document.querySelector({json.dumps(selector)});"
            " if (!el) return null; el.scrollIntoView({block: 'center'});"
            " const r = el.getBoundingClientRect();"
            " return r.width > 0 ? [r.left + r.width / 2, r.top + r.height / 2] : null; })()"
        )
        return float(box[0]), float(box[1])

    def click(self, selector: str) -> None:
        """A real left click in the middle of the element."""
        x, y = self.center_of(selector)
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        for kind in ("mousePressed", "mouseReleased"):
            self.send(
                "Input.dispatchMouseEvent",
                {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1},
            )

    def type(self, selector: str, text: str) -> None:
        """Focus the field and type ``text`` one character at a time, as a person would."""
        self.click(selector)
        for ch in text:
            self.send("Input.insertText", {"text": ch})
            time.sleep(0.03)

    def screenshot(self, path: Path) -> Path:
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
        return path
