"""Which folder ``astrag mcp`` and ``astrag watch`` serve when none is named: the project the
current folder is in, found as an editor or agent would start the server, and a clear refusal
(nothing indexed) for the home directory, the filesystem root and folders in no project."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from astrag.project_root import NotAProject, nearest_project


def test_the_nearest_index_work_tree_or_project_file(tmp_path: Path) -> None:
    home = tmp_path / "home"
    app = home / "code" / "app"
    (app / "src" / "pkg").mkdir(parents=True)
    (app / "pyproject.toml").write_text("")
    assert nearest_project(app / "src" / "pkg", home) == app
    # a work tree around it is the project (a monorepo's package is part of the monorepo)
    (home / "code" / ".git").mkdir()
    assert nearest_project(app / "src" / "pkg", home) == home / "code"
    # an index is the project whatever surrounds it
    (app / ".astrag").mkdir()
    assert nearest_project(app / "src", home) == app


def test_never_the_home_directory_or_the_root(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "notes").mkdir(parents=True)
    # a dotfiles repository and a stray package.json do not make the home folder a project
    (home / ".git").mkdir()
    (home / "package.json").write_text("{}")
    for start, message in (
        (home, f"{home} is your home directory, not a project"),
        (home / "notes", f"no project encloses {home / 'notes'}: no .astrag/, version-control"),
        (Path("/"), "/ is the filesystem root, not a project"),
    ):
        with pytest.raises(NotAProject) as refused:
            nearest_project(start, home)
        assert refused.value.message.startswith(message)


def serve(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "astrag.cli", *args],
        cwd=cwd,
        env={**os.environ, "HOME": str(home), "ASTRAG_STORE": "sqlite"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("command", [["mcp"], ["watch"]])
def test_refuses_a_folder_that_is_no_project(command: list[str], tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "Downloads").mkdir(parents=True)
    (home / "Downloads" / "script.py").write_text("print(1)\n")
    for cwd, message in (
        (home, f"error: {home} is your home directory, not a project"),
        (home / "Downloads", f"error: no project encloses {home / 'Downloads'}"),
    ):
        result = serve(*command, cwd=cwd, home=home)
        assert result.returncode == 2, result.stderr
        lines = result.stderr.splitlines()
        assert lines[0].startswith(message), result.stderr
        assert lines[1] == "hint: start it inside a repository, or pass --repo /path/to/repo"
    named_home = ["--repo", str(home)] if command == ["mcp"] else [str(home)]
    named = serve(*command, *named_home, cwd=tmp_path, home=home)
    assert named.returncode == 2
    assert f"refusing to serve {home}: it is your home directory" in named.stderr
    assert not any(p.name == ".astrag" for p in home.rglob("*"))  # nothing was indexed


def project_with_code(root: Path) -> Path:
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (root / "pkg" / "a.py").write_text("def f():\n    return g()\n\n\ndef g():\n    return 1\n")
    return root


@pytest.mark.parametrize("repo_arg", [None, "${workspaceFolder}"])
def test_serves_the_project_around_the_folder_it_starts_in(
    repo_arg: str | None, tmp_path: Path
) -> None:
    """Started in a subfolder, as an editor may start it; a ``${workspaceFolder}`` the client
    did not expand is treated as no --repo at all."""
    root = project_with_code(tmp_path / "proj")
    extra = ["--repo", repo_arg] if repo_arg else []
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "astrag.cli", "mcp", *extra],
        cwd=str(root / "pkg" / "sub"),
        env={**os.environ, "ASTRAG_STORE": "sqlite"},
    )

    async def scenario() -> dict:
        async with Client(params) as client:
            status = await client.call_tool("index_status", {})
            assert not status.is_error, status.content
            callers = await client.call_tool("find_callers", {"symbol": "g"})
            assert not callers.is_error, callers.content
            return {"status": status.structured_content, "callers": callers.structured_content}

    data = anyio.run(scenario)
    assert data["status"]["root"] == str(root)
    assert [r["id"] for r in data["callers"]["results"]] == ["pkg/a.py::f"]
