"""The facts of changed files as they were before the change, kept between checks.

Finding what a change breaks elsewhere needs each changed file's old version (``HEAD``'s)
as facts. Once the index has been refreshed after the edit it holds only the new version,
so every ``check --changed`` re-parsed the old ones: half of its time. The old version of a
file stays the same across an agent's many edits and checks until the next commit, so its
facts are kept in the index directory, one small file per (path, content), under a folder
named after the facts format and the extractor: an upgrade that changes either starts an
empty folder and the old ones are dropped. A file that cannot be read or written is only a
miss: this is a cache, never a source of truth.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
from pathlib import Path

from astrag.discover import content_hash
from astrag.graph.facts import FileFacts
from astrag.lang import extract_facts, extractor_fingerprint, parse_file
from astrag.store.codec import FACTS_FORMAT, decode_facts, encode_facts

FOLDER = "check-old-facts"
MAX_ENTRIES = 2000  # ~ a few MB; the oldest half goes when it is full


class OldFacts:
    def __init__(self, index_dir: Path | None) -> None:
        self.top = index_dir / FOLDER if index_dir is not None else None
        self.folder = self.top / f"{FACTS_FORMAT}-{extractor_fingerprint()}" if self.top else None

    def facts(self, path: str, text: str) -> FileFacts:
        """The facts of ``text`` as the file ``path``: from the cache, else extracted (and
        kept for the next check)."""
        source = text.encode("utf-8")
        entry = self._entry(path, source)
        if entry is not None:
            with contextlib.suppress(Exception):  # a torn or foreign file: re-extract
                found = decode_facts(entry.read_bytes())
                if found.path == path:
                    return found
        facts = extract_facts(path, source, parse_file(path, source))
        if entry is not None:
            self._store(entry, encode_facts(facts))
        return facts

    def _entry(self, path: str, source: bytes) -> Path | None:
        if self.folder is None:
            return None
        key = hashlib.blake2b(f"{path}\0{content_hash(source)}".encode(), digest_size=16)
        return self.folder / key.hexdigest()

    def _store(self, entry: Path, blob: bytes) -> None:
        assert self.folder is not None and self.top is not None
        try:
            if not self.folder.is_dir():
                self._drop_other_versions()
                self.folder.mkdir(parents=True, exist_ok=True)
            temporary = entry.with_name(f"{entry.name}.{os.getpid()}.tmp")
            temporary.write_bytes(blob)
            os.replace(temporary, entry)  # readers see the whole file or none
            self._prune()
        except OSError:
            return  # a read-only index directory: check on without the cache

    def _drop_other_versions(self) -> None:
        assert self.top is not None
        if self.top.is_dir():
            for other in self.top.iterdir():
                if other != self.folder:
                    shutil.rmtree(other, ignore_errors=True)

    def _prune(self) -> None:
        assert self.folder is not None
        entries = list(self.folder.iterdir())
        if len(entries) <= MAX_ENTRIES:
            return
        entries.sort(key=lambda p: p.stat().st_mtime)
        for old in entries[: len(entries) // 2]:
            with contextlib.suppress(OSError):
                old.unlink()
