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

A run that edits a source file in place but no config file (the usual edit) still resolves, so
it needs the layout itself, not only the knowledge that it did not change: the noted inputs
also hold the layout, pickled, and :func:`stored_layout` hands it back instead of reading the
config files again (medusa: 0.035 s of reading against ~0.01 s of checking). What it unpickles
is checked twice: only astrag's own dataclasses may be built, and the result must have the
fingerprint the index was resolved with, so a stored layout is used only when it is the very
one reading would give.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import io
import json
import os
import pickle
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
    inputs = {
        "paths": _digest(listed),
        "dirs": _dir_mtimes(root, listed),
        "files": noted,
        "layout": base64.b64encode(pickle.dumps(layout, pickle.HIGHEST_PROTOCOL)).decode(),
    }
    return layout, json.dumps(inputs, sort_keys=True)


def layout_unchanged(root: Path, paths: Iterable[str], inputs: str) -> bool:
    """Whether the layout of ``paths`` is the one noted in ``inputs`` (from
    :func:`read_layout_noting`): same source paths, every file read with the same stat,
    every source directory with the same mtime. False when ``inputs`` is empty or unreadable."""
    return _unchanged_inputs(root, paths, inputs) is not None


def stored_layout(
    root: Path, paths: Iterable[str], inputs: str, fingerprint: str
) -> ProjectLayout | None:
    """The layout noted in ``inputs`` when :func:`layout_unchanged` holds and it is the one
    whose :func:`layout_fingerprint` is ``fingerprint`` (what the index was resolved with);
    else None, and the caller reads the config files again."""
    noted = _unchanged_inputs(root, paths, inputs)
    if noted is None or not fingerprint:
        return None
    try:
        layout = _LayoutUnpickler(io.BytesIO(base64.b64decode(noted["layout"]))).load()
    except Exception:  # absent (an older index), truncated, or not a layout: read again
        return None
    if not isinstance(layout, ProjectLayout) or layout_fingerprint(layout) != fingerprint:
        return None
    return layout


def _unchanged_inputs(root: Path, paths: Iterable[str], inputs: str) -> dict | None:
    """``inputs`` decoded when they still hold (see :func:`layout_unchanged`), else None."""
    try:
        noted = json.loads(inputs)
        listed = sorted(paths)
        if noted["paths"] != _digest(listed):
            return None
        if noted["dirs"] != _dir_mtimes(root, listed):
            return None
        files = noted["files"]
        same = all(
            config_reads.stat_of(path) == (tuple(stat) if stat else None)
            for path, stat in files.items()
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    return noted if same and isinstance(noted, dict) else None


class _LayoutUnpickler(pickle.Unpickler):
    """Builds astrag's own dataclasses (the rooms' layouts) and plain values, nothing else: the
    index may sit in a directory others can write to."""

    def find_class(self, module: str, name: str) -> type:
        if module == "astrag" or module.startswith("astrag."):
            found = super().find_class(module, name)
            if isinstance(found, type) and dataclasses.is_dataclass(found):
                return found
        raise pickle.UnpicklingError(f"not a layout class: {module}.{name}")


def _digest(paths: list[str]) -> str:
    return hashlib.blake2b("\0".join(paths).encode(), digest_size=16).hexdigest()


def _dir_mtimes(root: Path, paths: list[str]) -> dict[str, int | None]:
    """mtime_ns of every directory holding a source path and of its ancestors ("" the root)."""
    base = str(root)
    prefix = os.path.join(base, "")
    out: dict[str, int | None] = {}
    for d in sorted(config_reads.source_dirs(paths)):
        try:
            out[d] = os.stat(prefix + d if d else base).st_mtime_ns
        except OSError:
            out[d] = None
    return out
