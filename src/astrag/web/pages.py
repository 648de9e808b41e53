"""Each page of the web view: API answers (``astrag.api.Index``) rendered as HTML. No answer is
computed here; a page only chooses which API calls it shows and how.

Every function takes the open index and the freshness :class:`Status` of this request and
returns a :class:`Page`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from astrag import api, diagram, present
from astrag.errors import AstragError
from astrag.graph.facts import CLASS_KINDS, Symbol
from astrag.present_text import link as link_text
from astrag.query.calls import CANDIDATE
from astrag.query.imports import Imported
from astrag.query.neighbourhood import Neighbourhood
from astrag.query.uses import USE_KINDS
from astrag.serve.freshness import Status
from astrag.web.html import (
    e,
    file_url,
    json_script,
    kind_badge,
    page,
    query_url,
    site_link,
    source_block,
    symbol_link,
    symbol_url,
    table,
)


@dataclass(frozen=True, slots=True)
class Page:
    status: int
    html: str
    location: str = ""  # a redirect's target


SEARCH_LIMIT = 20
RESOLVED_SHOWN = 200  # callers or callees listed on a symbol page; the counts are of all
CANDIDATES_SHOWN = 30  # unverified callers listed
USES_SHOWN = 40  # uses listed per kind
MAX_INDENT = 8  # outline depths drawn (classes d0..d8 in app.css)


# ------------------------------------------------------------------------------ search


def search(idx: api.Index, status: Status, q: str) -> Page:
    q = q.strip()
    results = ""
    if q:
        data = search_data(idx, q)
        results = "".join(_hit(r) for r in data["results"]) or "<p>nothing matched</p>"
    body = (
        '<h1>Search</h1><form action="/search" id="search-form">'
        f'<input id="q" name="q" value="{e(q)}" autofocus autocomplete="off"'
        ' placeholder="a name, a path or a question" aria-label="query"></form>'
        f'<ol id="results" class="hits">{results}</ol>'
    )
    return Page(200, page(f"search {q}" if q else "search", body, status, scripts=["search.js"]))


def search_data(idx: api.Index, q: str) -> dict:
    """The JSON of ``astrag search`` (what the page's script fetches as the user types)."""
    hits = idx.search(q, SEARCH_LIMIT)
    return present.search_json(q, hits, idx.snippets(h.symbol for h in hits))


def _hit(r: dict) -> str:
    # the same markup search.js builds from the JSON, so a pasted link and typing look alike
    return (
        f'<li class="hit">{kind_badge(str(r["kind"]))} '
        f'<a class="sym" href="{e(symbol_url(str(r["id"])))}">{e(r["symbol"])}</a> '
        f'<a class="site" href="{e(file_url(str(r["path"]), int(r["start_line"])))}">'
        f"{e(r['path'])}:{e(r['start_line'])}</a>"
        f'<div class="sig">{e(r["signature"])}</div>'
        f'<pre class="snippet">{e(r["snippet"])}</pre></li>'
    )


# ------------------------------------------------------------------------------ symbol


def symbol(idx: api.Index, status: Status, ref: str) -> Page:
    s = idx.get(ref)
    if s is None:
        return _choose(idx, status, ref)
    parts = [
        _symbol_head(s, idx.get(s.parent) if s.parent else None),
        _notes(idx.call_notes(s, "callers", callers := idx.callers(s.id))),
        _graph(idx.neighbourhood(s.id, callers=callers)),
        _calls("Callers", callers),
        _calls("Callees", idx.callees(s.id)),
        _hierarchy(idx, s),
        _imports(idx.file_imports(s.path)) if s.kind == "module" else "",
        _references(idx, s),
    ]
    source = idx.source(s)
    if source:
        parts.append(f"<section><h2>Source</h2>{source_block(source, s.start_line)}</section>")
    return Page(200, page(s.qualname or s.id, "".join(parts), status, scripts=["graph.js"]))


def _choose(idx: api.Index, status: Status, ref: str) -> Page:
    """A name rather than an id: the one symbol it names, or the list to choose from."""
    found = idx.lookup(ref) if ref.strip() else []
    if not found:
        body = (
            f"<h1>No symbol {e(ref)}</h1><p>Nothing in the index has this id or name. "
            f'<a href="{e(query_url("/search", q=ref))}">Search for it</a>.</p>'
        )
        return Page(404, page("not found", body, status))
    if len(found) == 1:
        return _redirect(symbol_url(found[0].id), status)
    rows = [
        [symbol_link(c, c.id), kind_badge(c.kind), site_link(c.path, c.start_line)] for c in found
    ]
    body = f"<h1>{len(found)} symbols are named {e(ref)}</h1>" + table(
        ["symbol", "kind", "defined at"], rows
    )
    return Page(200, page(ref, body, status))


def _redirect(url: str, status: Status) -> Page:
    body = f'<p>See <a href="{e(url)}">{e(url)}</a>.</p>'
    return Page(303, page("redirect", body, status), location=url)


def _symbol_head(s: Symbol, parent: Symbol | None) -> str:
    where = site_link(s.path, s.start_line) if s.path else "not in the repository"
    lines = f" · lines {s.start_line}–{s.end_line}" if s.path else ""
    parent = f" · in {symbol_link(parent)}" if parent else ""
    head = f"<h1>{e(s.qualname or s.id)} {kind_badge(s.kind)}</h1>"
    head += f'<p class="where">{where}{lines}{parent}</p>'
    if s.signature:
        head += f'<pre class="signature">{e(s.signature)}</pre>'
    if s.docstring:
        head += f'<pre class="docstring">{e(s.docstring)}</pre>'
    return head


def _notes(notes: Sequence[str]) -> str:
    return "".join(f'<p class="note">{e(n)}</p>' for n in notes)


def _graph(n: Neighbourhood) -> str:
    nodes = [
        {
            "id": node.symbol.id,
            "label": diagram.label(node.symbol),
            "kind": node.symbol.kind,
            "hop": node.hop,
            "where": diagram.where(node.symbol),
            "url": symbol_url(node.symbol.id),
            "placeholder": not node.symbol.path,
        }
        for node in n.nodes
    ]
    links = [
        {"source": k.source, "target": k.target, "kind": k.kind, "link": k.link, "sites": k.sites}
        for k in n.links
    ]
    data = {
        "center": n.center.id,
        "nodes": nodes,
        "links": links,
        "colours": diagram.EDGE_COLOURS,
        "fills": diagram.NODE_FILLS,
        "dashes": diagram.LINK_DASHES,
    }
    more = f", {n.omitted} more not shown" if n.omitted else ""
    return (
        f'<section><h2>Neighbourhood <small id="graph-count">{len(nodes)} symbols within '
        f"{n.depth} hops{more}</small></h2>"
        f'<div id="graph" class="graph"></div>{_legend(n)}{json_script("graph-data", data)}'
        "</section>"
    )


def _legend(n: Neighbourhood) -> str:
    """The edge kinds and link styles the picture uses, each drawn as it is drawn there."""
    kinds = sorted({k.kind for k in n.links})
    links = [k for k in diagram.LINK_DASHES if k in {x.link for x in n.links}]
    items = [_swatch(diagram.EDGE_COLOURS.get(k, "#6b7280"), "") + e(k) for k in kinds]
    items += [_swatch("#374151", diagram.LINK_DASHES[k]) + e(k) for k in links]
    return f'<p id="legend" class="legend">{"".join(f"<span>{i}</span>" for i in items)}</p>'


def _swatch(colour: str, dash: str) -> str:
    # SVG presentation attributes, not inline styles: the page's CSP forbids those
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<svg class="swatch" width="26" height="8" aria-hidden="true"><line x1="0" y1="4" '
        f'x2="26" y2="4" stroke="{colour}" stroke-width="3"{dashes}/></svg>'
    )


def _calls(title: str, found: Sequence[api.Related]) -> str:
    if not found:
        return f"<section><h2>{title} (0)</h2></section>"
    resolved = [r for r in found if r.link != CANDIDATE]
    candidates = [r for r in found if r.link == CANDIDATE]
    rows = [
        [
            symbol_link(r.symbol),
            kind_badge(r.symbol.kind),
            site_link(r.edge.path, r.edge.line),
            f'<span class="link link-{e(r.link)}">{e(link_text(r))}</span>',
        ]
        for r in [*resolved[:RESOLVED_SHOWN], *candidates[:CANDIDATES_SHOWN]]
    ]
    tail = "".join(
        f"<p>… {more:,} more {what} (<code>astrag {title.lower()} --format json</code> lists "
        "all)</p>"
        for more, what in (
            (len(resolved) - RESOLVED_SHOWN, "resolved"),
            (len(candidates) - CANDIDATES_SHOWN, "unverified call sites"),
        )
        if more > 0
    )
    counts = f"{len(resolved)} resolved, {len(candidates)} unverified" if candidates else ""
    return (
        f'<section id="{title.lower()}"><h2>{title} ({len(found)}) <small>{counts}</small></h2>'
        + table(["symbol", "kind", "call site", "link"], rows, cls=title.lower())
        + tail
        + "</section>"
    )


def _hierarchy(idx: api.Index, s: Symbol) -> str:
    """What it overrides, implements or inherits, and what implements or overrides it."""
    up = idx.edges(s.id, incoming=False, kinds=("overrides", "implements", "inherits"))
    ends = idx.store.get_symbols({x.target for x in up})
    rows = [[e(str(x.kind)), symbol_link(ends[x.target])] for x in up if x.target in ends]
    down = idx.implementations(s.id) if s.kind in CLASS_KINDS or s.kind == "method" else []
    word = "overridden by" if s.kind == "method" else "implemented or inherited by"
    rows += [[e(word), symbol_link(r.symbol)] for r in down]
    if not rows:
        return ""
    return "<section><h2>Hierarchy</h2>" + table(["relation", "symbol"], rows) + "</section>"


def _references(idx: api.Index, s: Symbol) -> str:
    uses = idx.references(s.id, code=False)  # only the shown uses' lines are read, below
    groups: dict[str, list[api.Use]] = {}
    for u in uses:
        groups.setdefault(u.kind, []).append(u)
    parts = []
    for kind in USE_KINDS:
        members = groups.get(kind, [])
        if not members:
            continue
        rows = [
            [
                symbol_link(u.symbol),
                site_link(u.edge.path, u.edge.line),
                f"<code>{e(idx.line(u.edge.path, u.edge.line).strip())}</code>",
            ]
            for u in members[:USES_SHOWN]
        ]
        more = f"<p>… {len(members) - USES_SHOWN} more</p>" if len(members) > USES_SHOWN else ""
        parts.append(
            f'<h3 id="uses-{e(kind)}">{e(USE_KINDS[kind])} ({len(members)})</h3>'
            + table(["in", "site", "code"], rows)
            + more
        )
    return f'<section id="references"><h2>References ({len(uses)})</h2>{"".join(parts)}</section>'


# ------------------------------------------------------------------------------ file


def file(idx: api.Index, status: Status, path: str) -> Page:
    try:
        found = idx.outline(path)
    except AstragError as error:
        body = f"<h1>No indexed file {e(path)}</h1><p>{e(error.message)}; {e(error.hint)}</p>"
        return Page(404, page("not found", body, status))
    m = found.module
    body = (
        f"<h1>{e(m.path)} {kind_badge(m.language)}</h1>"
        f'<p class="where">{m.end_line:,} lines · {len(found.entries)} definitions · '
        f'<a href="{e(symbol_url(m.id))}">module symbol</a></p>'
        + (f'<pre class="docstring">{e(m.docstring)}</pre>' if m.docstring else "")
        + f'<section><h2>Outline</h2><ul id="outline" class="outline">{_outline(found)}</ul>'
        + f"</section>{_imports(idx.file_imports(m.path))}"
        + f"<section><h2>Source</h2>{source_block(idx.source(m), 1, anchors=True)}</section>"
    )
    return Page(200, page(m.path, body, status))


def _outline(found: api.Outline) -> str:
    rows = []
    for x in found.entries:
        s = x.symbol
        lines = f"{s.start_line}–{s.end_line}"
        rows.append(
            f'<li class="{_depth(x.depth)}">{kind_badge(s.kind)} {symbol_link(s)} '
            f'<a class="site" href="#L{s.start_line}">{lines}</a>'
            f'<span class="sig">{e(s.signature)}</span></li>'
        )
    return "".join(rows)


def _imports(rel: api.FileImports) -> str:
    def end(i: Imported, other: str) -> str:
        return symbol_link(i.symbol) if i.symbol else e(other)

    imports = [[site_link(i.edge.path, i.edge.line), end(i, i.edge.target)] for i in rel.imports]
    importers = [
        [site_link(i.edge.path, i.edge.line), end(i, i.edge.source), e(_tail(i.edge.target))]
        for i in rel.importers
    ]
    return (
        f'<section id="imports"><h2>Imports ({len(imports)})</h2>'
        + table(["site", "imports"], imports)
        + f'</section><section id="importers"><h2>Imported by ({len(importers)})</h2>'
        + table(["site", "in", "what"], importers)
        + "</section>"
    )


def _tail(symbol_id: str) -> str:
    return symbol_id.rpartition("::")[2] or symbol_id


# ------------------------------------------------------------------------------ index


def index(idx: api.Index, status: Status) -> Page:
    r = idx.report()
    pct = f"{r.rate:.1%}"
    counts = table(
        ["", ""],
        [
            ["files", f"{r.files:,}"],
            ["lines", f"{r.lines:,}"],
            ["symbols", e(_by_kind(r.symbols))],
            ["placeholders", e(_by_kind(r.placeholders))],
            ["edges", e(_by_kind(r.edges))],
            ["calls", f"{pct} resolved ({e(_by_kind(r.calls))})"],
        ],
        cls="counts",
    )
    damaged = [
        [f'<a href="{e(file_url(d.path))}">{e(d.path)}</a>', e(d.language), f"{d.errors:,}",
         "not measured" if d.lost is None else f"{d.lost:,} of {d.lines:,}",
         e(", ".join(f"{a}–{b}" if a != b else str(a) for a, b in d.spans[:8]))]
        for d in r.damaged
    ]  # fmt: skip
    skipped = [[e(k.path), e(k.reason)] for k in r.skipped]
    more = r.skipped_total - len(r.skipped)
    folder_title = f"by folder (under {r.folder_root}/)" if r.folder_root else "by folder"
    body = (
        "<h1>Index</h1>"
        + counts
        + "<section><h2>Call resolution by language</h2>"
        + _shares(r.languages)
        + f"</section><section><h2>Call resolution {e(folder_title)}</h2>"
        + _shares(r.folders)
        + f'</section><section id="damaged"><h2>Files with parse errors ({len(damaged)})</h2>'
        + "<p>Indexed as far as they parse; lines in error regions may have lost definitions.</p>"
        + table(["file", "language", "errors", "lines in error regions", "where"], damaged)
        + f'</section><section id="skipped"><h2>Skipped files ({r.skipped_total:,})</h2>'
        + f"<p>{e(_by_kind(r.skipped_reasons)) or 'none'}</p>"
        + table(["file", "reason"], skipped)
        + (f"<p>… {more:,} more</p>" if more > 0 else "")
        + "</section>"
    )
    return Page(200, page("index", body, status))


def _depth(depth: int) -> str:
    return f"d{min(depth, MAX_INDENT)}"


def _by_kind(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v:,}" for k, v in counts.items())


def _shares(shares: Sequence) -> str:
    rows = [
        [e(s.name), f"{s.files:,}", f"{s.lines:,}", f"{sum(s.calls.values()):,}",
         f"{s.rate:.1%}" if s.calls else "–", e(_by_kind(dict(sorted(s.calls.items()))))]
        for s in shares
    ]  # fmt: skip
    return table(["", "files", "lines", "calls", "resolved", "calls by target"], rows)


# ------------------------------------------------------------------------------ context


def context(idx: api.Index, status: Status, q: str, budget: int) -> Page:
    q = q.strip()
    form = (
        '<h1>Context</h1><form action="/context" class="context-form">'
        f'<input name="q" value="{e(q)}" placeholder="a question or a change task" '
        f'aria-label="question"><input name="budget" type="number" min="1" value="{budget}" '
        'aria-label="token budget"><button>Build</button></form>'
    )
    if not q:
        return Page(200, page("context", form, status))
    answer = idx.answer(q, budget)
    c = answer.context
    rows = [
        [
            f'<a class="sym" href="{e(symbol_url(i.id))}">{e(i.symbol or i.path)}</a>',
            kind_badge(i.kind),
            site_link(i.path, i.start_line),
            e(i.reason),
            "full source" if i.full else "signature",
            f"{i.tokens:,}",
        ]
        for i in c.items
    ]
    body = (
        form
        + _notes(answer.notes)
        + f'<p class="budget">{c.tokens:,} of {c.budget:,} tokens · {len(c.items)} items · '
        f"intent {e(c.intent)}</p>"
        + f'<section><h2>Plan</h2><pre class="plan">{e(answer.plan.explain())}</pre></section>'
        + '<section id="items"><h2>Items</h2>'
        + table(["symbol", "kind", "at", "reason", "shown as", "tokens"], rows)
        + f'</section><section><h2>Text</h2><pre class="context-text">{e(c.text)}</pre></section>'
    )
    return Page(200, page(f"context {q}", body, status))


# ------------------------------------------------------------------------------ map


def repo_map(idx: api.Index, status: Status, budget: int) -> Page:
    m = idx.repo_map(budget)
    files = []
    for f in m.files:
        rows = "".join(
            f'<li class="{_depth(x.depth)}">{kind_badge(x.symbol.kind)} {symbol_link(x.symbol)}'
            f'<span class="sig">{e(x.symbol.signature)}</span></li>'
            for x in f.entries
        )
        files.append(
            f'<h3><a href="{e(file_url(f.path))}">{e(f.path)}</a> <small>{e(f.role)}</small></h3>'
            f'<ul class="outline">{rows}</ul>'
        )
    body = (
        f"<h1>Map</h1><p>{m.definitions_shown:,} of {m.definitions_total:,} definitions in "
        f"{len(m.files)} of {m.files_total:,} files, most central first · {m.tokens:,} of "
        f"{m.budget:,} tokens</p>" + "".join(files)
    )
    return Page(200, page("map", body, status))


def error(status: Status, code: int, message: str, hint: str) -> Page:
    body = f'<h1>{e(message)}</h1><p class="hint">{e(hint)}</p>'
    return Page(code, page("error", body, status))
