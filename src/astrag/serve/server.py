"""``astrag mcp``: the tools of :mod:`astrag.serve.tools` behind the official MCP SDK (2.x
``MCPServer``), over stdio or streamable HTTP.

Every call runs on one worker thread that owns the repository's warm state (SQLite
connections belong to their thread; updates must not interleave), so the event loop stays free
to answer the protocol while a call works. A failing call becomes an error result with a
message and a hint; nothing a caller sends can stop the server.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import traceback
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Annotated, Any, Literal

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from astrag import __version__, api, present
from astrag.errors import AstragError
from astrag.serve import guard, tools
from astrag.serve.auth import BearerToken, check_exposure, security_settings
from astrag.serve.state import RepoState

log = logging.getLogger("astrag.serve")

TOKEN_ENV = "ASTRAG_MCP_TOKEN"
HOSTS_ENV = "ASTRAG_MCP_ALLOWED_HOSTS"  # more Host names clients use (a DNS name, a proxy)
DEFAULT_PORT = 8765

INSTRUCTIONS = """\
astrag answers questions about this repository from a symbol graph (definitions, calls,
imports, inheritance) that it keeps in step with the files on disk before every answer.
Start with get_repo_map for an overview, search_symbols or get_context for a question or a
task; use get_outline for a file's definitions, get_symbol, find_references, find_callers,
find_callees and find_implementations to follow the graph by name or id
(path::Qualified.Name). Callers and callees say how each was found: direct, dispatch (through
a method it overrides), alias (a call of a variable holding it) or candidate (an unresolved
call that may be one: unverified). Run
check_code on code you wrote to catch calls, members, imports and arguments the codebase does
not have. Every answer ends with how fresh the index is."""


class Worker:
    """The one thread that touches the repository's state."""

    def __init__(self, state: RepoState) -> None:
        self.state = state
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="astrag-index")

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        return self.pool.submit(fn, self.state, *args)

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.wrap_future(self.submit(fn, *args))

    def warm_up(self) -> None:
        """Open (and if needed build or update) the index now, not on the first call."""

        def done(future: Future[Any]) -> None:
            error = future.exception()
            if error is not None:
                log.warning("astrag: opening the index failed: %s", error)

        self.pool.submit(self.state.open).add_done_callback(done)

    def reset(self) -> None:
        """After an unexpected error: drop the warm state; the next call reopens it."""
        self.pool.submit(self.state.close)


def _text(body: str) -> list[TextContent]:
    return [TextContent(type="text", text=body)]


def _failure(error: AstragError) -> CallToolResult:
    data: dict[str, object] = {
        "error": type(error).__name__,
        "message": error.message,
        "hint": error.hint,
    }
    body = f"error: {error.message}"
    if getattr(error, "suggestions", None):  # an unknown symbol's "did you mean"
        data["suggestions"] = list(error.suggestions)  # type: ignore[attr-defined]
    if isinstance(error, api.AmbiguousSymbol):
        data.update(present.candidates_json(error.query, error.candidates))
        data["error"] = "ambiguous"
        body += "; candidates:\n" + "\n".join(
            f"  {s.id}  ({s.kind} {s.path}:{s.start_line})" for s in error.candidates[:50]
        )
    if error.hint:
        body += f"\nhint: {error.hint}"
    return CallToolResult(content=_text(body), structured_content=data, is_error=True)


class Tools:
    """Adapts :mod:`astrag.serve.tools` to MCP results; one instance per server."""

    def __init__(self, worker: Worker) -> None:
        self.worker = worker

    async def call(self, fn: Callable[..., tools.Answer], *args: Any) -> CallToolResult:
        try:
            answer = await self.worker.run(fn, *args)
        except AstragError as error:
            return _failure(error)
        except Exception as error:  # a bug must cost one call, never the server
            traceback.print_exc(file=sys.stderr)
            self.worker.reset()
            return _failure(
                AstragError(
                    f"internal error: {type(error).__name__}: {error}",
                    "retry the call; if it fails again, report it with the server's stderr",
                )
            )
        return CallToolResult(content=_text(answer.text), structured_content=answer.data)


Query = Annotated[
    str,
    Field(
        description="A question, a task, or names (identifiers, paths) to look for.",
        min_length=1,
        max_length=tools.MAX_QUERY_CHARS,
    ),
]
SymbolRef = Annotated[
    str,
    Field(
        description="A symbol id (path::Qualified.Name), a qualified name (Class.method) or a "
        "plain name; an ambiguous name fails with the list of candidate ids.",
        min_length=1,
        max_length=tools.MAX_SYMBOL_CHARS,
    ),
]
Depth = Annotated[
    int, Field(description="How many hops to follow (1 = direct).", ge=1, le=tools.MAX_DEPTH)
]

READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)


class GuardedServer(MCPServer):
    """The SDK's server with astrag's refusals: arguments no tool can use (see
    :mod:`astrag.serve.guard`) and arguments outside a tool's schema are answered with an
    error result of one line and a hint, like every other refusal."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        refused = guard.argument_problem(arguments)
        if refused is not None:
            return _failure(refused)
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as error:
            if isinstance(error.__cause__, ValidationError):
                return _failure(guard.schema_problem(name, error.__cause__))
            raise


def build_server(worker: Worker) -> MCPServer:
    """The MCP server with astrag's eleven tools registered."""
    server = GuardedServer(
        name="astrag",
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
    )
    t = Tools(worker)

    async def search_symbols(
        query: Query,
        limit: Annotated[
            int, Field(description="How many symbols to return.", ge=1, le=tools.MAX_LIMIT)
        ] = 10,
    ) -> CallToolResult:
        """Find symbols (functions, classes, methods, ...) for a question or names: names
        written in the query first, then BM25 over identifiers and docs, fused with embedding
        similarity. Returns ids, kinds, locations, scores, signatures and the first lines of
        each definition's code."""
        return await t.call(tools.search_symbols, query, limit)

    async def get_context(
        query: Query,
        budget: Annotated[
            int,
            Field(description="Token budget of the context.", ge=1, le=tools.MAX_BUDGET),
        ] = 8000,
    ) -> CallToolResult:
        """A token-budgeted, explained context for a question or change task: the relevant
        definitions with their source, callers, callees, implementations and types, grouped by
        file, each with the reason it is there."""
        return await t.call(tools.get_context, query, budget)

    async def get_symbol(symbol: SymbolRef) -> CallToolResult:
        """One symbol's signature, docstring, location, direct relations (calls, references,
        inheritance in both directions) and its source as it is on disk now."""
        return await t.call(tools.get_symbol, symbol)

    async def find_callers(symbol: SymbolRef, depth: Depth = 1) -> CallToolResult:
        """Who calls the symbol, transitively up to depth, with each call site (path, line).
        Each result's link is direct, dispatch (it calls a method the symbol overrides or
        implements: `through`), alias (it calls a variable or field holding the symbol,
        `compat = real`: `through`) or candidate (an unresolved call of the same name that may
        be one, or a call of an alias assigned again: unverified); notes say when nothing was
        resolved."""
        return await t.call(tools.find_callers, symbol, depth)

    async def find_callees(symbol: SymbolRef, depth: Depth = 1) -> CallToolResult:
        """What the symbol calls, transitively up to depth, with each call site; dispatch
        results are overriders and implementers a called method may run."""
        return await t.call(tools.find_callees, symbol, depth)

    async def find_references(symbol: SymbolRef) -> CallToolResult:
        """Every use of the symbol, grouped by kind, each with its site and line of code:
        calls, constructions, reads, type annotations, imports, subclasses, implementations,
        overrides, calls that may dispatch to it, and unverified candidates."""
        return await t.call(tools.find_references, symbol)

    async def get_outline(
        path: Annotated[
            str,
            Field(description="A repository-relative file path.", min_length=1, max_length=4096),
        ],
    ) -> CallToolResult:
        """A file's definitions in order, nested, with kinds, signatures and line ranges:
        what is in a file without reading all of it."""
        return await t.call(tools.get_outline, path)

    async def get_repo_map(
        budget: Annotated[
            int, Field(description="Token budget of the map.", ge=1, le=tools.MAX_BUDGET)
        ] = tools.MAP_BUDGET,
    ) -> CallToolResult:
        """An overview of the whole repository: its most central definitions (ranked by
        calls, references, inheritance and imports) with signatures, grouped by file, the
        implementation before tests and examples, within a token budget."""
        return await t.call(tools.get_repo_map, budget)

    async def find_implementations(symbol: SymbolRef) -> CallToolResult:
        """Subclasses and implementers of a class or interface (transitively); for a method,
        the methods that override or implement it."""
        return await t.call(tools.find_implementations, symbol)

    async def check_code(
        code: Annotated[
            str | None,
            Field(
                description="Code to check: a snippet (checked in the scope of `path`, or "
                "standalone with `lang`) or the whole new version of `path`.",
                max_length=tools.MAX_CODE_BYTES,
            ),
        ] = None,
        diff: Annotated[
            str | None,
            Field(
                description="A unified diff against the repository, applied to the files "
                "already or not (instead of code).",
                max_length=tools.MAX_CODE_BYTES,
            ),
        ] = None,
        path: Annotated[
            str | None,
            Field(description="Repository-relative file the code goes into.", max_length=4096),
        ] = None,
        lang: Annotated[
            Literal["python", "typescript", "javascript", "tsx"] | None,
            Field(description="Language of a standalone snippet (when there is no path)."),
        ] = None,
        changed: Annotated[
            bool,
            Field(description="Check what the git working tree changed (instead of code/diff)."),
        ] = False,
        base: Annotated[
            str | None,
            Field(
                description="With changed: the git revision to compare with (HEAD).",
                max_length=256,
            ),
        ] = None,
    ) -> CallToolResult:
        """Check code an LLM wrote against the repository: calls, members, attributes,
        imports, names, argument lists and syntax the codebase cannot back are reported with
        suggestions, also where files the change did not touch use what it removed or renamed.
        Pass exactly one of code, diff (applied to the files or not) and changed."""
        return await t.call(tools.check_code, code, diff, path, lang, changed, base)

    async def index_status() -> CallToolResult:
        """Counts of files, symbols and edges in the index, and how fresh it is (an update
        runs first if files changed)."""
        return await t.call(tools.index_status)

    for fn in (
        search_symbols,
        get_context,
        get_symbol,
        find_callers,
        find_callees,
        find_references,
        find_implementations,
        get_outline,
        get_repo_map,
        check_code,
        index_status,
    ):
        server.add_tool(fn, annotations=READ_ONLY, structured_output=False)
    return server


def check_http_options(host: str, token: str | None) -> str | None:
    """Refuse to expose the server beyond this machine without a token, and a token no
    client could send; return a warning for a weak one."""
    return check_exposure(host, token, token_env=TOKEN_ENV, what="a bearer token")


def _extra_hosts() -> list[str]:
    return [h for h in os.environ.get(HOSTS_ENV, "").split(",") if h.strip()]


def serve(
    root: Path,
    *,
    transport: Literal["stdio", "http"] = "stdio",
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    token: str | None = None,
) -> None:
    """Run the server until the client hangs up (stdio) or the process is stopped (HTTP).
    ``token`` (else ``ASTRAG_MCP_TOKEN``; an empty variable is unset, an empty option an
    error) is the bearer token HTTP clients must send."""
    if token is None:
        token = os.environ.get(TOKEN_ENV) or None
    if transport == "http":
        warning = check_http_options(host, token)
        if warning:
            print(f"astrag mcp: warning: {warning}", file=sys.stderr, flush=True)
    worker = Worker(RepoState(root))
    server = build_server(worker)
    worker.warm_up()
    if transport == "stdio":
        print(f"astrag mcp: serving {root} over stdio", file=sys.stderr, flush=True)
        anyio.run(server.run_stdio_async)
    else:
        anyio.run(_serve_http, server, root, host, port, token)
    worker.pool.shutdown(wait=False, cancel_futures=True)


async def _serve_http(
    server: MCPServer, root: Path, host: str, port: int, token: str | None
) -> None:
    import uvicorn  # only the HTTP transport needs it

    # Host/Origin checked for every bind address, not only the loopback ones the SDK covers
    security = security_settings(host, _extra_hosts())
    app: Any = server.streamable_http_app(host=host, transport_security=security)
    if token:
        app = BearerToken(app, token)
    shown = f"[{host}]" if ":" in host else host
    auth = "bearer token required" if token else "no token (loopback only)"
    names = ", ".join(h for h in security.allowed_hosts if not h.endswith(":*"))
    print(
        f"astrag mcp: serving {root} on http://{shown}:{port}/mcp ({auth}; Host must be one "
        f"of {names}; add names clients use with {HOSTS_ENV}=name,name)",
        file=sys.stderr,
        flush=True,
    )
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    await uvicorn.Server(config).serve()
