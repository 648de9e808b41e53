"""Read what a project's configuration files say about module resolution, room by room.

The I/O edge for :class:`astrag.graph.modules.ProjectLayout`: each language room that has such
files (TypeScript: ``tsconfig.json`` paths and ``package.json`` workspace packages) reads them
through its own ``layout.py`` and returns pure data. Broken or unreadable config files are
skipped: a bad config must not stop indexing, it only costs the aliases it would have provided.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from astrag.graph.modules import ProjectLayout
from astrag.lang import ROOMS


def read_layout(root: Path, paths: Iterable[str]) -> ProjectLayout:
    """The module-resolution layout of the project at ``root`` whose sources are ``paths``."""
    listed = list(paths)
    return ProjectLayout(
        parts=tuple(
            (room.name, room.read_layout(root, listed)) for room in ROOMS if room.read_layout
        )
    )


def layout_fingerprint(layout: ProjectLayout) -> str:
    """Changes when module resolution may change, so every file must be re-resolved."""
    return hashlib.sha1(repr(layout).encode()).hexdigest()
