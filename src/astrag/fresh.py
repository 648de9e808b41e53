"""Answer from a fresh index, or say plainly that it is stale: what every query face runs first.

The MCP server keeps a warm baseline and checks it before each answer (``serve/state.py``); a
command-line query starts cold, so it compares the disk with the index's own records instead
(``serve/freshness.drift_since``): one ``stat`` per indexed file and tracked directory, tens of
milliseconds on a 300k-line repository. When something changed, the index is brought up to date
first (an ordinary incremental run) — or, when refreshing is off (``--no-refresh``,
``ASTRAG_NO_REFRESH=1``), the answer comes from the index as it is and the caller is told which
paths it does not reflect.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from astrag.config import load_config
from astrag.serve.freshness import drift_since
from astrag.store.base import GraphStore, IndexLocked

ENV_NO_REFRESH = "ASTRAG_NO_REFRESH"
_SHOWN = 5  # paths named in a stale warning


@dataclass(slots=True)
class Freshness:
    """How an answer's index relates to the disk."""

    stale: list[str] = field(default_factory=list)  # paths the index does not reflect
    updated: list[str] = field(default_factory=list)  # re-indexed before answering
    note: str = ""  # why it is stale, when it is

    @property
    def fresh(self) -> bool:
        return not self.stale

    def warning(self) -> str:
        """One line for stderr when the answer comes from a stale index, else ''."""
        if self.fresh:
            return ""
        shown = ", ".join(self.stale[:_SHOWN])
        more = f" and {len(self.stale) - _SHOWN} more" if len(self.stale) > _SHOWN else ""
        why = f" ({self.note})" if self.note else ""
        return (
            f"the index is stale: {len(self.stale)} path(s) changed since it was built "
            f"({shown}{more}){why}; answering from it as it is"
        )


def refresh_wanted(refresh: bool | None) -> bool:
    if refresh is not None:
        return refresh
    return os.environ.get(ENV_NO_REFRESH, "").strip().lower() in ("", "0", "false", "no")


def stale_paths(root: Path, store: GraphStore, index_dir: str) -> list[str]:
    """Repository paths (files, or directories that gained or lost entries) that changed
    since the index was built."""
    since = store.meta().get("scanned_at_ns", "")
    drift = drift_since(root, store.file_records(), int(since) if since.isdigit() else 0, index_dir)
    return sorted({*drift.modified, *drift.deleted, *(d or "." for d in drift.dirs)})


# what a caller does with the index's versions of the stale paths before they are replaced
BeforeUpdate = Callable[[GraphStore, list[str]], None]


def bring_up_to_date(
    root: Path,
    store: GraphStore,
    *,
    refresh: bool | None = None,
    store_url: str | None = None,
    before_update: BeforeUpdate | None = None,
) -> Freshness:
    """Check ``store`` (open, read-only) against the disk; re-index what changed unless
    refreshing is off (``before_update`` sees the stale paths first, while the index still
    holds their old versions). The caller reopens its index afterwards when ``updated`` is
    set (a rebuild may have replaced the generation it reads; ``reopen_if_replaced`` follows
    it)."""
    stale = stale_paths(root, store, load_config(root).index_dir)
    if not stale:
        return Freshness()
    if not refresh_wanted(refresh):
        return Freshness(stale, note="refreshing is off: run `astrag index` to update it")
    if before_update is not None:
        before_update(store, stale)
    from astrag.indexer import index_repository  # heavy (numpy, embedders): only to re-index

    try:
        index_repository(root, store_url=store_url)
    except IndexLocked:
        return Freshness(stale, note="another astrag index run is updating it right now")
    store.reopen_if_replaced()
    return Freshness(updated=stale)
