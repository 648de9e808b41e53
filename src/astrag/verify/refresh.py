"""Whether a check from the command line must bring the index up to date first.

A check lays the change over the index: the files it writes or deletes are read from the
change, every other file from the index. So when everything the index does not reflect is a
file the change covers (an agent edited some files and checks them: ``check --changed``), the
index is good as it is and re-indexing first would only cost time (an incremental run of ten
files is a second of CPU; the check itself less). Otherwise stale files outside the change
would be judged in their old versions: the index is brought up to date, and the versions the
refresh replaces are kept as old versions for the check (``old_facts.keep_indexed_versions``).
"""

from __future__ import annotations

from pathlib import Path

from astrag.config import load_config
from astrag.fresh import Freshness, bring_up_to_date, stale_paths
from astrag.store.base import GraphStore
from astrag.verify.inputs import ChangeSet
from astrag.verify.old_facts import keep_indexed_versions


def fresh_for(root: Path, store: GraphStore, change: ChangeSet) -> Freshness:
    """Bring the index of ``root`` up to date unless ``change`` covers all it lacks; what
    is still stale afterwards (refreshing off, another run holding the index) is returned."""
    stale = stale_paths(root, store, load_config(root).index_dir)
    if not stale or covers(change, stale):
        return Freshness()
    return bring_up_to_date(root, store, before_update=keep_indexed_versions)


def covers(change: ChangeSet, stale: list[str]) -> bool:
    """Every stale path is a file the change writes or deletes, or a directory holding one
    (a directory is stale when files in it were added, removed or replaced)."""
    files = {c.path for c in change.changed} | set(change.deleted)
    files |= {c.old_path for c in change.changed if c.old_path}
    return all(
        path in files or path == "." or any(f.startswith(path + "/") for f in files)
        for path in stale
    )
