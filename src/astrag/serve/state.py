"""One repository kept warm for many questions: the open index, a check session, and the
freshness check that runs before every answer.

Not thread-safe on purpose: SQLite connections belong to the thread that opened them, and one
index update at a time is what the writer lock allows anyway, so the server confines a
:class:`RepoState` to a single worker thread (``server.Worker``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from astrag import api
from astrag.config import load_config
from astrag.errors import AstragError
from astrag.indexer import IndexSummary
from astrag.serve.freshness import (
    Baseline,
    Status,
    changed_paths,
    elapsed_ms,
    iso_time,
    scan,
    take_baseline,
)
from astrag.store.base import IndexCorrupt, IndexIncompatible, IndexLocked, IndexMissing
from astrag.verify.session import CheckSession

# At or above this many changed files (a branch switch, a big rebase) the update runs as a
# separate `astrag index` process: it may fork parser processes on every core, which is not
# safe from a process whose other threads hold I/O locks (the stdio transport's reader).
# Below it, the indexer works in-process on one core, which is faster than a process start.
SUBPROCESS_MIN_CHANGES = 48
LOCK_WAIT_SECONDS = 60.0  # another writer (`astrag watch`, a second server) is usually quick

Updater = Callable[[Path, int], IndexSummary | None]


class RepoState:
    """The warm state of one repository. ``ensure_fresh()`` before each answer."""

    def __init__(self, root: Path, *, updater: Updater | None = None) -> None:
        self.root = root.resolve()
        self.config = load_config(self.root)
        self.updater = updater or update_index
        self._index: api.Index | None = None
        self._check: CheckSession | None = None
        self._baseline: Baseline | None = None

    # ------------------------------------------------------------------ lifecycle

    def open(self) -> Status:
        """Open the index, building or updating it first; the status of the result."""
        started = time.perf_counter()
        try:
            self._index = api.open_index(self.root)
        except (IndexMissing, IndexCorrupt, IndexIncompatible):
            # no index yet, or one the indexer must rebuild: build it, on every core
            self._run_update(SUBPROCESS_MIN_CHANGES)
            self._index = api.open_index(self.root)
        self._rebaseline()
        status = self.ensure_fresh()  # catch up with edits made while no one was watching
        status.checked_ms = elapsed_ms(started)
        return status

    def close(self) -> None:
        if self._index is not None:
            self._index.close()
        self._index = None
        self._check = None
        self._baseline = None

    @property
    def index(self) -> api.Index:
        if self._index is None:
            self.open()
        assert self._index is not None
        return self._index

    @property
    def check_session(self) -> CheckSession:
        """The check session over the current index, rebuilt lazily after an update (its
        facts and lookup tables are those of the index it was made from)."""
        if self._check is None:
            self._check = CheckSession(self.root, self.index.store)
        return self._check

    # ------------------------------------------------------------------ freshness

    def ensure_fresh(self) -> Status:
        """Bring the index up to date with the disk if it is not; say how fresh it is."""
        started = time.perf_counter()
        index = self.index
        baseline = self._baseline
        assert baseline is not None
        # a rebuild another process published is a new generation: read it from now on (the
        # stamp below then differs and its state is adopted)
        index.store.reopen_if_replaced()
        stamp = index.store.meta().get("indexed_at", "")
        if stamp != baseline.stamp:  # another process updated the index: adopt its state
            before = baseline.hashes
            self._adopt()
            baseline = self._baseline
            assert baseline is not None
            adopted = changed_paths(before, baseline.hashes)
        else:
            adopted = []
        drift = scan(baseline)
        if not drift:
            return Status(True, iso_time(stamp), elapsed_ms(started), adopted)
        before = baseline.hashes
        update_started = time.perf_counter()
        try:
            self._run_update(drift.size)
        except IndexLocked:
            return Status(
                False,
                iso_time(stamp),
                elapsed_ms(started),
                adopted,
                note="another astrag index run kept the index locked; answered from the "
                f"index as it was ({drift.size} changed paths not yet indexed)",
            )
        update_ms = elapsed_ms(update_started)
        self._adopt()
        baseline = self._baseline
        assert baseline is not None
        self._settle(baseline)
        updated = sorted(set(adopted) | set(changed_paths(before, baseline.hashes)))
        return Status(
            True, iso_time(baseline.stamp), elapsed_ms(started), updated, update_ms=update_ms
        )

    def _run_update(self, changes: int) -> None:
        waited = 0.0
        while True:
            try:
                summary = self.updater(self.root, changes)
                break
            except IndexLocked:
                if waited >= LOCK_WAIT_SECONDS:
                    raise
                time.sleep(0.1)
                waited += 0.1
        if self._index is not None and (summary is None or summary.rebuilt_because):
            # a rebuild is a new generation our connection would not see by itself
            self._index.store.reopen_if_replaced()

    def _adopt(self) -> None:
        """Take the index's current state: forget cached vectors, symbols and check tables."""
        index = self.index
        index.refresh()
        self._check = None
        self._rebaseline()

    def _rebaseline(self) -> None:
        store = self.index.store
        stamp = store.meta().get("indexed_at", "")
        self._baseline = take_baseline(
            self.root, store.file_records(), stamp, self.config.index_dir
        )

    def _settle(self, baseline: Baseline) -> None:
        """Accept the disk state of files that still differ from their records right after an
        update: the indexer saw them and chose not to change them (a file it now skips, say).
        Without this, every later call would run a pointless update for them."""
        drift = scan(baseline)
        if not drift.modified:
            return
        stale = set(drift.modified)
        for i, (rel, full, _size, _mtime) in enumerate(baseline.files):
            if rel in stale:
                try:
                    st = os.stat(full)
                except OSError:
                    continue
                baseline.files[i] = (rel, full, st.st_size, st.st_mtime_ns)
        # directories were stat'ed after the update by take_baseline: nothing to settle there


def update_index(root: Path, changes: int) -> IndexSummary | None:
    """Run the incremental indexer: in this process on one core for a few changed files, as a
    separate `astrag index` process for many (see SUBPROCESS_MIN_CHANGES)."""
    if changes < SUBPROCESS_MIN_CHANGES:
        return api.index(root, jobs=1)
    command = [sys.executable, "-m", "astrag.cli", "index", str(root), "--format", "json"]
    # stdin closed, stdout captured: the child must never touch an MCP stdio channel
    proc = subprocess.run(
        command, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False
    )
    if proc.returncode == 0:
        return None
    try:
        error = json.loads(proc.stdout)
    except ValueError:
        error = {"message": (proc.stderr or proc.stdout).strip()[-500:]}
    if error.get("error") == "IndexLocked":
        raise IndexLocked(error.get("message", "index locked"), error.get("hint", ""))
    raise AstragError(
        f"updating the index failed: {error.get('message', 'unknown error')}",
        error.get("hint") or f"run `astrag index {root}` to see the full error",
    )
