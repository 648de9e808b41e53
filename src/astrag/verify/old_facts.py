"""The facts of changed files' versions the index does not hold, kept between checks.

Finding what a change breaks elsewhere needs each changed file's old version (``HEAD``'s)
as facts. Once the index has been refreshed after the edit it holds only the new version,
so every ``check --changed`` re-parsed the old ones: half of its time. The old version of a
file stays the same across an agent's many edits and checks until the next commit, and a
check that leaves the index stale (it covers every file the index lacks) meets the same new
versions again on the next check, so both are kept in the index directory, one small file
per (path, content), under a folder
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
from astrag.store.base import GraphStore
from astrag.store.codec import FACTS_FORMAT, decode_facts, encode_facts

FOLDER = "check-old-facts"
MAX_ENTRIES = 2000  # ~ a few MB; the oldest half goes when it is full
# more stale files than this is a branch switch or a pull, not an edit being checked
MAX_KEPT = 200


class OldFacts:
    def __init__(self, index_dir: Path | None) -> None:
        self.top = index_dir / FOLDER if index_dir is not None else None
        self.folder = self.top / f"{FACTS_FORMAT}-{extractor_fingerprint()}" if self.top else None

    def facts(self, path: str, text: str) -> FileFacts:
        """The facts of ``text`` as the file ``path``: from the cache, else extracted (and
        kept for the next check)."""
        source = text.encode("utf-8")
        found = self.lookup(path, source)
        if found is not None:
            return found
        facts = extract_facts(path, source, parse_file(path, source))
        self.keep(path, content_hash(source), facts)
        return facts

    def lookup(self, path: str, source: bytes) -> FileFacts | None:
        """The kept facts of ``source`` as the file ``path``, if any (a torn or foreign
        entry is no entry)."""
        entry = self._entry(path, source)
        if entry is None:
            return None
        with contextlib.suppress(Exception):
            found = decode_facts(entry.read_bytes())
            if found.path == path:
                return found
        return None

    def keep(self, path: str, hash_: str, facts: FileFacts) -> None:
        """Keep the facts of the version of ``path`` whose content hash is ``hash_``."""
        entry = self._entry_of(path, hash_)
        if entry is not None:
            self._store(entry, encode_facts(facts))

    def _entry(self, path: str, source: bytes) -> Path | None:
        return self._entry_of(path, content_hash(source))

    def _entry_of(self, path: str, hash_: str) -> Path | None:
        if self.folder is None:
            return None
        key = hashlib.blake2b(f"{path}\0{hash_}".encode(), digest_size=16)
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


def keep_indexed_versions(store: GraphStore, stale: list[str]) -> None:
    """Before a refresh replaces them, the index's facts of the stale files, kept as their
    old versions: the first ``check --changed`` after an edit then parses none of them
    (``HEAD``'s version is the indexed one, unless the index was refreshed since)."""
    index_dir = getattr(store, "index_dir", None)
    if index_dir is None or len(stale) > MAX_KEPT:
        return
    if not store.meta().get("extractor", "").startswith(extractor_fingerprint()):
        return  # facts of another extractor: the refresh re-extracts everything anyway
    records = store.file_records()
    indexed = [path for path in stale if path in records]
    if not indexed:
        return
    cache = OldFacts(Path(index_dir))
    for path, facts in store.load_facts(indexed).items():
        cache.keep(path, records[path].hash, facts)
