"""The shop repository indexed once per module, a real ``astrag web`` process serving it, and
one headless Chromium for the browser tests.

Chromium comes from the system (Debian's ``chromium``; ``.ci/run`` installs it). Without it the
browser tests are skipped on a developer's machine and fail under CI, where a skip would hide
that the web view went untested.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from astrag import api
from tests.web.browser import Browser, chromium_path
from tests.web.fixture import write_shop

URL_LINE = re.compile(r"astrag web: serving .* on (http://\S+)")


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write_shop(tmp_path_factory.mktemp("web") / "shop")
    api.index(root, jobs=1)
    return root


class WebServer:
    """``astrag web`` in a subprocess, once it printed the address it serves."""

    def __init__(self, repo: Path, *args: str, log: Path) -> None:
        self.repo = repo
        self.log = log
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        command = [sys.executable, "-m", "astrag.cli", "web", "--repo", str(repo)]
        with log.open("w") as out:
            self.proc = subprocess.Popen(
                [*command, "--port", "0", *args],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
            )
        self.url = self._wait_for_address()
        self.base = self.url.split("?", 1)[0].rstrip("/")

    def _wait_for_address(self) -> str:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            found = URL_LINE.search(self.log.read_text())
            if found:
                return found.group(1)
            if self.proc.poll() is not None:
                raise AssertionError(f"astrag web exited: {self.log.read_text()}")
            time.sleep(0.05)
        self.stop()
        raise AssertionError(f"astrag web printed no address: {self.log.read_text()}")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="module")
def server(shop: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    running = WebServer(shop, log=tmp_path_factory.mktemp("log") / "web.log")
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    executable = chromium_path()
    if executable is None:
        message = "no chromium on PATH (apt-get install chromium); the browser tests need it"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    running = Browser(executable)
    yield running
    running.close()


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where each browser test keeps a screenshot: ``ASTRAG_SCREENSHOTS`` or the test run's
    temporary directory (pytest keeps the last three runs')."""
    chosen = os.environ.get("ASTRAG_SCREENSHOTS")
    path = Path(chosen) if chosen else tmp_path_factory.getbasetemp() / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path
