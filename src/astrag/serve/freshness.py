"""Notice, cheaply enough to do before every answer, whether the files on disk still match the
index, and say which ones do not.

Options measured on typeorm (3,571 files, 300k lines, 2 shared cores; docs/BENCHMARKS.md,
"MCP server"):

- ``discover()`` (git listing or a gitignore-honouring walk, one lstat per file): 150-230 ms,
  and a no-op ``api.index`` around it ~500 ms. Too slow to run per call.
- a file watcher (``watchfiles``, inotify): ~15 ms from write to event, but the event arrives
  on another thread *after* the write; a tool call made right after the agent's own edit can
  run before it and answer from the old graph. It would also need a watch on every directory,
  ``node_modules`` included, since it cannot exclude subtrees.
- a stat scan of the indexed files plus the directories a walk would enter: ~30 ms, and
  synchronous, so an answer never predates an edit that finished before the call.

So: a stat scan per call. A file whose size or mtime differs from its index record was edited
(or reverted, or rewritten by a branch switch); one that fails to stat was deleted; a file
added changes its directory's mtime (a new directory changes its parent's). Only when the scan
finds something does the indexer run; it then discovers with the real gitignore rules and
content hashes, so a false alarm (a directory that only gained an ignored file) costs one
no-op index run and never a wrong answer.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from astrag.discover import OUTPUT_DIR_NAMES, SKIP_DIR_NAMES, is_candidate
from astrag.store.base import FileRecord

# A walk that would enter more directories than this (a monorepo with generated trees) tracks
# only the directories that hold indexed files, to keep the scan within its budget.
MAX_WALKED_DIRS = 50_000


@dataclass(frozen=True, slots=True)
class Drift:
    """What a scan found different from the baseline."""

    modified: tuple[str, ...] = ()  # repo-relative paths whose size or mtime changed
    deleted: tuple[str, ...] = ()  # indexed paths that no longer stat
    dirs: tuple[str, ...] = ()  # directories whose entries changed (files added or removed)

    def __bool__(self) -> bool:
        return bool(self.modified or self.deleted or self.dirs)

    @property
    def size(self) -> int:
        return len(self.modified) + len(self.deleted) + len(self.dirs)


@dataclass(slots=True)
class Baseline:
    """The disk state the index stands for: each indexed file's recorded size and mtime, and
    each tracked directory's mtime when the baseline was taken."""

    root: Path
    files: list[tuple[str, str, int, int]] = field(default_factory=list)  # rel, full, size, mtime
    dirs: list[tuple[str, str, int]] = field(default_factory=list)  # rel, full, mtime
    hashes: dict[str, str] = field(default_factory=dict)  # rel -> content hash, to diff updates
    stamp: str = ""  # the index's ``indexed_at`` meta when taken: another writer changes it


def take_baseline(
    root: Path, records: Mapping[str, FileRecord], stamp: str, index_dir: str = ".astrag"
) -> Baseline:
    """The baseline for an index whose file records are ``records``.

    File sizes and mtimes come from the records, not from a fresh stat: a file edited after the
    indexer read it but before this call must still count as changed.
    """
    prefix = str(root) + os.sep
    files = [(rel, prefix + rel, r.size, r.mtime_ns) for rel, r in records.items()]
    dirs = []
    for rel in tracked_dirs(root, records, index_dir):
        full = prefix + rel if rel else str(root)
        try:
            dirs.append((rel, full, os.stat(full).st_mtime_ns))
        except OSError:
            continue
    return Baseline(root, files, dirs, {rel: r.hash for rel, r in records.items()}, stamp)


def scan(baseline: Baseline) -> Drift:
    """Stat every indexed file and tracked directory; what differs from ``baseline``."""
    stat = os.stat  # bound once: this loop is the whole cost of a freshness check
    modified: list[str] = []
    deleted: list[str] = []
    for rel, full, size, mtime in baseline.files:
        try:
            st = stat(full)
        except OSError:
            deleted.append(rel)
            continue
        if st.st_mtime_ns != mtime or st.st_size != size:
            modified.append(rel)
    dirs: list[str] = []
    for rel, full, mtime in baseline.dirs:
        try:
            if stat(full).st_mtime_ns != mtime:
                dirs.append(rel)
        except OSError:
            dirs.append(rel)
    return Drift(tuple(modified), tuple(deleted), tuple(dirs))


def drift_since(
    root: Path, records: Mapping[str, FileRecord], since_ns: int, index_dir: str = ".astrag"
) -> Drift:
    """What changed on disk since an index run that scanned the tree at ``since_ns`` (for a
    process that holds no warm baseline, as the CLI): files against their records, and
    directories whose mtime is later than the scan (entries added or removed). ``since_ns``
    0 (an index from before the scan time was kept) checks the files only."""
    files = [(rel, f"{root}{os.sep}{rel}", r.size, r.mtime_ns) for rel, r in records.items()]
    drift = scan(Baseline(root, files))
    if not since_ns:
        return drift
    known: dict[str, set[str]] = {}
    for rel in records:
        parent, _, name = rel.rpartition("/")
        known.setdefault(parent, set()).add(name)
    changed = []
    for rel in tracked_dirs(root, records, index_dir):
        full = os.path.join(root, rel) if rel else str(root)
        try:
            if os.stat(full).st_mtime_ns <= since_ns:
                continue
            # touched since the scan: did it gain or lose a file astrag would index? (not the
            # index folder being created, a README, an editor's swap file)
            with os.scandir(full) as entries:
                sources = {e.name for e in entries if is_candidate(e.name) and e.is_file()}
        except OSError:
            changed.append(rel)
            continue
        if sources != known.get(rel, set()):
            changed.append(rel)
    return Drift(drift.modified, drift.deleted, tuple(changed))


def tracked_dirs(root: Path, indexed: Iterable[str], index_dir: str = ".astrag") -> list[str]:
    """Repo-relative directories whose mtime reveals an added or removed file: every directory
    a walk enters (skipping what ``discover`` always skips), so new code in a directory that had
    none is seen too, plus every ancestor of an indexed file (``include`` may reach into
    skipped directories)."""
    found: set[str] = {""}
    for rel in indexed:
        parts = rel.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            found.add("/".join(parts[:i]))
    walked = _walk_dirs(root, index_dir.strip("/"))
    if walked is not None:
        found.update(walked)
    return sorted(found)


def _walk_dirs(root: Path, index_dir: str) -> list[str] | None:
    """Directories under ``root`` a discovery walk would enter; None past MAX_WALKED_DIRS."""
    out: list[str] = []
    stack = [""]
    base = str(root)
    while stack:
        rel = stack.pop()
        try:
            with os.scandir(os.path.join(base, rel) if rel else base) as entries:
                children = [e for e in entries if e.is_dir(follow_symlinks=False)]
        except OSError:
            continue
        for entry in children:
            child = f"{rel}/{entry.name}" if rel else entry.name
            if _skipped_dir(entry.name, entry.path, child, index_dir):
                continue
            out.append(child)
            if len(out) > MAX_WALKED_DIRS:
                return None
            stack.append(child)
    return out


def _skipped_dir(name: str, full: str, rel: str, index_dir: str) -> bool:
    # the same always-skipped directories as discover.py; its gitignore rules are left to the
    # indexer (a skipped-by-gitignore directory here only costs a no-op update when it changes)
    if name in SKIP_DIR_NAMES or rel == index_dir:
        return True
    if name in OUTPUT_DIR_NAMES and not os.path.exists(os.path.join(full, "__init__.py")):
        return True
    return os.path.exists(os.path.join(full, "pyvenv.cfg"))


def changed_paths(before: Mapping[str, str], after: Mapping[str, str]) -> list[str]:
    """Paths added, removed or re-hashed between two ``path -> hash`` maps."""
    paths = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
    return sorted(paths)


@dataclass(slots=True)
class Status:
    """How fresh an answer is; rendered into every answer as ``"index": {...}``."""

    fresh: bool
    indexed_at: str  # ISO 8601 (UTC) of the last index run that changed something
    checked_ms: float  # the whole check, including any update it ran
    updated_files: list[str] = field(default_factory=list)  # changed in the index by this check
    update_ms: float | None = None  # time spent updating, when an update ran
    note: str = ""  # why the index may be stale, when it is

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "fresh": self.fresh,
            "indexed_at": self.indexed_at,
            "checked_ms": round(self.checked_ms, 2),
            "updated_files": self.updated_files,
        }
        if self.update_ms is not None:
            data["update_ms"] = round(self.update_ms, 1)
        if self.note:
            data["note"] = self.note
        return data


def iso_time(stamp: str) -> str:
    """``indexed_at`` meta (seconds since the epoch, as text) as ISO 8601 UTC."""
    try:
        moment = datetime.fromtimestamp(float(stamp), tz=UTC)
    except (TypeError, ValueError, OverflowError, OSError):
        return ""
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def elapsed_ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000
