"""Persistence of the index behind one small interface (:class:`GraphStore`).

``sqlite.py`` is the default embedded store; a PostgreSQL store will implement the same protocol.
"""

from astrag.store.base import (
    FileRecord,
    GraphStore,
    IndexCorrupt,
    IndexIncompatible,
    IndexLocked,
    IndexMissing,
    IndexUpdate,
    StoreError,
)
from astrag.store.sqlite import SCHEMA_VERSION, SqliteStore

__all__ = [
    "SCHEMA_VERSION",
    "FileRecord",
    "GraphStore",
    "IndexCorrupt",
    "IndexIncompatible",
    "IndexLocked",
    "IndexMissing",
    "IndexUpdate",
    "SqliteStore",
    "StoreError",
]
