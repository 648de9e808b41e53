"""Agent set-up: what ``astrag install-agent`` writes for each coding agent, as plain data.

For every agent: where its MCP configuration lives (in the project, or for the user), the entry
that starts ``astrag mcp`` with the absolute path of the installed executable (a client started
from a desktop does not have the virtualenv on its PATH), and where the agent reads standing
instructions, with a short text saying when to use which tool. Each file comes with a merge
function from its current text to its new text, so an existing configuration keeps every other
server and setting, and an existing AGENTS.md/CLAUDE.md keeps everything outside astrag's
marked block. Reading and writing the files is the CLI's job (``cli_agents.py``).

Which folder the server serves: none is written into a user-scope file (``--repo /abs/path``
there would tie every project to one repository). A client that starts servers in the project
it opens (Claude Code, Codex, Continue, Gemini CLI) needs nothing; for Cursor and VS Code the
entry passes ``--repo ${workspaceFolder}``, which they expand to the open workspace.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Any

from astrag import __version__
from astrag.errors import AstragError

SERVER = "astrag"
BEGIN = "<!-- astrag:begin (written by `astrag install-agent`; edit outside these lines) -->"
END = "<!-- astrag:end -->"
WORKSPACE = "${workspaceFolder}"
CODEX_TIMEOUTS = {"startup_timeout_sec": 30, "tool_timeout_sec": 300}


class Agent(StrEnum):
    claude = "claude"
    cursor = "cursor"
    codex = "codex"
    continue_ = "continue"
    vscode = "vscode"
    gemini = "gemini"


class Scope(StrEnum):
    project = "project"
    user = "user"


@dataclass(frozen=True, slots=True)
class Launch:
    """How to start the server: an absolute executable and the arguments before ``mcp``."""

    command: str
    prefix: tuple[str, ...] = ()

    def args(self, *extra: str) -> list[str]:
        return [*self.prefix, "mcp", *extra]

    def shell(self, *extra: str) -> str:
        return " ".join(_quoted(part) for part in (self.command, *self.args(*extra)))


@dataclass(frozen=True, slots=True)
class Target:
    """One file to write: its path, what it holds, and its new text given its current one."""

    path: Path
    what: str  # "MCP server" or "instructions"
    merge: Callable[[str | None], str]


@dataclass(slots=True)
class Plan:
    agent: Agent
    scope: Scope
    targets: list[Target] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the user must do by hand, or know


def instructions() -> str:
    return resources.files("astrag").joinpath("agent_instructions.md").read_text("utf-8")


@dataclass(frozen=True, slots=True)
class Place:
    """Where a plan writes: the project or the home folder, and what locates user files."""

    scope: Scope
    base: Path  # the project for project scope, the home folder for user scope
    home: Path
    env: Mapping[str, str]
    platform: str

    @property
    def project(self) -> bool:
        return self.scope == Scope.project


def plan(
    agent: Agent,
    scope: Scope,
    *,
    project: Path,
    home: Path,
    launch: Launch,
    env: Mapping[str, str],
    platform: str,
) -> Plan:
    """The files ``astrag install-agent AGENT --scope SCOPE`` writes, and notes for the user."""
    place = Place(scope, project if scope == Scope.project else home, home, env, platform)
    out = Plan(agent, scope)
    _BUILDERS[agent](out, place, launch)
    return out


def _claude(out: Plan, at: Place, launch: Launch) -> None:
    if at.project:
        server = {"type": "stdio", "command": launch.command, "args": launch.args(), "env": {}}
        out.targets.append(_json_target(at.base / ".mcp.json", "mcpServers", server))
        out.targets.append(_block_target(at.base / "CLAUDE.md"))
        out.notes.append("Claude Code asks once before it starts a server from .mcp.json")
        return
    # ~/.claude.json is Claude Code's own state file, rewritten while it runs: let it add the
    # server itself rather than race it
    out.notes.append(
        "Claude Code keeps user servers in ~/.claude.json, which it rewrites while running; "
        f"add astrag with: claude mcp add --scope user {SERVER} -- {launch.shell()}"
    )
    out.targets.append(_block_target(at.base / ".claude" / "CLAUDE.md"))


def _cursor(out: Plan, at: Place, launch: Launch) -> None:
    server = {"command": launch.command, "args": launch.args("--repo", WORKSPACE)}
    out.targets.append(_json_target(at.base / ".cursor" / "mcp.json", "mcpServers", server))
    if at.project:
        rule = _frontmatter(description="When to use the astrag MCP tools", alwaysApply=True)
        path = at.base / ".cursor" / "rules" / f"{SERVER}.mdc"
        out.targets.append(_whole(path, "instructions", rule + instructions()))
    else:
        out.notes.append("Cursor keeps user rules in its settings: no instructions file written")


def _codex(out: Plan, at: Place, launch: Launch) -> None:
    folder = at.base / ".codex"
    if not at.project and at.env.get("CODEX_HOME"):
        folder = Path(at.env["CODEX_HOME"])
    out.targets.append(_codex_target(folder / "config.toml", launch))
    out.targets.append(_block_target(at.base / "AGENTS.md" if at.project else folder / "AGENTS.md"))
    if at.project:
        out.notes.append("Codex reads .codex/config.toml only in a project you marked trusted")


def _continue(out: Plan, at: Place, launch: Launch) -> None:
    folder = at.base / ".continue"
    block = folder / "mcpServers" / f"{SERVER}.yaml"
    out.targets.append(_whole(block, "MCP server", continue_block(launch)))
    rule = _frontmatter(name=SERVER, alwaysApply=True)
    out.targets.append(
        _whole(folder / "rules" / f"{SERVER}.md", "instructions", rule + instructions())
    )


def _vscode(out: Plan, at: Place, launch: Launch) -> None:
    server = {"type": "stdio", "command": launch.command, "args": launch.args("--repo", WORKSPACE)}
    folder = at.base / ".vscode" if at.project else _vscode_user(at)
    out.targets.append(_json_target(folder / "mcp.json", "servers", server))
    if at.project:
        out.targets.append(_block_target(at.base / ".github" / "copilot-instructions.md"))
    else:
        out.notes.append("VS Code keeps user instructions in its settings: none written")


def _gemini(out: Plan, at: Place, launch: Launch) -> None:
    server = {"command": launch.command, "args": launch.args()}
    out.targets.append(_json_target(at.base / ".gemini" / "settings.json", "mcpServers", server))
    out.targets.append(
        _block_target(at.base / ("GEMINI.md" if at.project else ".gemini/GEMINI.md"))
    )


_BUILDERS: dict[Agent, Callable[[Plan, Place, Launch], None]] = {
    Agent.claude: _claude,
    Agent.cursor: _cursor,
    Agent.codex: _codex,
    Agent.continue_: _continue,
    Agent.vscode: _vscode,
    Agent.gemini: _gemini,
}


def _vscode_user(at: Place) -> Path:
    if at.platform == "darwin":
        return at.home / "Library" / "Application Support" / "Code" / "User"
    if at.platform.startswith("win"):
        return Path(at.env.get("APPDATA") or at.home / "AppData" / "Roaming") / "Code" / "User"
    return Path(at.env.get("XDG_CONFIG_HOME") or at.home / ".config") / "Code" / "User"


# ---------------------------------------------------------------------------- merges


def _whole(path: Path, what: str, text: str) -> Target:
    """A file that is astrag's alone: written whole."""
    return Target(path, what, lambda _existing: text)


def _block_target(path: Path) -> Target:
    return Target(path, "instructions", lambda existing: merge_block(existing, instructions()))


def merge_block(existing: str | None, block: str) -> str:
    """``existing`` with astrag's marked block replaced by ``block``, or appended to it."""
    marked = f"{BEGIN}\n{block.strip()}\n{END}\n"
    if not existing or not existing.strip():
        return marked
    start = existing.find(BEGIN)
    end = existing.find(END, start + 1) if start >= 0 else -1
    if start >= 0 and end >= 0:  # what surrounds the block stays byte for byte
        return existing[:start] + marked.rstrip("\n") + (existing[end + len(END) :] or "\n")
    return existing.rstrip("\n") + "\n\n" + marked


def _json_target(path: Path, key: str, server: dict[str, Any]) -> Target:
    return Target(path, "MCP server", lambda existing: merge_json(existing, key, server, path))


def merge_json(existing: str | None, key: str, server: dict[str, Any], path: Path) -> str:
    """The JSON configuration with ``existing[key]["astrag"] = server``; every other key kept."""
    data: Any = {}
    if existing and existing.strip():
        try:
            data = json.loads(existing)
        except json.JSONDecodeError as e:
            raise AstragError(
                f"cannot add astrag to {path}: it is not plain JSON ({e.msg} at line {e.lineno})",
                "fix the file, or add the entry by hand (install-agent --print shows it)",
            ) from None
    if not isinstance(data, dict) or not isinstance(data.get(key, {}), dict):
        raise AstragError(
            f"cannot add astrag to {path}: {key!r} is not an object there",
            "fix the file, or add the entry by hand (install-agent --print shows it)",
        )
    data.setdefault(key, {})[SERVER] = server
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _codex_target(path: Path, launch: Launch) -> Target:
    return Target(path, "MCP server", lambda existing: merge_codex(existing, launch, path))


_OUR_TABLE = re.compile(r"^\s*\[\s*mcp_servers\s*\.\s*(astrag|\"astrag\")\s*(\]|\.)")
_ANY_TABLE = re.compile(r"^\s*\[")


def merge_codex(existing: str | None, launch: Launch, path: Path) -> str:
    """Codex's config.toml with an ``[mcp_servers.astrag]`` table (replacing astrag's own
    tables, if any); checked by parsing the result against the original."""
    before = _toml(existing or "", path)
    kept: list[str] = []
    ours = False
    for line in (existing or "").splitlines():
        if _ANY_TABLE.match(line):
            ours = bool(_OUR_TABLE.match(line))
        if not ours:
            kept.append(line)
    body = "\n".join(kept).rstrip("\n")
    entry = {**CODEX_TIMEOUTS, "command": launch.command, "args": launch.args()}
    table = (
        f"[mcp_servers.{SERVER}]\n"
        f"command = {json.dumps(launch.command)}\n"
        f"args = {json.dumps(launch.args())}\n"
        "# Codex's defaults are 10 s to start and 60 s a call: a loaded machine can take longer\n"
        "# to start Python, and the first call waits for the first index of a large repository\n"
        f"startup_timeout_sec = {CODEX_TIMEOUTS['startup_timeout_sec']}\n"
        f"tool_timeout_sec = {CODEX_TIMEOUTS['tool_timeout_sec']}\n"
    )
    merged = (body + "\n\n" if body else "") + table
    try:
        after = tomllib.loads(merged)
    except tomllib.TOMLDecodeError:
        after = None  # astrag's entry is written in a form the line edit above cannot remove
    if after is None or _without_ours(after) != _without_ours(before) or _ours(after) != entry:
        raise AstragError(
            f"cannot add astrag to {path} without changing other settings "
            "(mcp_servers.astrag is written there as dotted keys or an inline table)",
            "add the entry by hand (install-agent --print shows it)",
        )
    return merged


def _ours(config: dict[str, Any]) -> Any:
    return config.get("mcp_servers", {}).get(SERVER)


def _without_ours(config: dict[str, Any]) -> dict[str, Any]:
    rest = dict(config)
    servers = {k: v for k, v in rest.get("mcp_servers", {}).items() if k != SERVER}
    rest["mcp_servers"] = servers
    return rest


def _toml(text: str, path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise AstragError(
            f"cannot add astrag to {path}: it is not valid TOML ({e})",
            "fix the file, or add the entry by hand (install-agent --print shows it)",
        ) from None


def continue_block(launch: Launch) -> str:
    """A Continue block file; the name/version/schema header is what Continue requires of a
    file in .continue/mcpServers/. Strings are JSON-quoted, which YAML reads as they are."""
    args = "".join(f"      - {json.dumps(a)}\n" for a in launch.args())
    return (
        f"name: {SERVER}\n"
        f"version: {__version__}\n"
        "schema: v1\n"
        "mcpServers:\n"
        f"  - name: {SERVER}\n"
        "    type: stdio\n"
        f"    command: {json.dumps(launch.command)}\n"
        "    args:\n"
        f"{args}"
    )


def _frontmatter(**fields: object) -> str:
    lines = [f"{k}: {json.dumps(v)}" for k, v in fields.items()]
    return "---\n" + "\n".join(lines) + "\n---\n\n"


def _quoted(part: str) -> str:
    return part if re.fullmatch(r"[\w@%+=:,./-]+", part) else "'" + part.replace("'", "'\\''") + "'"
