"""The web view's routes: each one checks its arguments, makes the index fresh (the MCP
server's freshness check, :meth:`RepoState.ensure_fresh`) and renders one page of
:mod:`astrag.web.pages`, on the one worker thread that owns the repository's warm state.

Every answer carries ``Server-Timing`` (``fresh``: the freshness check, ``page``: the API calls
and rendering), which is what the speed benchmark reads.
"""

from __future__ import annotations

import asyncio
import sys
import time
import traceback
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from astrag.errors import AstragError
from astrag.serve import tools
from astrag.serve.freshness import Status
from astrag.serve.state import RepoState
from astrag.web import pages
from astrag.web.guard import Guard

DEFAULT_BUDGET = 8000
MAP_BUDGET = 4000


class Worker:
    """The one thread that touches the repository's state (SQLite connections belong to the
    thread that opened them; updates must not interleave)."""

    def __init__(self, state: RepoState) -> None:
        self.state = state
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="astrag-web")

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.wrap_future(self.pool.submit(fn, *args))

    def shutdown(self) -> None:
        self.pool.submit(self.state.close)
        self.pool.shutdown(wait=True, cancel_futures=True)


def _timed(state: RepoState, fn: Callable[..., Any], args: Iterable[Any]) -> tuple[Any, str]:
    """Run one page on the worker: the freshness check, then the page; both timed."""
    started = time.perf_counter()
    status = state.ensure_fresh()
    checked = time.perf_counter()
    result = fn(state.index, status, *args)
    done = time.perf_counter()
    timing = (
        f"fresh;dur={(checked - started) * 1000:.2f}, page;dur={(done - checked) * 1000:.2f}, "
        f"total;dur={(done - started) * 1000:.2f}"
    )
    return result, timing


class Views:
    """The route handlers; thin: arguments in, one page out."""

    def __init__(self, worker: Worker) -> None:
        self.worker = worker

    async def _page(self, fn: Callable[..., pages.Page], *args: Any) -> Response:
        try:
            page, timing = await self.worker.run(_timed, self.worker.state, fn, args)
        except AstragError as error:
            return _error_response(400, error.message, error.hint)
        except Exception as error:  # a bug costs one page, never the server
            traceback.print_exc(file=sys.stderr)
            self.worker.pool.submit(self.worker.state.close)  # reopened by the next page
            return _error_response(500, f"internal error: {type(error).__name__}", str(error))
        headers = {"server-timing": timing, "cache-control": "no-store"}
        if page.location:
            return RedirectResponse(page.location, status_code=303, headers=headers)
        return HTMLResponse(page.html, status_code=page.status, headers=headers)

    async def home(self, request: Request) -> Response:
        return RedirectResponse("/search", status_code=303)

    async def search(self, request: Request) -> Response:
        q = request.query_params.get("q", "")
        if q:
            try:
                q = tools.query_argument(q)
            except AstragError as error:
                return _error_response(400, error.message, error.hint)
        return await self._page(pages.search, q)

    async def search_json(self, request: Request) -> Response:
        try:
            q = tools.query_argument(request.query_params.get("q", ""))
            data, timing = await self.worker.run(_timed, self.worker.state, _search_data, (q,))
        except AstragError as error:
            return JSONResponse(
                {"error": type(error).__name__, "message": error.message, "hint": error.hint},
                status_code=400,
            )
        return JSONResponse(data, headers={"server-timing": timing, "cache-control": "no-store"})

    async def status(self, request: Request) -> Response:
        data, timing = await self.worker.run(_timed, self.worker.state, _status_data, ())
        return JSONResponse(data, headers={"server-timing": timing, "cache-control": "no-store"})

    async def symbol(self, request: Request) -> Response:
        try:
            ref = tools.symbol_argument(request.path_params["ref"])
        except AstragError as error:
            return _error_response(400, error.message, error.hint)
        return await self._page(pages.symbol, ref)

    async def file(self, request: Request) -> Response:
        try:
            path = tools.confined(self.worker.state.root, request.path_params["path"])
        except AstragError as error:
            return _error_response(400, error.message, error.hint)
        return await self._page(pages.file, path)

    async def index(self, request: Request) -> Response:
        return await self._page(pages.index)

    async def context(self, request: Request) -> Response:
        q = request.query_params.get("q", "")
        try:
            budget = _budget(request, DEFAULT_BUDGET)
            if q:
                q = tools.query_argument(q)
        except AstragError as error:
            return _error_response(400, error.message, error.hint)
        return await self._page(pages.context, q, budget)

    async def repo_map(self, request: Request) -> Response:
        try:
            budget = _budget(request, MAP_BUDGET)
        except AstragError as error:
            return _error_response(400, error.message, error.hint)
        return await self._page(pages.repo_map, budget)


def _search_data(idx: Any, status: Status, q: str) -> dict[str, object]:
    return {**pages.search_data(idx, q), "index": status.to_json()}


def _status_data(idx: Any, status: Status) -> dict[str, object]:
    return {"index": status.to_json()}


def _budget(request: Request, default: int) -> int:
    raw = request.query_params.get("budget", "") or str(default)
    try:
        value = int(raw)
    except ValueError:
        raise tools.ToolInputError(f"budget must be a number, not {raw!r}", "pass 8000") from None
    return tools.int_argument("budget", value, 1, tools.MAX_BUDGET, f"pass {default}")


def _error_response(code: int, message: str, hint: str) -> Response:
    # no index state here (the check itself may be what failed): a plain page, escaped
    status = Status(False, "", 0.0, note="this page could not be answered")
    return HTMLResponse(pages.error(status, code, message, hint).html, status_code=code)


def static_dir() -> Path:
    return Path(str(resources.files("astrag.web").joinpath("static")))


def build_app(worker: Worker, *, hosts: Iterable[str], token: str | None) -> Guard:
    v = Views(worker)
    routes = [
        Route("/", v.home),
        Route("/search", v.search),
        Route("/api/search", v.search_json),
        Route("/api/status", v.status),
        Route("/symbol/{ref:path}", v.symbol),
        Route("/file/{path:path}", v.file),
        Route("/index", v.index),
        Route("/context", v.context),
        Route("/map", v.repo_map),
        Mount("/static", StaticFiles(directory=static_dir()), name="static"),
    ]
    return Guard(Starlette(routes=routes), hosts=hosts, token=token)
