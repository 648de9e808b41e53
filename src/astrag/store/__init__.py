"""Persistence of the index behind one small interface (:class:`GraphStore`).

``sqlite.py`` is the default embedded store; ``postgres.py`` the server store (imported only when
used, so psycopg stays optional); ``open.py`` picks one from ``--store`` / env / config.
"""

from astrag.store.base import (
    FileRecord,
    GraphStore,
    IndexCorrupt,
    IndexIncompatible,
    IndexLocked,
    IndexMissing,
    IndexOutdated,
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
    "IndexOutdated",
    "IndexUpdate",
    "SqliteStore",
    "StoreError",
]
