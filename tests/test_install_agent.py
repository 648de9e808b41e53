"""``astrag install-agent``: each agent's files parsed as the agent parses them (JSON, TOML, YAML,
Markdown with front matter), merged into existing files without losing anything, refused
whole when a file cannot be merged, and the written server entry started the way the agent
starts it, with the MCP SDK's stdio client."""

from __future__ import annotations

import json
import os
import sys
import tomllib
from pathlib import Path

import anyio
import pytest
import yaml
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from astrag.agent_setup import BEGIN, END
from tests.cli_run import BASE_ENV, run

PYTHON = f"{sys.executable} -m astrag.cli"  # the command written, so the tests run this checkout
ENV = {**BASE_ENV, "ASTRAG_STORE": "sqlite"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "shapes.py").write_text(
        "class Shape:\n    def area(self) -> float:\n        return 0.0\n\n\n"
        "def describe(s: Shape) -> str:\n    return str(s.area())\n"
    )
    return root


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


def install(*args: str, home: Path, cwd: Path | None = None):  # type: ignore[no-untyped-def]
    env = {**ENV, "HOME": str(home)}
    env.pop("CODEX_HOME", None)
    env.pop("XDG_CONFIG_HOME", None)
    return run("install-agent", *args, "--command", PYTHON, "--format", "json", cwd=cwd, env=env)


def written(result) -> dict[str, str]:  # type: ignore[no-untyped-def]
    assert result.returncode == 0, result.stderr
    return {f["what"]: f["path"] for f in json.loads(result.stdout)["files"]}


def instructions_block(path: Path) -> str:
    text = path.read_text()
    assert text.count(BEGIN) == 1 and text.count(END) == 1
    assert "`get_context`" in text and "`check_code`" in text
    return text


ARGS = ["-m", "astrag.cli", "mcp"]
WORKSPACE = [*ARGS, "--repo", "${workspaceFolder}"]


def test_claude_project(project: Path, home: Path) -> None:
    files = written(install("claude", "--repo", str(project), home=home))
    assert files == {
        "MCP server": str(project / ".mcp.json"),
        "instructions": str(project / "CLAUDE.md"),
    }
    config = json.loads((project / ".mcp.json").read_text())
    assert config == {
        "mcpServers": {
            "astrag": {"type": "stdio", "command": sys.executable, "args": ARGS, "env": {}}
        }
    }
    instructions_block(project / "CLAUDE.md")


def test_cursor_project_and_user(project: Path, home: Path) -> None:
    written(install("cursor", "--repo", str(project), home=home))
    config = json.loads((project / ".cursor" / "mcp.json").read_text())
    assert config["mcpServers"]["astrag"] == {"command": sys.executable, "args": WORKSPACE}
    rule = (project / ".cursor" / "rules" / "astrag.mdc").read_text()
    front, body = rule.removeprefix("---\n").split("\n---\n", 1)
    assert yaml.safe_load(front) == {
        "description": "When to use the astrag MCP tools",
        "alwaysApply": True,
    }
    assert "`get_context`" in body
    user = install("cursor", "--scope", "user", home=home, cwd=project)
    assert written(user) == {"MCP server": str(home / ".cursor" / "mcp.json")}
    config = json.loads((home / ".cursor" / "mcp.json").read_text())
    assert config["mcpServers"]["astrag"]["args"] == WORKSPACE  # no fixed repository


def test_codex_project_and_user(project: Path, home: Path) -> None:
    written(install("codex", "--repo", str(project), home=home))
    config = tomllib.loads((project / ".codex" / "config.toml").read_text())
    assert config == {
        "mcp_servers": {
            "astrag": {
                "command": sys.executable,
                "args": ARGS,
                "startup_timeout_sec": 30,
                "tool_timeout_sec": 300,
            }
        }
    }
    instructions_block(project / "AGENTS.md")
    files = written(install("codex", "--scope", "user", home=home, cwd=project))
    assert files == {
        "MCP server": str(home / ".codex" / "config.toml"),
        "instructions": str(home / ".codex" / "AGENTS.md"),
    }


def test_continue_block_file_has_the_required_header(project: Path, home: Path) -> None:
    written(install("continue", "--repo", str(project), home=home))
    block = yaml.safe_load((project / ".continue" / "mcpServers" / "astrag.yaml").read_text())
    assert block == {
        "name": "astrag",
        "version": "0.1.0",
        "schema": "v1",
        "mcpServers": [
            {"name": "astrag", "type": "stdio", "command": sys.executable, "args": ARGS}
        ],
    }
    rule = (project / ".continue" / "rules" / "astrag.md").read_text()
    front, body = rule.removeprefix("---\n").split("\n---\n", 1)
    assert yaml.safe_load(front) == {"name": "astrag", "alwaysApply": True}
    assert "`find_callers`" in body


def test_vscode_and_gemini(project: Path, home: Path) -> None:
    written(install("vscode", "--repo", str(project), home=home))
    config = json.loads((project / ".vscode" / "mcp.json").read_text())
    assert config == {
        "servers": {"astrag": {"type": "stdio", "command": sys.executable, "args": WORKSPACE}}
    }
    instructions_block(project / ".github" / "copilot-instructions.md")
    user = written(install("vscode", "--scope", "user", home=home, cwd=project))
    assert user == {"MCP server": str(home / ".config" / "Code" / "User" / "mcp.json")}
    written(install("gemini", "--repo", str(project), home=home))
    settings = json.loads((project / ".gemini" / "settings.json").read_text())
    assert settings == {"mcpServers": {"astrag": {"command": sys.executable, "args": ARGS}}}
    instructions_block(project / "GEMINI.md")


def test_claude_user_scope_leaves_its_state_file_to_claude(project: Path, home: Path) -> None:
    result = install("claude", "--scope", "user", home=home, cwd=project)
    assert written(result) == {"instructions": str(home / ".claude" / "CLAUDE.md")}
    [note] = json.loads(result.stdout)["notes"]
    assert f"claude mcp add --scope user astrag -- {sys.executable} -m astrag.cli mcp" in note
    assert not (home / ".claude.json").exists()


def test_merging_keeps_everything_else_and_reruns_change_nothing(project: Path, home: Path) -> None:
    (project / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"other": {"command": "other-server"}}, "extra": [1, 2]})
    )
    (project / "CLAUDE.md").write_text("# House rules\n\nUse tabs.\n")
    written(install("claude", "--repo", str(project), home=home))
    config = json.loads((project / ".mcp.json").read_text())
    assert config["mcpServers"]["other"] == {"command": "other-server"}
    assert config["extra"] == [1, 2] and "astrag" in config["mcpServers"]
    text = instructions_block(project / "CLAUDE.md")
    assert text.startswith("# House rules\n\nUse tabs.\n\n" + BEGIN)
    # the user edits around the block; a rerun replaces the block only, and then nothing
    (project / "CLAUDE.md").write_text(text.replace(BEGIN, "More rules.\n\n" + BEGIN) + "Tail.\n")
    again = install("claude", "--repo", str(project), home=home)
    actions = {f["what"]: f["action"] for f in json.loads(again.stdout)["files"]}
    assert actions == {"MCP server": "unchanged", "instructions": "unchanged"}
    assert (project / "CLAUDE.md").read_text().endswith(END + "\nTail.\n")


def test_codex_merge_replaces_only_its_own_tables(project: Path, home: Path) -> None:
    config = project / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(
        'model = "o4"\n\n[mcp_servers.astrag]\ncommand = "old"\n\n'
        '[mcp_servers.astrag.env]\nX = "1"\n\n[mcp_servers.other]\ncommand = "keep"\n'
    )
    written(install("codex", "--repo", str(project), home=home))
    merged = tomllib.loads(config.read_text())
    assert merged["model"] == "o4"
    assert merged["mcp_servers"]["other"] == {"command": "keep"}
    assert merged["mcp_servers"]["astrag"] == {
        "command": sys.executable,
        "args": ARGS,
        "startup_timeout_sec": 30,
        "tool_timeout_sec": 300,
    }
    # an entry written as an inline table cannot be rewritten line by line: refused, kept
    inline = 'mcp_servers = { astrag = { command = "x" } }\n'
    config.write_text(inline)
    result = install("codex", "--repo", str(project), home=home)
    assert result.returncode == 2 and "without changing other settings" in result.stdout
    assert config.read_text() == inline


def test_a_file_that_cannot_be_merged_stops_everything(project: Path, home: Path) -> None:
    broken = project / ".cursor" / "mcp.json"
    broken.parent.mkdir()
    broken.write_text('{ "mcpServers": { // a comment\n } }\n')
    result = run("install-agent", "cursor", "--repo", str(project), env={**ENV, "HOME": str(home)})
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"error: cannot add astrag to {broken}: it is not plain JSON")
    assert broken.read_text() == '{ "mcpServers": { // a comment\n } }\n'
    assert not (project / ".cursor" / "rules").exists()  # nothing half set up


def test_print_writes_nothing(project: Path, home: Path) -> None:
    result = run(
        "install-agent", "codex", "--repo", str(project), "--print", env={**ENV, "HOME": str(home)}
    )
    assert result.returncode == 0, result.stderr
    assert f"==> {project / '.codex' / 'config.toml'} (MCP server) <==" in result.stdout
    assert "[mcp_servers.astrag]" in result.stdout
    assert sorted(p.name for p in project.iterdir()) == [".git", "pkg"]


def test_the_default_command_is_this_astrag_by_absolute_path(project: Path, home: Path) -> None:
    result = run(
        "install-agent",
        "gemini",
        "--repo",
        str(project),
        "--print",
        "-f",
        "json",
        env={**ENV, "HOME": str(home)},
    )
    assert result.returncode == 0, result.stderr
    text = json.loads(result.stdout)["files"][0]["text"]
    entry = json.loads(text)["mcpServers"]["astrag"]
    command = Path(entry["command"])
    assert command.is_absolute() and command.is_file() and os.access(command, os.X_OK)


def test_outside_a_project_it_asks_for_one(home: Path) -> None:
    result = run("install-agent", "claude", cwd=home, env={**ENV, "HOME": str(home)})
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: {home} is your home directory, not a project")
    # the user scope needs no project: it writes under the home folder, wherever it runs
    assert written(install("gemini", "--scope", "user", home=home, cwd=home)) == {
        "MCP server": str(home / ".gemini" / "settings.json"),
        "instructions": str(home / ".gemini" / "GEMINI.md"),
    }


@pytest.mark.parametrize("agent", ["claude", "cursor"])
def test_the_written_entry_starts_a_working_server(agent: str, project: Path, home: Path) -> None:
    """Start the server from the written configuration as the agent does: its command and
    args (Cursor expands ${workspaceFolder}), in the project, over stdio."""
    written(install(agent, "--repo", str(project), home=home))
    path = project / (".mcp.json" if agent == "claude" else ".cursor/mcp.json")
    entry = json.loads(path.read_text())["mcpServers"]["astrag"]
    args = [a.replace("${workspaceFolder}", str(project)) for a in entry["args"]]
    params = StdioServerParameters(
        command=entry["command"], args=args, cwd=str(project), env={**ENV, "HOME": str(home)}
    )

    async def scenario() -> dict:
        async with Client(params) as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            assert {"get_context", "check_code", "find_callers"} <= tools
            result = await client.call_tool("find_callers", {"symbol": "Shape.area"})
            assert not result.is_error, result.content
            return result.structured_content or {}

    data = anyio.run(scenario)
    assert [r["id"] for r in data["results"]] == ["pkg/shapes.py::describe"]


def readme_blocks() -> list[tuple[str, str]]:
    """The (language, text) of each fenced block in the README's agent set-up section."""
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    section = readme[readme.index("**Set up an agent**") : readme.index("Over HTTP instead")]
    parts = section.split("```")[1::2]
    return [(p.split("\n", 1)[0], p.split("\n", 1)[1]) for p in parts]


def test_the_readme_shows_what_install_agent_writes(project: Path, home: Path) -> None:
    """Each snippet in the README is what install-agent writes (so it follows each agent's
    documented format as the tests above check it), parsed, not compared as text."""
    shown = {}
    for agent in ("claude", "cursor", "vscode", "gemini", "codex", "continue"):
        result = run(
            "install-agent",
            agent,
            "--repo",
            str(project),
            "--print",
            "-f",
            "json",
            "--command",
            "/home/me/.local/bin/astrag",
            env={**ENV, "HOME": str(home)},
        )
        assert result.returncode == 0, result.stderr
        files = json.loads(result.stdout)["files"]
        shown[agent] = next(f["text"] for f in files if f["what"] == "MCP server")
    blocks = readme_blocks()
    as_json = [json.loads(text) for lang, text in blocks if lang == "json"]
    agents = ("claude", "cursor", "vscode", "gemini")
    assert as_json == [json.loads(shown[a]) for a in agents]
    [toml_block] = [text for lang, text in blocks if lang == "toml"]
    assert tomllib.loads(toml_block) == tomllib.loads(shown["codex"])
    [yaml_block] = [text for lang, text in blocks if lang == "yaml"]
    assert yaml_block.split("\n", 1)[1] == shown["continue"]
