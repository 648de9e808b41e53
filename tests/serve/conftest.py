"""A small indexed repository for the serving tests, and helpers to run the real server."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from astrag import api

FILES: dict[str, str] = {
    "pkg/__init__.py": "",
    "pkg/shapes.py": '''
        """Shapes with an area."""


        class Shape:
            def area(self) -> float:
                raise NotImplementedError


        class Square(Shape):
            def __init__(self, side: float) -> None:
                self.side = side

            def area(self) -> float:
                return self.side * self.side


        class Circle(Shape):
            def __init__(self, radius: float) -> None:
                self.radius = radius

            def area(self) -> float:
                return 3.14159 * self.radius * self.radius
        ''',
    "pkg/report.py": '''
        from pkg.shapes import Shape, Square


        def total_area(shapes: list[Shape]) -> float:
            return sum(s.area() for s in shapes)


        def describe(shape: Shape) -> str:
            """Describe one shape."""
            return f"{type(shape).__name__}: {shape.area():.2f}"


        def main() -> None:
            print(describe(Square(2)))
            print(total_area([Square(1)]))
        ''',
}


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The fixture repository, indexed, next to an ``outside`` directory it must not reach:
    ``pkg/leak.py`` and ``pkg/outdir`` are symlinks pointing there."""
    root = tmp_path / "repo"
    for rel, text in FILES.items():
        write(root, rel, text)
    outside = tmp_path / "outside"
    write(outside, "secret.py", "def secret() -> str:\n    return 'hunter2'\n")
    (root / "pkg" / "leak.py").symlink_to(outside / "secret.py")
    (root / "pkg" / "outdir").symlink_to(outside, target_is_directory=True)
    api.index(root, jobs=1)
    return root


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def astrag_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "astrag.cli", *args]


def start_http(
    repo: Path, *extra: str, env: dict[str, str] | None = None
) -> tuple[subprocess.Popen[str], int]:
    """``astrag mcp --transport http`` in a subprocess, once its port accepts connections (on
    the ``--host`` among ``extra``, 127.0.0.1 for a wildcard or none)."""
    bound = extra[extra.index("--host") + 1] if "--host" in extra else "127.0.0.1"
    probe = "127.0.0.1" if bound in ("0.0.0.0", "::") else bound.strip("[]")
    port = free_port()
    command = astrag_command("mcp", "--repo", str(repo), "--transport", "http", "--port", str(port))
    proc = subprocess.Popen(
        [*command, *extra],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited: {proc.communicate()}")
        try:
            with socket.create_connection((probe, port), timeout=0.2):
                return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError("server did not start listening")


def stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
