"""``astrag index`` read without typer's parsing (cli_index.py): the same command function, the
same output and exit status; anything unusual goes to the full CLI."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from astrag.cli_index import parse
from tests.cli_run import BASE_ENV


@pytest.mark.parametrize(
    ("argv", "options"),
    [
        ([], {}),
        (["repo"], {"path": "repo"}),
        (["repo", "--rebuild", "--no-embed"], {"path": "repo", "rebuild": True, "no_embed": True}),
        (["--no-rebuild", "repo"], {"path": "repo", "rebuild": False}),
        (["--jobs", "3", "--format", "json"], {"jobs": 3, "fmt": "json"}),
        (["--jobs=2", "-f", "text"], {"jobs": 2, "fmt": "text"}),
        (["--embedder", "none", "--store=sqlite"], {"embedder": "none", "store": "sqlite"}),
    ],
)
def test_plain_command_lines_are_read_here(argv: list[str], options: dict[str, object]) -> None:
    assert parse(argv) == options


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["-h"],
        ["repo", "other"],  # two paths: a usage mistake the full CLI explains
        ["--rebuild", "--rebuild"],
        ["--rebuild", "--no-rebuild"],
        ["--jobs"],
        ["--jobs", "two"],
        ["--jobs", "-1"],
        ["--jobs", "３"],  # a digit, but not one typer reads
        ["--format", "yaml"],
        ["-f=json"],
        ["--store", ""],
        ["--embedder="],
        ["--", "repo"],
        ["--verbose"],
        [""],
    ],
)
def test_anything_else_goes_to_the_full_cli(argv: list[str]) -> None:
    assert parse(argv) is None


_ENTRY = "import sys; from astrag.entry import main; sys.argv[0] = 'astrag'; main()"
# the modules loaded, written as the run ends: by os._exit, without the interpreter's teardown
_PROBE = (
    "import sys, json, os; from astrag.entry import main; sys.argv[0] = 'astrag'; "
    "end = os._exit; os._exit = lambda code: (sys.stderr.write("
    "'MODULES ' + json.dumps(sorted(sys.modules))), sys.stderr.flush(), end(code)); "
    "main()"
)


def _astrag(*args: str, fast: bool, probe: bool = False) -> subprocess.CompletedProcess[str]:
    """``astrag ARGS``: through the console script's entry (the fast path) or the full CLI."""
    if fast:
        command = [sys.executable, "-c", _PROBE if probe else _ENTRY, *args]
    else:
        command = [sys.executable, "-m", "astrag.cli", *args]
    return subprocess.run(command, capture_output=True, text=True, env=BASE_ENV, timeout=120)


def _steady(text: str) -> object:
    """The output without what differs between two runs (their seconds)."""
    if text.startswith("{"):
        data = json.loads(text)
        data.pop("seconds", None)
        data.pop("timings", None)
        return data
    return re.sub(r"seconds\t[0-9.]+", "seconds\tN", text)


def _repo(root: Path) -> Path:
    root.mkdir()
    (root / "shop.py").write_text("def total(items):\n    return sum(items)\n")
    (root / "main.py").write_text("from shop import total\n\nprint(total([1, 2]))\n")
    return root


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_fast_path_prints_what_the_full_cli_prints(tmp_path: Path, fmt: str) -> None:
    runs = []
    for fast in (True, False):
        root = _repo(tmp_path / f"repo-{fast}")
        runs.append(_astrag("index", str(root), "--no-embed", "--format", fmt, fast=fast))
    fast_run, full_run = runs
    assert fast_run.returncode == full_run.returncode == 0
    shown = [
        _steady(r.stdout.replace(str(tmp_path / f"repo-{f}"), "ROOT"))
        for r, f in zip(runs, (True, False), strict=True)
    ]
    assert shown[0] == shown[1]
    assert "calls" in str(shown[0])
    if fmt == "json":
        assert json.loads(fast_run.stdout)["files"] == 2


def test_the_fast_path_fails_as_the_full_cli_fails(tmp_path: Path) -> None:
    missing = str(tmp_path / "nowhere")
    for fmt in ("text", "json"):
        fast, full = (_astrag("index", missing, "-f", fmt, fast=f) for f in (True, False))
        assert (fast.returncode, fast.stdout, fast.stderr) == (2, full.stdout, full.stderr)
        assert "is not a directory" in fast.stdout + fast.stderr


def test_the_fast_path_skips_typers_parsing_and_pydantic(tmp_path: Path) -> None:
    done = _astrag("index", str(_repo(tmp_path / "repo")), "--no-embed", fast=True, probe=True)
    assert done.returncode == 0
    modules = set(json.loads(done.stderr.rsplit("MODULES ", 1)[1]))
    assert "astrag.indexer" in modules  # it indexed
    assert "pydantic" not in modules
    # and a command line it does not read still gets typer's answer
    usage = _astrag("index", "a", "b", fast=True)
    assert usage.returncode == 2 and "unexpected extra argument" in usage.stderr.lower()
