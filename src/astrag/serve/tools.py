"""The MCP tools as plain functions over a :class:`RepoState`: validate the inputs, make the
index fresh, answer with the CLI's JSON shapes (``astrag.present``) plus ``"index"``, the
freshness of the answer, and a readable text form.

Transport-free on purpose: the server wraps these, the tests and the benchmark can call them
directly, and every refusal is a :class:`ToolInputError` with a message and a hint.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from astrag import api, present
from astrag.arguments import path_argument, resolved_within, text_argument
from astrag.errors import AstragError
from astrag.serve import text
from astrag.serve.freshness import Status
from astrag.serve.state import RepoState
from astrag.verify.inputs import safe_path

# Input limits: generous for real use, small enough that one call cannot stall the server.
MAX_QUERY_CHARS = 10_000
MAX_SYMBOL_CHARS = 2_000
MAX_LIMIT = 200
MAX_BUDGET = 200_000  # tokens: more than any model's context window holds
MAP_BUDGET = 4000  # get_repo_map's default: an overview, not the whole context window
MAX_DEPTH = 10
MAX_CODE_BYTES = 1_000_000
MAX_RESULTS = 500  # traversal results returned; the rest are counted, not listed
MAX_RELATIONS = 100  # get_symbol's incoming/outgoing edges listed
MAX_SOURCE_LINES = 400  # get_symbol's source; a longer symbol is cut with a note
LANGUAGES = ("python", "typescript", "javascript", "tsx")


class ToolInputError(AstragError):
    """A tool call refused for its arguments; the caller can fix it."""


@dataclass(slots=True)
class Answer:
    """A tool's answer: the structured form (the CLI's JSON shape plus ``index``) and text."""

    data: dict[str, object]
    text: str


def _answer(data: dict[str, object], body: str, status: Status) -> Answer:
    data["index"] = status.to_json()
    return Answer(data, body.rstrip() + "\n\n" + text.freshness(status))


# ---------------------------------------------------------------------- validation
# Public: the web view validates its query strings with the same rules as the MCP tools.


def query_argument(value: str) -> str:
    value = text_argument(value or "", "the query").strip()
    if not value:
        raise ToolInputError("the query is empty", "ask a question or name a symbol")
    if len(value) > MAX_QUERY_CHARS:
        raise ToolInputError(
            f"the query is {len(value)} characters long", f"keep it under {MAX_QUERY_CHARS}"
        )
    return value


def int_argument(name: str, value: int, low: int, high: int, hint: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ToolInputError(f"{name} must be an integer, not {value!r}", hint)
    if not low <= value <= high:
        raise ToolInputError(f"{name} must be between {low} and {high}, not {value}", hint)
    return value


def symbol_argument(value: str) -> str:
    """A symbol id, qualified name, plain name or file path; a path part must stay inside the
    repository (ids are looked up, never opened, but an escape attempt deserves a clear no)."""
    value = text_argument(value or "", "the symbol").strip()
    if not value:
        raise ToolInputError("the symbol is empty", "pass an id, a qualified name or a name")
    if len(value) > MAX_SYMBOL_CHARS:
        raise ToolInputError(f"the symbol is {len(value)} characters long", "pass a symbol id")
    path = value.partition("::")[0] if "::" in value else value
    if "/" in path or "\\" in path or path.startswith(".."):
        safe_path(path)
    return value


def confined(root: Path, path: str) -> str:
    """``path`` as a repository-relative path that stays inside ``root`` once symlinks are
    resolved; refuses ``..``, absolute paths and links that point out."""
    rel = safe_path(path_argument(path, "the path"))
    resolved_within(root, rel)
    return rel


# ---------------------------------------------------------------------- tools


def search_symbols(state: RepoState, query: str, limit: int = 10) -> Answer:
    query = query_argument(query)
    limit = int_argument("limit", limit, 1, MAX_LIMIT, "pass a limit such as 10")
    status = state.ensure_fresh()
    hits = state.index.search(query, limit)
    snippets = state.index.snippets(h.symbol for h in hits)
    data = present.search_json(query, hits, snippets)
    return _answer(data, text.search(query, hits, snippets), status)


def get_context(state: RepoState, query: str, budget: int = 8000) -> Answer:
    query = query_argument(query)
    budget = int_argument("budget", budget, 1, MAX_BUDGET, "pass a token budget such as 8000")
    status = state.ensure_fresh()
    result = state.index.answer(query, budget)
    data = present.context_json(result, explain=False)
    return _answer(data, text.context(result), status)


def get_symbol(state: RepoState, symbol: str) -> Answer:
    query = symbol_argument(symbol)
    status = state.ensure_fresh()
    index = state.index
    s = index.resolve(query)
    outgoing = index.edges(s.id, incoming=False)
    incoming = index.edges(s.id, incoming=True)
    lines = index.source(s).split("\n")
    cut = len(lines) > MAX_SOURCE_LINES
    others = index.declarations(s)
    data: dict[str, object] = {
        "symbol": present.symbol_json(s),
        "declarations": [present.declaration_json(d) for d in others],
        "source": "\n".join(lines[:MAX_SOURCE_LINES]),
        "outgoing": [{"target": e.target, **present.site_json(e)} for e in outgoing][
            :MAX_RELATIONS
        ],
        "incoming": [{"source": e.source, **present.site_json(e)} for e in incoming][
            :MAX_RELATIONS
        ],
        "outgoing_total": len(outgoing),
        "incoming_total": len(incoming),
        "source_truncated": cut,
    }
    return _answer(data, text.symbol(s, data, outgoing, incoming, others), status)


def _traversal(state: RepoState, symbol: str, relation: str, depth: int) -> Answer:
    query = symbol_argument(symbol)
    if relation != "implementations":
        depth = int_argument("depth", depth, 1, MAX_DEPTH, "pass a depth between 1 and 3")
    status = state.ensure_fresh()
    index = state.index
    s = index.resolve(query)
    if relation == "implementations":
        found = index.implementations(s.id)
    elif relation == "callers":
        found = index.callers(s.id, depth=depth)
    else:
        found = index.callees(s.id, depth=depth)
    data = present.traversal_json(s, relation, depth, found, listed=MAX_RESULTS)
    data["total"] = len(found)
    data["truncated"] = len(found) > MAX_RESULTS
    return _answer(data, text.traversal(s, relation, found[:MAX_RESULTS], len(found)), status)


def find_callers(state: RepoState, symbol: str, depth: int = 1) -> Answer:
    return _traversal(state, symbol, "callers", depth)


def find_callees(state: RepoState, symbol: str, depth: int = 1) -> Answer:
    return _traversal(state, symbol, "callees", depth)


def find_implementations(state: RepoState, symbol: str) -> Answer:
    return _traversal(state, symbol, "implementations", 0)


def find_references(state: RepoState, symbol: str) -> Answer:
    query = symbol_argument(symbol)
    status = state.ensure_fresh()
    s = state.index.resolve(query)
    found = state.index.references(s.id)
    data = present.references_json(s, found, listed=MAX_RESULTS)
    data["truncated"] = len(found) > MAX_RESULTS
    return _answer(data, text.references(s, found), status)


def get_outline(state: RepoState, path: str) -> Answer:
    status = state.ensure_fresh()
    outline = state.index.outline(confined(state.root, path))
    return _answer(present.outline_json(outline), text.outline(outline), status)


def get_repo_map(state: RepoState, budget: int = MAP_BUDGET) -> Answer:
    budget = int_argument("budget", budget, 1, MAX_BUDGET, "pass a token budget such as 4000")
    status = state.ensure_fresh()
    repo_map = state.index.repo_map(budget)
    return _answer(present.map_json(repo_map), text.repo_map(repo_map), status)


def check_code(
    state: RepoState,
    code: str | None = None,
    diff: str | None = None,
    path: str | None = None,
    lang: str | None = None,
    changed: bool = False,
    base: str | None = None,
) -> Answer:
    if (code is not None) + (diff is not None) + bool(changed) != 1:
        raise ToolInputError(
            "pass exactly one of code, diff and changed",
            "code: a snippet or a whole file (with path); diff: a unified diff, applied or "
            "not; changed: true to check what the git working tree changed",
        )
    if base is not None and not changed:
        raise ToolInputError("base only applies with changed", "pass changed: true as well")
    source = code if code is not None else diff or ""
    size = len(source.encode("utf-8", errors="replace"))
    if size > MAX_CODE_BYTES:
        raise ToolInputError(
            f"the {'code' if code is not None else 'diff'} is {size:,} bytes",
            f"check at most {MAX_CODE_BYTES:,} bytes at a time",
        )
    if not changed and not source.strip():
        raise ToolInputError("there is no code to check", "pass the code or diff an LLM wrote")
    if lang is not None and lang.lower() not in LANGUAGES:
        raise ToolInputError(f"unknown language {lang!r}", f"use one of {', '.join(LANGUAGES)}")
    status = state.ensure_fresh()
    target = confined(state.root, path) if path is not None else None
    if code is not None and target is None and lang is None:
        raise ToolInputError(
            "cannot tell the language of the code to check",
            "pass path (the repository file it goes into) or lang",
        )
    report = api.check(
        state.root,
        source,
        path=target,
        lang=lang,
        diff=diff is not None,
        changed=changed,
        base=base,
        session=state.check_session,
    )
    return _answer(present.check_json(report), text.check(report), status)


def index_status(state: RepoState) -> Answer:
    status = state.ensure_fresh()
    data = state.index.stats()
    return _answer(data, text.stats(data), status)
