"""``astrag check`` starts without the code it never runs: the embedders, numpy, the indexer
(when the index is fresh), the search and retrieval pipeline, the export writers, the MCP
server. Each of them costs start-up time on every call an agent makes after an edit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from astrag import api
from astrag.cli_check import parse

# Modules the check path must not import (a fresh index: nothing to re-index).
NOT_ON_THE_CHECK_PATH = (
    "numpy",
    "astrag.embed.static",
    "astrag.indexer",
    "astrag.search.engine",
    "astrag.search.vectors",
    "astrag.retrieve.answer",
    "astrag.query.repomap",
    "tiktoken",
    "astrag.export",
    "astrag.serve.server",
    "mcp",
    "rich.progress",
    # piped, ``check --changed`` is answered without the CLI framework (cli_check.py)
    "typer",
    "rich",
    "pydantic",
)

# Runs the console script's entry point as `astrag check --changed`, then lists what it loaded.
_PROBE = """
import json, sys
sys.argv = ["astrag", "check", "--changed", "--repo", sys.argv[1]]
from astrag.entry import main
try:
    main()
except SystemExit as done:
    code = done.code
with open(OUT, "w") as out:
    json.dump({"code": code, "modules": sorted(sys.modules)}, out)
"""


def _git(root: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


def _probe(root: Path, out: Path) -> tuple[dict[str, object], str]:
    code = _PROBE.replace("OUT", repr(str(out)))
    done = subprocess.run(
        [sys.executable, "-c", code, str(root)], capture_output=True, text=True, timeout=120
    )
    return json.loads(out.read_text()), done.stdout


def test_check_changed_loads_no_embedder_numpy_search_or_mcp(tmp_path: Path) -> None:
    root = _changed_repo(tmp_path / "repo")  # fresh: the check has nothing to re-index

    seen, printed = _probe(root, tmp_path / "probe.json")

    assert seen["code"] == 1  # it ran and found the broken import
    assert "main.py:1:" in printed and "totals" in printed
    loaded = set(seen["modules"])  # type: ignore[arg-type]
    assert "astrag.verify.session" in loaded  # the probe watched a real check
    assert sorted(m for m in NOT_ON_THE_CHECK_PATH if m in loaded) == []


def _changed_repo(root: Path) -> Path:
    root.mkdir()
    (root / "shop.py").write_text("def total(items):\n    return sum(items)\n")
    (root / "main.py").write_text("from shop import total\n\nprint(total([1, 2]))\n")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init")
    (root / "main.py").write_text("from shop import totals\n\nprint(totals([1, 2]))\n")
    api.index(root, embedder="none")
    return root


def _run(entry: str, *args: str) -> tuple[int, object, list[str]]:
    """Exit status, stdout and stderr (timings dropped) of ``astrag ARGS`` run through
    ``entry`` (``astrag.entry``: the console script; ``astrag.cli``: the full CLI)."""
    done = subprocess.run(
        [sys.executable, "-c", f"from {entry} import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    errors = [e.rsplit(", ", 1)[0] if " ms" in e else e for e in done.stderr.splitlines()]
    printed: object = done.stdout
    if done.stdout.startswith("{"):
        printed = json.loads(done.stdout)
        printed.pop("seconds", None)  # type: ignore[attr-defined]
    return done.returncode, printed, errors


@pytest.mark.parametrize(
    "args",
    [
        ("--changed",),
        ("--changed", "--format", "json"),
        ("--format=sarif", "--changed"),
        ("--changed", "--base", "no-such-ref"),
        ("--changed", "-f", "json", "--base", "no-such-ref"),
    ],
)
def test_the_fast_check_answers_as_the_full_cli(tmp_path: Path, args: tuple[str, ...]) -> None:
    root = _changed_repo(tmp_path / "repo")
    fast = _run("astrag.entry", "check", "--repo", str(root), *args)
    full = _run("astrag.cli", "check", "--repo", str(root), *args)
    assert fast == full
    assert fast[0] in (1, 2)  # a finding, or the unknown base


def test_only_the_changed_check_into_a_pipe_is_answered_fast() -> None:
    assert parse(["--changed"]) == {}
    assert parse(["--changed", "--base=main", "-f", "json", "--repo", "r"]) == {
        "base": "main",
        "format": "json",
        "repo": "r",
    }
    for other in (
        [],  # a diff on stdin
        ["--changed", "file.py"],
        ["--changed", "--help"],
        ["--changed", "--changed"],
        ["--changed", "--format", "xml"],
        ["--changed", "--base"],
        ["--changed", "--base", "--repo", "r"],
        ["--changed", "--base="],
        ["--changed", "-f=json"],
        ["--changed", "--path", "a.py"],
    ):
        assert parse(other) is None, other
