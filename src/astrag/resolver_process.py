"""Resolution in a process of its own, fed each file's facts while the other files still parse.

A cold index run starts this process before parsing, while its own heap is still small. The
indexer forwards each file's facts as the parser processes send them (the codec's blobs,
passed on without being decoded); this process decodes them and builds each file's tables as
they come in, and once told that all are in, resolves every file with one memo and sends each
batch of edges back as plain rows. The indexer meanwhile writes files, facts, symbols and
search documents, then the edges as they arrive.

Why not fork resolver workers from the indexer once parsing is done, as an incremental run
does: a forked worker writes to the pages of the heap it inherited (taking a reference is a
write), so the kernel copied most of a 300 MB heap page by page, and two workers evaluated
what every file consults (a monorepo's barrels, a base class's members) once each; the
indexer also decoded every file's facts for the workers to inherit. With more than two cores
this process forks ``jobs`` workers of its own from its heap of facts and tables.

The project's layout (its config files' module settings) comes last, with the message that
all files are in: the indexer reads it while the parser processes work, not before it starts
them (medusa: 0.1 s off the start-up).

Messages on the two one-way pipes: to the process, the files of one parser chunk together, a
``marshal`` list of (path, blob) pairs (one message per chunk, not per file: medusa's 5,739
files took 5,739 writes and as many wake-ups of this process while the parser processes kept
both cores busy), then an empty message when all are sent and the layout, pickled; from it,
each batch as ``marshal`` bytes (each file's dependency set as ids of the sorted paths
of every file, ``store/depends.py``: the store writes them as they come), an empty message at
the end, or ``!`` and the traceback when it failed. Once all files are sent,
a thread of the indexer reads the batches as they come and keeps them until they are taken:
the indexer writes the parsed files first, and a batch left in the pipe would stop the
resolver (a pipe holds 64 KiB) until it is done.
"""

from __future__ import annotations

import marshal
import os
import pickle
import threading
import traceback
from collections.abc import Iterator
from multiprocessing import get_context
from multiprocessing.connection import Connection
from queue import SimpleQueue

from astrag.graph.facts import FileFacts
from astrag.graph.modules import ProjectLayout
from astrag.graph.run import start_resolution
from astrag.graph.tables import TableCache
from astrag.store.codec import decode_facts
from astrag.store.depends import encode_paths, number, numbering

# per file: its path, its edges as rows (graph/run.py's Shard), the files it consulted as ids
# of the numbering (a list of paths in the unforeseen case of one outside it)
EncodedShard = list[tuple[str, list[tuple], bytes | list[str]]]


class ResolverFailed(RuntimeError):
    """The resolver process raised; the message carries its traceback."""


class ResolverProcess:
    """The process, started at once; :meth:`add` each file, say :meth:`all_added` with the
    layout (or let :meth:`shards` say it, without one), then read :meth:`shards`; :meth:`close`
    in any case."""

    def __init__(self, jobs: int) -> None:
        context = get_context("fork")  # the rooms are loaded already
        inbox, self._to_child = context.Pipe(duplex=False)
        self._from_child, outbox = context.Pipe(duplex=False)
        self._process = context.Process(
            target=_serve, args=(jobs, inbox, outbox), name="astrag-resolver"
        )
        self._process.start()
        inbox.close()  # the child's ends: end-of-file reaches each side when the other goes
        outbox.close()
        self.files = 0
        self._paths: list[str] = []
        self._received: SimpleQueue[bytes | None] = SimpleQueue()  # None: the pipe ended
        self._reader: threading.Thread | None = None

    def add(self, path: str, blob: bytes) -> None:
        """A file's encoded facts (as the codec encodes them)."""
        self.add_all([(path, blob)])

    def add_all(self, files: list[tuple[str, bytes]]) -> None:
        """Files' encoded facts, as (path, blob) pairs, in one message."""
        if files:
            self._to_child.send_bytes(marshal.dumps(files))
            self.files += len(files)
            self._paths.extend(path for path, _ in files)

    def numbering(self) -> tuple[str, ...]:
        """The paths whose ids (``depends.number``) the dependency sets of :meth:`shards` hold:
        every file added (the process numbers its facts' paths alike)."""
        return numbering(self._paths)

    def all_added(self, layout: ProjectLayout | None = None) -> None:
        """No more files: the process resolves them now, under ``layout``, and its batches are
        read as they come (by a thread: the pipe's reads and the caller's writes let go of the
        GIL)."""
        if not self._to_child.closed:
            self._to_child.send_bytes(b"")
            self._to_child.send_bytes(pickle.dumps(layout, pickle.HIGHEST_PROTOCOL))
            self._to_child.close()
        if self._reader is None:
            self._reader = threading.Thread(target=self._read, name="astrag-edges", daemon=True)
            self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                message = self._from_child.recv_bytes()
            except (EOFError, OSError):  # the process died, or close() closed the pipe
                self._received.put(None)
                return
            self._received.put(message)
            if not message or message[:1] == b"!":
                return

    def waiting(self) -> bool:
        """Whether a batch has arrived that :meth:`shards` has not handed on yet."""
        return not self._received.empty()

    def shards(self) -> Iterator[EncodedShard]:
        """Every file added, resolved: each shard's files with their edges as rows and their
        dependency sets as ids of :meth:`numbering`."""
        self.all_added()
        while True:
            message = self._received.get()
            if message is None:
                raise ResolverFailed("the resolver process ended without its edges")
            if not message:
                break
            if message[:1] == b"!":
                raise ResolverFailed(message[1:].decode(errors="replace"))
            yield marshal.loads(message)
        # not joined here: the process is ending on its own, and close() reaps it

    def close(self) -> None:
        """End the process whatever state it is in (after :meth:`shards`, it ends on its own)."""
        self._to_child.close()
        if self._process.is_alive():
            self._process.kill()
        self._process.join()
        if self._reader is not None:
            self._reader.join()  # the pipe ends with the process: its reader sees end-of-file
        self._from_child.close()


def _serve(jobs: int, inbox: Connection, outbox: Connection) -> None:
    try:
        facts: dict[str, FileFacts] = {}
        tables = TableCache(facts)
        while message := inbox.recv_bytes():
            for path, blob in marshal.loads(message):
                facts[path] = decode_facts(blob)
                tables.refresh(path)
        layout: ProjectLayout | None = pickle.loads(inbox.recv_bytes())
        pending = start_resolution(facts, layout, jobs=jobs, tables=tables)
        ids = number(numbering(facts))
        for shard in pending.shards():
            # each file's dependency set sent as ids, which a store written from nothing keeps
            # as they are: the indexer writes them as they come (medusa: 812k paths, 3.2 MB)
            encoded = [(path, rows, _encoded(ids, deps)) for path, rows, deps in shard]
            outbox.send_bytes(marshal.dumps(encoded))
        outbox.send_bytes(b"")
    except BaseException:  # reported to the indexer, which raises it
        outbox.send_bytes(b"!" + traceback.format_exc().encode())
        return
    # Every batch is in the pipe: end now. Returning would free the heap of facts, tables and
    # memo object by object (medusa: 0.1 CPU s) while the indexer, done with the last batch,
    # had nothing else to run; the kernel drops the whole address space at once.
    os._exit(0)


def _encoded(ids: dict[str, int], deps: set[str]) -> bytes | list[str]:
    blob = encode_paths(ids, deps)
    # a file consults only files it was given; were one outside them, its paths go as they are
    return sorted(deps) if blob is None else blob
