"""``astrag watch``: keep one repository's index fresh as a standalone process, with the same
stat scan the MCP server runs before each answer, and one line per update."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from astrag import api
from astrag.errors import AstragError
from astrag.indexer import IndexSummary
from astrag.serve.freshness import Status
from astrag.serve.state import RepoState

Emit = Callable[[dict[str, object]], None]


def _update(root: Path, changes: int) -> IndexSummary:
    # a plain single-threaded process: the indexer may fork parsers on every core
    return api.index(root)


def watch(
    root: Path,
    emit: Emit,
    *,
    interval: float = 0.5,
    should_stop: Callable[[], bool] = lambda: False,
) -> None:
    """Index ``root`` (incrementally), then re-check every ``interval`` seconds and emit an
    event for each update: ``{"event": "ready" | "update" | "stale" | "error", ...}``."""
    state = RepoState(root, updater=_update)
    status = state.open()
    counts = state.index.store.counts()
    emit(
        {
            "event": "ready",
            "root": str(state.root),
            "files": counts.get("files", 0),
            "index": status.to_json(),
        }
    )
    try:
        while not should_stop():
            time.sleep(interval)
            try:
                status = state.ensure_fresh()
            except AstragError as error:
                emit({"event": "error", "message": error.message, "hint": error.hint})
                continue
            if not status.fresh:
                emit({"event": "stale", "index": status.to_json()})
            elif status.updated_files:
                emit({"event": "update", "index": status.to_json()})
    finally:
        state.close()


def describe(event: dict[str, object]) -> str:
    """One human line for an event."""
    clock = time.strftime("%H:%M:%S")
    kind = event.get("event")
    index = event.get("index") or {}
    assert isinstance(index, dict)
    if kind == "ready":
        return f"{clock} watching {event['root']} ({event['files']} files indexed)"
    if kind == "error":
        return f"{clock} error: {event['message']} ({event['hint']})"
    if kind == "stale":
        return f"{clock} stale: {index.get('note')}"
    files = list(index.get("updated_files") or [])
    shown = ", ".join(files[:8]) + (f" and {len(files) - 8} more" if len(files) > 8 else "")
    return f"{clock} updated {len(files)} file(s) in {index.get('update_ms', 0):.0f} ms: {shown}"


def status_line(status: Status) -> str:
    return describe({"event": "update", "index": status.to_json()})
