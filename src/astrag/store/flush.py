"""A growing database file's written pages sent to the disk while the writer goes on.

A cold index writes its new generation (medusa: 145 MB) in one transaction, and the kernel keeps
those pages in memory (it writes dirty pages back after 30 s, or past a share of RAM): the
commit's ``fdatasync`` then waited for all of them, 0.1 s after the last edges, with nothing
else left to run. Synced from a thread each time the file has grown by a few MiB, the pages
go to the disk while the writer still works (the thread waits in the kernel, without the
GIL), and the commit syncs only the last ones. Durability is the commit's, as before: these
syncs only make it cheaper.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from types import TracebackType

STEP_BYTES = 16 << 20  # grown this much since the last sync: sync again


class BackgroundFlush:
    """Use as a context manager around the writes; :meth:`poke` after each batch."""

    def __init__(self, path: Path, step: int = STEP_BYTES) -> None:
        self._fd = os.open(path, os.O_RDONLY)
        self._step = step
        self._synced = os.fstat(self._fd).st_size  # the size the last sync began at
        self._wanted = threading.Event()
        self._stop = False
        # started with the first sync: the indexer forks its parser processes after the store
        # begins its transaction, and a fork copies only the thread that forks
        self._thread: threading.Thread | None = None

    def poke(self) -> None:
        """Sync in the background if the file has grown a step since the last sync."""
        size = os.fstat(self._fd).st_size
        if size - self._synced < self._step:
            return
        self._synced = size
        self._wanted.set()  # a sync under way takes this with it, or another starts
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="astrag-flush", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            self._wanted.wait()
            self._wanted.clear()
            if self._stop:
                return
            try:
                os.fdatasync(self._fd)
            except OSError:  # only ever an optimisation: the commit's own sync decides
                return

    def close(self) -> None:
        """Stop syncing (a sync under way is waited for: no thread outlives the write)."""
        self._stop = True
        self._wanted.set()
        if self._thread is not None:
            self._thread.join()
        os.close(self._fd)

    def __enter__(self) -> BackgroundFlush:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
