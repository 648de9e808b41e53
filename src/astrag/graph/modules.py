"""The run's module tables, language by language, and the project layout they are built from.

Where an import points is each language's own business (``lang/<room>/modules.py``: Python's
packages, TypeScript's specifiers and tsconfig paths). The core only carries the pieces: the
set of indexed paths, what the project's configuration files say (:class:`ProjectLayout`, read
at the I/O edge by ``project_layout.py``), and each room's lookup tables built once per run
from both (:class:`Modules`). Nothing here reads the disk or knows a language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

# (paths, the room's part of the layout or None) -> that room's module tables
ModuleIndexer = Callable[[frozenset[str], Any], Any]


@dataclass(frozen=True, slots=True)
class ProjectLayout:
    """Per room, the module-resolution settings its configuration files hold (pure data; a
    room without configuration files has no part)."""

    parts: tuple[tuple[str, Any], ...] = ()  # (room name, its layout), in registry order

    def part(self, room: str) -> Any:
        for name, layout in self.parts:
            if name == room:
                return layout
        return None


@dataclass(slots=True)
class Modules:
    """The module tables of one resolution run: every room's, over the same indexed paths."""

    paths: frozenset[str]
    layout: ProjectLayout = field(default_factory=ProjectLayout)
    tables: dict[str, Any] = field(default_factory=dict)  # room name -> its module tables

    def of(self, room: str) -> Any:
        return self.tables[room]


def build_modules(
    paths: Iterable[str],
    layout: ProjectLayout | None,
    indexers: Iterable[tuple[str, ModuleIndexer]],
) -> Modules:
    """Every room's module tables, built once, before resolution (forked resolver workers
    inherit them instead of each building their own)."""
    all_paths = frozenset(paths)
    layout = layout or ProjectLayout()
    tables = {room: index(all_paths, layout.part(room)) for room, index in indexers}
    return Modules(paths=all_paths, layout=layout, tables=tables)
