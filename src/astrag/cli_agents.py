"""``astrag install-agent``: write (or ``--print``) a coding agent's MCP configuration and
instructions, as planned by ``agent_setup.py``; registered onto the main app by ``cli.py``."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path
from typing import Annotated, NamedTuple

import typer

from astrag import api
from astrag.agent_setup import Agent, Launch, Plan, Scope, Target, plan
from astrag.cli_shared import Fmt, checked_dir, decoded, emit_json, err, errors, write_atomically
from astrag.errors import AstragError

SCRIPT = "astrag.exe" if os.name == "nt" else "astrag"


class Change(NamedTuple):
    target: Target
    old: str | None  # the file's text now; None if it does not exist
    new: str


def install_agent(
    agent: Annotated[Agent, typer.Argument(help="The coding agent to set up.")],
    scope: Annotated[
        Scope,
        typer.Option(
            "--scope",
            help="project: files in the repository (default); user: your own configuration, "
            "for every project the agent opens.",
        ),
    ] = Scope.project,
    repo: Annotated[
        Path | None,
        typer.Option("--repo", help="The project (default: the one the current folder is in)."),
    ] = None,
    show: Annotated[
        bool, typer.Option("--print", help="Print what would be written; write nothing.")
    ] = False,
    command: Annotated[
        str | None,
        typer.Option(
            "--command",
            help="The command the agent starts, e.g. 'astrag' to rely on its PATH or "
            "'/usr/bin/python3 -m astrag.cli' (default: this astrag's absolute path).",
        ),
    ] = None,
    fmt: Annotated[Fmt, typer.Option("--format", "-f", help="Output format.")] = Fmt.text,
) -> None:
    """Set up a coding agent to use astrag: its MCP server entry (the absolute path of this
    astrag) and a short instructions file saying when to use which tool. Other servers,
    settings and text in those files are kept."""
    with errors(fmt):
        if repo is not None:
            project = checked_dir(repo, "--repo")
        elif scope == Scope.project:
            project = api.find_project()
        else:  # user scope writes under the home folder and names no project
            project = Path.cwd()
        launch = given_launch(command) if command else installed_launch()
        setup = plan(
            agent,
            scope,
            project=project,
            home=Path.home(),
            launch=launch,
            env=os.environ,
            platform=sys.platform,
        )
        # every file is merged before any is written: one that cannot be merged stops the
        # run with nothing half set up
        changes = [_change(t) for t in setup.targets]
        if show:
            _show(changes, setup, fmt)
            return
        done = [_write(c) for c in changes]
    if fmt == Fmt.json:
        files = [
            {"path": str(c.target.path), "what": c.target.what, "action": action}
            for c, action in zip(changes, done, strict=True)
        ]
        emit_json({"agent": str(agent), "scope": str(scope), "files": files, "notes": setup.notes})
        return
    for c, action in zip(changes, done, strict=True):
        sys.stdout.write(f"{action} {c.target.path} ({c.target.what})\n")
    _notes(setup)


def given_launch(command: str) -> Launch:
    try:
        parts = shlex.split(command)
    except ValueError as e:
        raise AstragError(
            f"cannot read --command {command!r}: {e}", "quote it as a shell would"
        ) from e
    if not parts:
        raise AstragError("--command is empty", "pass the astrag executable, e.g. --command astrag")
    return Launch(parts[0], tuple(parts[1:]))


def installed_launch() -> Launch:
    """This astrag, by absolute path: the script that is running, else the one beside this
    interpreter, else the interpreter itself with ``-m astrag.cli``."""
    started = Path(sys.argv[0])
    if started.name == SCRIPT and started.is_file():
        return Launch(str(started.absolute()))
    # not resolved: a virtualenv's python is a link to the base interpreter, which does not
    # have astrag installed
    beside = Path(sys.executable).parent / SCRIPT
    if beside.is_file():
        return Launch(str(beside.absolute()))
    return Launch(str(Path(sys.executable).absolute()), ("-m", "astrag.cli"))


def _change(target: Target) -> Change:
    path = target.path
    try:
        old: str | None = decoded(path.read_bytes(), str(path))
    except FileNotFoundError:
        old = None
    except OSError as e:
        raise AstragError(
            f"cannot read {path}: {e.strerror}", "check the file's permissions"
        ) from e
    return Change(target, old, target.merge(old))


def _write(change: Change) -> str:
    path = change.target.path
    if change.old == change.new:
        return "unchanged"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, [change.new])
    except OSError as e:
        raise AstragError(
            f"cannot write {path}: {e.strerror}", "check the folder's permissions"
        ) from e
    return "created" if change.old is None else "updated"


def _show(changes: list[Change], setup: Plan, fmt: Fmt) -> None:
    if fmt == Fmt.json:
        files = [
            {"path": str(c.target.path), "what": c.target.what, "text": c.new} for c in changes
        ]
        emit_json(
            {
                "agent": str(setup.agent),
                "scope": str(setup.scope),
                "files": files,
                "notes": setup.notes,
            }
        )
        return
    for c in changes:
        sys.stdout.write(f"==> {c.target.path} ({c.target.what}) <==\n{c.new}\n")
    _notes(setup)


def _notes(setup: Plan) -> None:
    for line in setup.notes:
        err.print(f"note: {line}", markup=False, highlight=False)


def register(app: typer.Typer) -> None:
    app.command("install-agent")(install_agent)
