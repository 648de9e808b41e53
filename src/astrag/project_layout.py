"""Read what a project's configuration files say about module resolution, room by room.

The I/O edge for :class:`astrag.graph.modules.ProjectLayout`: each language room that has such
files (TypeScript: ``tsconfig.json`` paths and ``package.json`` workspace packages) reads them
through its own ``layout.py`` and returns pure data. Broken or unreadable config files are
skipped: a bad config must not stop indexing, it only costs the aliases it would have provided.

Reading them costs a re-index that changed nothing a fifth of its time on a large monorepo
(medusa: ~190 package.json/tsconfig.json files, 0.17 s), so :func:`read_layout_noting` also
returns what the layout was read from — the source paths, the stat of every config file read
and the mtime of every source directory (a config file appearing or going changes it; an edit
in place does not, which the file's own stat shows) — and :func:`layout_unchanged` tells from
that alone whether reading again could give a different layout.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path

from astrag import config_reads
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


def read_layout_noting(root: Path, paths: Iterable[str]) -> tuple[ProjectLayout, str]:
    """:func:`read_layout`, and what it was read from (JSON, for :func:`layout_unchanged`)."""
    listed = sorted(paths)
    with config_reads.noting() as noted:
        layout = read_layout(root, listed)
    inputs = {"paths": _digest(listed), "dirs": _dir_mtimes(root, listed), "files": noted}
    return layout, json.dumps(inputs, sort_keys=True)


def layout_unchanged(root: Path, paths: Iterable[str], inputs: str) -> bool:
    """Whether the layout of ``paths`` is the one noted in ``inputs`` (from
    :func:`read_layout_noting`): same source paths, every file read with the same stat,
    every source directory with the same mtime. False when ``inputs`` is empty or unreadable."""
    try:
        noted = json.loads(inputs)
        listed = sorted(paths)
        if noted["paths"] != _digest(listed):
            return False
        if noted["dirs"] != _dir_mtimes(root, listed):
            return False
        files = noted["files"]
        return all(
            config_reads.stat_of(path) == (tuple(stat) if stat else None)
            for path, stat in files.items()
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        return False


def _digest(paths: list[str]) -> str:
    return hashlib.blake2b("\0".join(paths).encode(), digest_size=16).hexdigest()


def _dir_mtimes(root: Path, paths: list[str]) -> dict[str, int | None]:
    """mtime_ns of every directory holding a source path and of its ancestors ("" the root)."""
    base = str(root)
    out: dict[str, int | None] = {}
    for d in sorted(config_reads.source_dirs(paths)):
        try:
            out[d] = os.stat(os.path.join(base, d) if d else base).st_mtime_ns
        except OSError:
            out[d] = None
    return out
