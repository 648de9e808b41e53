"""Which folder is the project, when nobody named one.

An editor or agent starts ``astrag mcp`` (or ``astrag watch``) in whatever folder it likes; a
desktop client often starts it in the home directory. Serving that folder would index
everything under it, so a server without ``--repo`` serves the nearest enclosing project and
refuses to guess when there is none. A project is, in this order: a folder with an astrag
index, a version-control work tree, a folder with a build or package file. The home directory,
the folders above it and the filesystem root are never a project, whatever they hold (a
dotfiles repository or a stray ``package.json`` in ``~`` does not make it one).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from astrag.errors import AstragError

INDEX_DIR = ".astrag"
WORK_TREE_MARKERS = (".git", ".hg", ".svn", ".jj")
# Files a project of some language keeps at its root; any one of them makes the folder a project.
PROJECT_FILES = (
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "requirements.txt",
    "Pipfile",
    "package.json",
    "tsconfig.json",
    "jsconfig.json",
    "deno.json",
    "go.mod",
    "Cargo.toml",
    "pom.xml",
    "build.gradle",
    "build.gradle.kts",
    "settings.gradle",
    "composer.json",
    "Gemfile",
    "mix.exs",
    "CMakeLists.txt",
    ".astrag.toml",
)


class NotAProject(AstragError):
    """No project encloses the folder a server was started in."""


def nearest_project(start: Path, home: Path | None = None) -> Path:
    """The project ``start`` lies in (see the module docstring), or :class:`NotAProject`."""
    here = start.resolve()
    home = (home or Path.home()).resolve()
    never = {home, *home.parents, Path(here.anchor)}
    candidates = [d for d in (here, *here.parents) if d not in never]
    for found in (
        _first(candidates, lambda d: (d / INDEX_DIR).is_dir()),
        _first(candidates, lambda d: any((d / m).exists() for m in WORK_TREE_MARKERS)),
        _first(candidates, lambda d: any((d / f).is_file() for f in PROJECT_FILES)),
    ):
        if found is not None:
            return found
    if here == home:
        message = f"{here} is your home directory, not a project"
    elif here in never:
        where = "the filesystem root" if here == Path(here.anchor) else "above your home directory"
        message = f"{here} is {where}, not a project"
    else:
        message = (
            f"no project encloses {here}: no {INDEX_DIR}/, version-control work tree or project "
            "file (pyproject.toml, package.json, go.mod, Cargo.toml, ...) in it or above it"
        )
    raise NotAProject(message, "start it inside a repository, or pass --repo /path/to/repo")


def refuse_non_project(root: Path, home: Path | None = None) -> Path:
    """``root`` if a server may serve it when named explicitly: anything but the home
    directory, a folder above it, or the filesystem root."""
    root = root.resolve()
    home = (home or Path.home()).resolve()
    if root == home or root in home.parents or root == Path(root.anchor):
        what = "your home directory" if root == home else "above your home directory"
        if root == Path(root.anchor):
            what = "the filesystem root"
        raise NotAProject(
            f"refusing to serve {root}: it is {what}, and would index everything under it",
            "pass --repo with a repository inside it",
        )
    return root


def _first(candidates: list[Path], test: Callable[[Path], bool]) -> Path | None:
    return next((d for d in candidates if test(d)), None)
