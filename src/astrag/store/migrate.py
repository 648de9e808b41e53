"""Copy an index from one store to another (SQLite <-> PostgreSQL), nothing re-parsed.

Everything an index holds is read through the stores' own interfaces and written as one
:class:`IndexUpdate` — one transaction, so the destination shows the old index or the whole
copy — then the vector cache in a second one. Files keep their insertion order and edges
theirs, so graph walks and contexts answer the same from the copy. Integer ids are the
destination's own (assigned as its indexer would); the only consequence is the order of
exactly tied dense-search scores at the cut-off, which search/vectors.py does not pin either.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from astrag.store.base import GraphStore, IndexUpdate

# keys each store manages itself (SQLite keeps its summary counts as "counts")
_RESERVED = frozenset({"schema_version", "facts_format", "counts"})


@dataclass(slots=True)
class Copied:
    files: int = 0
    symbols: int = 0
    edges: int = 0
    docs: int = 0
    vectors: int = 0


def copy_index(source: GraphStore, target: GraphStore) -> Copied:
    """Replace ``target``'s index by ``source``'s. Both open; ``target`` is locked here."""
    src: Any = source  # the copy helpers (facts_blob, all_depends, all_docs) are on both stores
    with source.snapshot():
        records = source.file_records()
        files = tuple((r, src.facts_blob(p)) for p, r in records.items())
        symbols = source.all_symbols()
        edges = source.all_edges()
        depends = src.all_depends()
        docs = src.all_docs()
        ids, blobs = source.vectors()
        meta = source.meta()
    by_id = dict(zip(ids, blobs, strict=True))
    vectors = {d.hash: by_id[d.id] for d in docs if d.id in by_id}
    real = tuple(s for s in symbols if s.path)
    paths = tuple(records)
    update = IndexUpdate(
        files=files,
        symbols_for=paths,
        symbols=real,
        edges_for=paths,
        edges=tuple(edges),
        placeholders=tuple(s for s in symbols if not s.path),
        depends=depends,
        docs_for=paths,
        docs=tuple(docs),
        meta={k: v for k, v in meta.items() if k not in _RESERVED},
    )
    with target.acquire_writer():
        target.close()
        target.start_fresh()  # written beside the target's index, swapped in when whole
        target.open()
        target.apply(update)
        vector_meta = {k: meta[k] for k in ("embedder", "embedder_spec") if k in meta}
        target.put_vectors(sorted(vectors.items()), clear=True, meta=vector_meta)
        index_vectors = getattr(target, "index_vectors", None)  # the server's HNSW index
        if index_vectors is not None:
            index_vectors()
        target.publish()
    return Copied(len(files), len(real), len(edges), len(docs), len(vectors))
